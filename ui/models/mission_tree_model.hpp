// MissionTreeModel: the mission database as a tree for the operator — packet types (name, APID and
// secondary id, length, parameter count, description) and under each its parameters (data type and
// byte order, bit offset and size, units, calibration, limits, description), with a tool tip holding
// the full definition in the text definition language.
//
// It shows a database it does not own: setDatabase() takes a pointer that must stay valid until the
// next call (the station's database, or a dialog's import result). The database is read-only here,
// so the model is reset only when the pointer changes.
//
// Dragging a parameter gives its qualified name ("Packet.PARAMETER") as ValueTableModel's
// kParameterMimeType and as text/plain; dragging a packet gives all of its parameters.
#pragma once

#include "core/mdb/model.hpp"

#include <QAbstractItemModel>
#include <QSortFilterProxyModel>
#include <QString>
#include <QStringList>

#include <vector>

namespace telestation::ui {

class MissionTreeModel : public QAbstractItemModel {
    Q_OBJECT

public:
    // Packet rows fill Name, Apid, Length, Parameters and Description; parameter rows fill Name, Type,
    // BitOffset, BitLength, Units, Calibration, Limits and Description.
    enum Column {
        Name,
        Apid,
        Length,
        Parameters,
        Type,
        BitOffset,
        BitLength,
        Units,
        Calibration,
        Limits,
        Description,
        ColumnCount
    };
    enum class ItemKind { Packet, Parameter };

    // Parameter rows: the qualified name; packet rows: the packet name.
    static constexpr int kQualifiedNameRole = Qt::UserRole + 1;
    // What the browser's filter searches (any column): a parameter's qualified name, units and
    // description; a packet's name and description.
    static constexpr int kSearchTextRole = Qt::UserRole + 2;
    // An ItemKind as int.
    static constexpr int kKindRole = Qt::UserRole + 3;

    explicit MissionTreeModel(QObject* parent = nullptr);
    ~MissionTreeModel() override;

    // nullptr shows nothing. `db` must stay valid until the next call.
    void setDatabase(const mdb::MissionDatabase* db);
    [[nodiscard]] const mdb::MissionDatabase* database() const noexcept { return m_db; }

    // The packet of a packet row, or the packet a parameter row belongs to; nullptr otherwise.
    [[nodiscard]] const mdb::PacketDef* packet(const QModelIndex& index) const;
    // The parameter of a parameter row; nullptr for packet rows and invalid indexes.
    [[nodiscard]] const mdb::ParameterDef* parameter(const QModelIndex& index) const;
    // The row of a packet ("Packet") or of a parameter ("Packet.PARAMETER"), column 0; invalid if none.
    [[nodiscard]] QModelIndex indexOf(const QString& name) const;

    // The qualified names of the parameters that `indexes` designate (a packet row stands for all of
    // its parameters), each once, in definition order. Indexes of any column count.
    [[nodiscard]] QStringList qualifiedNames(const QModelIndexList& indexes) const;

    [[nodiscard]] QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    [[nodiscard]] QModelIndex parent(const QModelIndex& child) const override;
    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                      int role = Qt::DisplayRole) const override;
    [[nodiscard]] Qt::ItemFlags flags(const QModelIndex& index) const override;
    [[nodiscard]] QStringList mimeTypes() const override;
    [[nodiscard]] QMimeData* mimeData(const QModelIndexList& indexes) const override;
    [[nodiscard]] Qt::DropActions supportedDragActions() const override;

    // One-line summaries shown in the columns (public for the tests and for other views).
    [[nodiscard]] static QString typeText(const mdb::PacketDef& packet, const mdb::ParameterDef& parameter);
    [[nodiscard]] static QString calibrationText(const mdb::ParameterDef& parameter);
    [[nodiscard]] static QString limitsText(const mdb::ParameterDef& parameter);
    // Where a parameter lies when the data decides it: "after the previous parameter, LEN bits, present
    // when MODE = 1"; and its size: "16", "LEN bits", "8·PKT_LEN − 328", "to byte 0x00".
    [[nodiscard]] static QString placementText(const mdb::ParameterDef& parameter);
    [[nodiscard]] static QString sizeText(const mdb::ParameterDef& parameter);

private:
    [[nodiscard]] QVariant packetData(const mdb::PacketDef& packet, int column, int role) const;
    [[nodiscard]] QVariant parameterData(const mdb::PacketDef& packet, const mdb::ParameterDef& parameter,
                                         int column, int role) const;

    const mdb::MissionDatabase* m_db = nullptr;
    // What the filter searches, per packet (index 0) and its parameters (1 + i): built once per
    // database, since the filter asks every row again on each keystroke (10,000 rows of a real mission).
    std::vector<std::vector<QString>> m_searchText;
};

// The mission tree filtered by what the operator types (setFilterFixedString; kSearchTextRole of the
// name column, any case): a packet stays when one of its parameters matches, and a matching packet keeps
// all of its parameters. The mission browser's filter and the recording export dialog's.
class MissionTreeFilter : public QSortFilterProxyModel {
    Q_OBJECT

public:
    explicit MissionTreeFilter(QObject* parent = nullptr);
};

} // namespace telestation::ui
