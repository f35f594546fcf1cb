// ValueTableModel: the rows of the value display — chosen (stream, parameter) pairs with their newest
// value, taken through a newest-value api::ParameterSubscription of exactly those pairs (Process
// Entire Packet types from the current value table, Process On Demand types by decoding the kept
// packet). refresh(), called by the display's timer, polls the subscription — which reports only the
// pairs whose packet type updated since the last refresh — updates the age column of every row, and
// emits one dataChanged per block of adjacent changed rows: never a reset, so that views keep their
// selection and scroll position with 1,000 rows at 10 Hz.
//
// Colours: the background of a row says its limit state (green normal, yellow, red); a row whose
// newest value was received more than staleTimeout() seconds ago is grey instead, whatever its limits.
#pragma once

#include "core/api/consumer.hpp"

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace telestation::ui {

class ValueTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Name, Raw, Converted, Calibrated, Units, Limit, PacketTime, Age, ColumnCount };
    enum class RawFormat { Hex, Decimal };

    // The unformatted value of a cell: Raw qulonglong; Converted qulonglong / qlonglong / double (per
    // the data type; the length in bytes for String/Bytes); Calibrated double; Limit int (a
    // decode::LimitState); PacketTime qlonglong ns since the Unix epoch; Age double seconds.
    // Invalid while the row has no value.
    static constexpr int kValueRole = Qt::UserRole + 1;
    // Per row (any column): a RowState as int.
    static constexpr int kRowStateRole = Qt::UserRole + 2;
    // The MIME type a parameter browser drags: qualified names, one per line (text/plain is accepted too).
    static constexpr const char* kParameterMimeType = "application/x-telestation-parameters";

    // What the colours of a row say.
    enum class RowState { NoValue, NoLimits, Normal, Yellow, Red, Stale };

    static constexpr double kDefaultStaleSeconds = 5.0;

    explicit ValueTableModel(pipeline::Station& station, QObject* parent = nullptr);
    ~ValueTableModel() override;

    // Adds a row; false (and nothing added) when the stream or parameter does not exist or the pair is
    // already shown. The new row shows the current value at once.
    bool addParameter(std::uint16_t streamId, std::uint32_t parameterId);
    // By name; `error` (when given) says why it was refused.
    bool addParameter(const QString& stream, const QString& qualifiedName, QString* error = nullptr);
    // Removes the given rows (any order, duplicates ignored), in as few blocks as possible.
    void removeParameters(std::vector<int> rows);
    bool removeRows(int row, int count, const QModelIndex& parent = {}) override;
    void clear();

    [[nodiscard]] std::uint16_t streamId(int row) const { return m_rows.at(static_cast<std::size_t>(row)).streamId; }
    [[nodiscard]] std::uint32_t parameterId(int row) const { return m_rows.at(static_cast<std::size_t>(row)).parameterId; }
    [[nodiscard]] std::optional<pipeline::ParameterSample> sample(int row) const;
    [[nodiscard]] RowState rowState(int row) const;

    // The stream that dropped names are added to (default: the first stream).
    void setDropStream(std::uint16_t streamId) noexcept { m_dropStream = streamId; }
    [[nodiscard]] std::uint16_t dropStream() const noexcept { return m_dropStream; }

    void setRawFormat(RawFormat format);
    [[nodiscard]] RawFormat rawFormat() const noexcept { return m_rawFormat; }
    // A row turns grey when its newest value is older than this (seconds, > 0).
    void setStaleTimeout(double seconds);
    [[nodiscard]] double staleTimeout() const noexcept { return m_staleSeconds; }

    // The qualified names a drag carries (kParameterMimeType, else text/plain), one per line.
    [[nodiscard]] static std::vector<QString> namesIn(const QMimeData* data);

    // Every qualified name of the mission database, in definition order (for completion).
    [[nodiscard]] QStringList qualifiedNames() const;

    // Takes what changed (see the file comment). Returns the number of rows whose value was read.
    int refresh();

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    [[nodiscard]] Qt::ItemFlags flags(const QModelIndex& index) const override;
    [[nodiscard]] QStringList mimeTypes() const override;
    [[nodiscard]] Qt::DropActions supportedDropActions() const override;
    [[nodiscard]] bool canDropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                                       const QModelIndex& parent) const override;
    bool dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                      const QModelIndex& parent) override;

private:
    struct Row {
        std::uint16_t streamId = 0;
        std::uint32_t parameterId = 0;
        bool hasValue = false;
        bool stale = false;
        pipeline::ParameterSample sample;
        QString name;                     // as shown
    };

    [[nodiscard]] static std::uint64_t rowKey(std::uint16_t streamId, std::uint32_t parameterId) noexcept
    {
        return std::uint64_t{streamId} << 32 | parameterId;
    }
    [[nodiscard]] bool isStale(const Row& row, std::int64_t nowNs) const noexcept;
    [[nodiscard]] RowState stateOf(const Row& row) const noexcept;
    [[nodiscard]] QString rowName(std::uint16_t streamId, std::uint32_t parameterId) const;
    [[nodiscard]] QVariant displayText(const Row& row, int column) const;
    [[nodiscard]] QVariant value(const Row& row, int column) const;

    pipeline::Station& m_station;
    std::unique_ptr<api::ParameterSubscription> m_values; // newest value of exactly the rows' pairs
    std::vector<api::ParameterSample> m_taken;            // room for one sample per row
    std::vector<Row> m_rows;
    std::unordered_map<std::uint64_t, std::size_t> m_rowOf; // rowKey(stream, parameter) → row
    std::uint16_t m_dropStream = 0;
    RawFormat m_rawFormat = RawFormat::Hex;
    double m_staleSeconds = kDefaultStaleSeconds;
    std::int64_t m_nowNs = 0; // the wall clock at the last refresh: ages are shown as of then
};

} // namespace telestation::ui
