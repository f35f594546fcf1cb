#include "sim/gui/stream_dialog.hpp"

#include "core/io/endpoint.hpp"
#include "sim/gui/stream_panel.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace telestation::sim::gui {

namespace {

enum PacketColumn { PacketName, PacketApid, PacketBytes, PacketWeight, PacketColumns };
enum StopAfter { StopNever, StopDuration, StopCount };

QLabel* errorLabel(const QString& objectName, QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    QPalette palette = label->palette();
    palette.setColor(QPalette::WindowText, QColor(0xc0, 0x39, 0x2b));
    label->setPalette(palette);
    label->hide();
    return label;
}

void showError(QLabel* label, const QString& text)
{
    label->setText(text);
    label->setVisible(!text.isEmpty());
}

} // namespace

StreamDialog::StreamDialog(const mdb::MissionDatabase& db, QStringList takenNames, QWidget* parent)
    : QDialog(parent), m_db(db), m_takenNames(std::move(takenNames))
{
    setObjectName(QStringLiteral("streamDialog"));
    setWindowTitle(tr("Stream"));

    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("nameEdit"));

    m_destination = new QLineEdit(this);
    m_destination->setObjectName(QStringLiteral("destinationEdit"));
    m_destination->setPlaceholderText(QStringLiteral("udp://127.0.0.1:5000"));
    m_destination->setToolTip(tr("udp://HOST:PORT, udp://GROUP:PORT?iface=ADDR (multicast), tcp://HOST:PORT "
                                 "(connects), tcp-listen://HOST:PORT (accepts clients)"));
    m_destinationError = errorLabel(QStringLiteral("destinationError"), this);

    m_packets = new QTableWidget(0, PacketColumns, this);
    m_packets->setObjectName(QStringLiteral("packetTable"));
    m_packets->setHorizontalHeaderLabels({tr("Packet type"), tr("APID"), tr("Bytes"), tr("Weight")});
    m_packets->verticalHeader()->hide();
    m_packets->setSelectionMode(QAbstractItemView::NoSelection);
    m_packets->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_packets->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_packets->horizontalHeader()->setSectionResizeMode(PacketName, QHeaderView::Stretch);
    m_packets->setMinimumHeight(180);
    buildPacketTable();

    m_rate = new QLineEdit(this);
    m_rate->setObjectName(QStringLiteral("streamRateEdit"));
    m_rate->setPlaceholderText(QStringLiteral("100pps, 2.5kpps, 25.6Mbps, flood"));
    m_rate->setMaximumWidth(200);
    m_rateError = errorLabel(QStringLiteral("streamRateError"), this);

    m_stopAfter = new QComboBox(this);
    m_stopAfter->setObjectName(QStringLiteral("stopAfterCombo"));
    m_stopAfter->addItem(tr("Never (until stopped)"));
    m_stopAfter->addItem(tr("A duration"));
    m_stopAfter->addItem(tr("A number of packets"));
    m_duration = new QDoubleSpinBox(this);
    m_duration->setObjectName(QStringLiteral("durationSpin"));
    m_duration->setRange(0.001, 1e7);
    m_duration->setDecimals(3);
    m_duration->setSuffix(tr(" s"));
    m_duration->setValue(60);
    m_count = new QSpinBox(this);
    m_count->setObjectName(QStringLiteral("countSpin"));
    m_count->setRange(1, std::numeric_limits<int>::max());
    m_count->setSuffix(tr(" packets"));
    m_count->setValue(1000);
    m_count->setGroupSeparatorShown(true);
    auto* stopRow = new QHBoxLayout;
    stopRow->setContentsMargins(0, 0, 0, 0);
    stopRow->addWidget(m_stopAfter);
    stopRow->addWidget(m_duration);
    stopRow->addWidget(m_count);
    stopRow->addStretch(1);

    m_transportHeader = new QSpinBox(this);
    m_transportHeader->setObjectName(QStringLiteral("transportHeaderSpin"));
    m_transportHeader->setRange(0, 65535);
    m_transportHeader->setSuffix(tr(" bytes"));
    m_transportHeader->setMaximumWidth(200);
    m_transportHeader->setToolTip(tr("Bytes before each packet (zero-filled but for a 32-bit counter at their end)"));

    m_seed = new QLineEdit(this);
    m_seed->setObjectName(QStringLiteral("seedEdit"));
    m_seed->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{1,20}")), m_seed));
    m_seed->setToolTip(tr("Seed of the random value generators and of the faults"));
    m_seed->setMaximumWidth(200);

    m_error = errorLabel(QStringLiteral("errorLabel"), this);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("okButton"));
    m_buttons->button(QDialogButtonBox::Cancel)->setObjectName(QStringLiteral("cancelButton"));

    auto* form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    auto* destination = new QVBoxLayout;
    destination->setSpacing(2);
    destination->addWidget(m_destination);
    destination->addWidget(m_destinationError);
    // A label with a buddy: rows whose field is a layout get none by themselves.
    auto* destinationLabel = new QLabel(tr("&Destination:"), this);
    destinationLabel->setBuddy(m_destination);
    form->addRow(destinationLabel, destination);
    form->addRow(tr("Packet &mix:"), m_packets);
    auto* rate = new QVBoxLayout;
    rate->setSpacing(2);
    rate->addWidget(m_rate);
    rate->addWidget(m_rateError);
    auto* rateLabel = new QLabel(tr("&Rate:"), this);
    rateLabel->setBuddy(m_rate);
    form->addRow(rateLabel, rate);
    auto* stopLabel = new QLabel(tr("&Stop after:"), this);
    stopLabel->setBuddy(m_stopAfter);
    form->addRow(stopLabel, stopRow);
    form->addRow(tr("&Transport header:"), m_transportHeader);
    form->addRow(tr("S&eed:"), m_seed);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form, 1);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &StreamDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &StreamDialog::reject);
    for (QLineEdit* edit : {m_name, m_destination, m_rate, m_seed})
        connect(edit, &QLineEdit::textChanged, this, &StreamDialog::validate);
    connect(m_packets, &QTableWidget::itemChanged, this, &StreamDialog::validate);
    connect(m_stopAfter, &QComboBox::currentIndexChanged, this, &StreamDialog::validate);

    StreamConfig defaults;
    defaults.rate = Rate{Rate::Unit::PacketsPerSecond, 100};
    if (!db.packets.empty())
        defaults.mix.push_back(MixEntry{db.packets.front().name, 1});
    setConfig(defaults);
    resize(560, 600);
}

