// Add stream… / Edit… : a stream's name, destination (checked as typed), packet mix (the database's
// packet types, checkable, with weights), rate, length (until stopped / a duration / a packet count),
// transport header bytes and seed. Faults and value generators of an edited stream are kept as they
// are (faults are changed in the side panel; generators in the scenario file).
#pragma once

#include "core/mdb/model.hpp"
#include "sim/engine/scenario.hpp"

#include <QDialog>
#include <QStringList>

#include <functional>

class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableWidget;

namespace telestation::sim::gui {

class StreamDialog : public QDialog {
    Q_OBJECT

public:
    // `takenNames`: the names of the other streams (a stream's name must be unique).
    StreamDialog(const mdb::MissionDatabase& db, QStringList takenNames, QWidget* parent = nullptr);

    void setConfig(const StreamConfig& config);
    [[nodiscard]] StreamConfig config() const;

    // Called on OK with the configuration; an error message keeps the dialog open and shows it (the
    // stream could not be created: address in use, unknown host...). "" accepts.
    using Acceptor = std::function<QString(const StreamConfig&)>;
    void setAcceptor(Acceptor acceptor) { m_acceptor = std::move(acceptor); }

    // What keeps OK disabled ("" when the entries are valid).
    [[nodiscard]] QString validationError() const { return m_validationError; }

    void accept() override;

private:
    void buildPacketTable();
    void validate();
    [[nodiscard]] QString destinationError() const;
    [[nodiscard]] QString checkEntries() const;

    const mdb::MissionDatabase& m_db;
    QStringList m_takenNames;
    StreamConfig m_base; // what is kept as it was (faults, generators)
    // Per packet row: how the scenario spelled the entry, when it named this packet type ("" otherwise).
    std::vector<std::string> m_spelling;
    Acceptor m_acceptor;
    QString m_validationError;

    QLineEdit* m_name = nullptr;
    QLineEdit* m_destination = nullptr;
    QLabel* m_destinationError = nullptr;
    QTableWidget* m_packets = nullptr;
    QLineEdit* m_rate = nullptr;
    QLabel* m_rateError = nullptr;
    QComboBox* m_stopAfter = nullptr;
    QDoubleSpinBox* m_duration = nullptr;
    QSpinBox* m_count = nullptr;
    QSpinBox* m_transportHeader = nullptr;
    QLineEdit* m_seed = nullptr;
    QLabel* m_error = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace telestation::sim::gui