void StreamDialog::buildPacketTable()
{
    m_packets->setRowCount(static_cast<int>(m_db.packets.size()));
    m_spelling.assign(m_db.packets.size(), std::string());
    for (std::size_t i = 0; i < m_db.packets.size(); ++i) {
        const mdb::PacketDef& def = m_db.packets[i];
        const auto row = static_cast<int>(i);
        auto* name = new QTableWidgetItem(QString::fromStdString(def.name));
        name->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        name->setCheckState(Qt::Unchecked);
        if (!def.description.empty())
            name->setToolTip(QString::fromStdString(def.description));
        m_packets->setItem(row, PacketName, name);
        auto* apid = new QTableWidgetItem(QString::number(def.apid));
        apid->setFlags(Qt::ItemIsEnabled);
        apid->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_packets->setItem(row, PacketApid, apid);
        auto* bytes = new QTableWidgetItem(def.variableLength ? QStringLiteral("%1–%2").arg(def.length).arg(def.maxLength)
                                                              : QString::number(def.length));
        bytes->setFlags(Qt::ItemIsEnabled);
        bytes->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_packets->setItem(row, PacketBytes, bytes);
        auto* weight = new QDoubleSpinBox(m_packets);
        weight->setObjectName(QStringLiteral("weight_%1").arg(QString::fromStdString(def.name)));
        weight->setRange(0.001, 1e6);
        weight->setDecimals(3);
        weight->setValue(1);
        weight->setFrame(false);
        weight->setToolTip(tr("Relative rate of this packet type in the stream"));
        m_packets->setCellWidget(row, PacketWeight, weight);
    }
}

void StreamDialog::setConfig(const StreamConfig& config)
{
    m_base = config;
    m_name->setText(QString::fromStdString(config.name));
    m_destination->setText(QString::fromStdString(config.destination));
    m_rate->setText(QString::fromStdString(toString(config.rate)));
    if (config.durationSeconds) {
        m_stopAfter->setCurrentIndex(StopDuration);
        m_duration->setValue(*config.durationSeconds);
    } else if (config.count) {
        m_stopAfter->setCurrentIndex(StopCount);
        m_count->setValue(static_cast<int>(std::min<std::uint64_t>(*config.count, std::numeric_limits<int>::max())));
    } else {
        m_stopAfter->setCurrentIndex(StopNever);
    }
    m_transportHeader->setValue(static_cast<int>(std::min<std::uint32_t>(config.transportHeaderBytes, 65535)));
    m_seed->setText(QString::number(config.seed));

    const QSignalBlocker blocker(m_packets);
    for (int row = 0; row < m_packets->rowCount(); ++row)
        m_packets->item(row, PacketName)->setCheckState(Qt::Unchecked);
    m_spelling.assign(m_db.packets.size(), std::string());
    for (const MixEntry& entry : config.mix) {
        const mdb::PacketDef* def = StreamPanel::resolveMixEntry(m_db, entry.packet);
        if (!def)
            continue;
        const auto row = static_cast<std::size_t>(def - m_db.packets.data());
        m_spelling[row] = entry.packet;
        m_packets->item(static_cast<int>(row), PacketName)->setCheckState(Qt::Checked);
        static_cast<QDoubleSpinBox*>(m_packets->cellWidget(static_cast<int>(row), PacketWeight))->setValue(entry.weight);
    }
    validate();
}

StreamConfig StreamDialog::config() const
{
    StreamConfig config = m_base;
    config.name = m_name->text().trimmed().toStdString();
    config.destination = m_destination->text().trimmed().toStdString();
    if (auto rate = parseRate(m_rate->text().trimmed().toStdString()))
        config.rate = *rate;
    config.durationSeconds.reset();
    config.count.reset();
    if (m_stopAfter->currentIndex() == StopDuration)
        config.durationSeconds = m_duration->value();
    else if (m_stopAfter->currentIndex() == StopCount)
        config.count = static_cast<std::uint64_t>(m_count->value());
    config.transportHeaderBytes = static_cast<std::uint32_t>(m_transportHeader->value());
    bool ok = false;
    const qulonglong seed = m_seed->text().toULongLong(&ok);
    if (ok)
        config.seed = seed;

    // The mix: the entries kept in the order the scenario had them, then the newly checked ones.
    auto checked = [this](std::size_t row) {
        return m_packets->item(static_cast<int>(row), PacketName)->checkState() == Qt::Checked;
    };
    auto weight = [this](std::size_t row) {
        return static_cast<QDoubleSpinBox*>(m_packets->cellWidget(static_cast<int>(row), PacketWeight))->value();
    };
    config.mix.clear();
    std::vector<bool> done(m_db.packets.size(), false);
    for (const MixEntry& entry : m_base.mix) {
        const mdb::PacketDef* def = StreamPanel::resolveMixEntry(m_db, entry.packet);
        if (!def)
            continue;
        const auto row = static_cast<std::size_t>(def - m_db.packets.data());
        if (done[row] || !checked(row))
            continue;
        done[row] = true;
        // The weight as configured unless changed here (the spin box rounds to 3 decimals).
        const double shown = weight(row);
        const bool unchanged = std::abs(shown - entry.weight) < 0.0005;
        config.mix.push_back(MixEntry{entry.packet, unchanged ? entry.weight : shown});
    }
    for (std::size_t row = 0; row < m_db.packets.size(); ++row)
        if (!done[row] && checked(row))
            config.mix.push_back(MixEntry{m_db.packets[row].name, weight(row)});
    return config;
}

QString StreamDialog::destinationError() const
{
    const QString text = m_destination->text().trimmed();
    if (text.isEmpty())
        return tr("Enter a destination, e.g. udp://127.0.0.1:5000");
    const auto endpoint = io::parseEndpoint(text.toStdString());
    if (!endpoint)
        return QString::fromStdString(endpoint.error().message);
    if (endpoint->scheme == io::Scheme::File)
        return tr("The simulator sends to udp://, tcp:// or tcp-listen:// destinations; file:// is for playback");
    return {};
}

QString StreamDialog::checkEntries() const
{
    const QString name = m_name->text().trimmed();
    if (name.isEmpty())
        return tr("Give the stream a name");
    if (m_takenNames.contains(name))
        return tr("Another stream is called %1").arg(name);
    if (const QString error = destinationError(); !error.isEmpty())
        return error;
    bool anyPacket = false;
    for (int row = 0; row < m_packets->rowCount(); ++row)
        anyPacket = anyPacket || m_packets->item(row, PacketName)->checkState() == Qt::Checked;
    if (!anyPacket)
        return tr("Check at least one packet type for the mix");
    if (const auto rate = parseRate(m_rate->text().trimmed().toStdString()); !rate)
        return QString::fromStdString(rate.error().message);
    bool ok = false;
    (void)m_seed->text().toULongLong(&ok);
    if (!ok)
        return tr("The seed is a whole number (0 to 18446744073709551615)");
    return {};
}

void StreamDialog::validate()
{
    // The destination's and the rate's own messages appear under them as they are typed; an empty
    // destination of a new stream is not yet an error there.
    const QString destination = destinationError();
    showError(m_destinationError, m_destination->text().trimmed().isEmpty() ? QString() : destination);
    const auto rate = parseRate(m_rate->text().trimmed().toStdString());
    showError(m_rateError, rate ? QString() : QString::fromStdString(rate.error().message));
    m_duration->setVisible(m_stopAfter->currentIndex() == StopDuration);
    m_count->setVisible(m_stopAfter->currentIndex() == StopCount);
    for (int row = 0; row < m_packets->rowCount(); ++row)
        m_packets->cellWidget(row, PacketWeight)->setEnabled(m_packets->item(row, PacketName)->checkState() == Qt::Checked);

    m_validationError = checkEntries();
    // The summary repeats only what is not already shown beside its field.
    const bool shownBeside = m_validationError == m_destinationError->text() && !m_destinationError->isHidden();
    const bool rateBeside = m_validationError == m_rateError->text() && !m_rateError->isHidden();
    showError(m_error, shownBeside || rateBeside ? QString() : m_validationError);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_validationError.isEmpty());
}

void StreamDialog::accept()
{
    validate();
    if (!m_validationError.isEmpty())
        return;
    if (m_acceptor) {
        const QString error = m_acceptor(config());
        if (!error.isEmpty()) {
            showError(m_error, error);
            return;
        }
    }
    QDialog::accept();
}

} // namespace telestation::sim::gui
