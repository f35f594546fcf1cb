#include "sim/gui/stream_panel.hpp"

#include "core/io/endpoint.hpp"
#include "sim/engine/sim_stream.hpp"
#include "sim/gui/fault_panel.hpp"
#include "sim/gui/gui_text.hpp"
#include "sim/gui/rate_control.hpp"

#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <charconv>

namespace telestation::sim::gui {

namespace {

QTableWidgetItem* readOnlyItem(const QString& text, Qt::Alignment alignment = Qt::AlignLeft | Qt::AlignVCenter)
{
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    item->setTextAlignment(alignment);
    return item;
}

} // namespace

StreamPanel::StreamPanel(QWidget* parent) : QWidget(parent)
{
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("streamTitle"));
    m_title->setWordWrap(true);
    m_title->setTextFormat(Qt::RichText);

    m_rateBox = new QGroupBox(tr("Rate"), this);
    m_rate = new RateControl(m_rateBox);
    (new QVBoxLayout(m_rateBox))->addWidget(m_rate);

    m_mixBox = new QGroupBox(tr("Packet mix"), this);
    m_mix = new QTableWidget(0, 5, m_mixBox);
    m_mix->setObjectName(QStringLiteral("mixTable"));
    m_mix->setHorizontalHeaderLabels({tr("Packet"), tr("APID"), tr("Weight"), tr("Share"), tr("Bytes")});
    m_mix->verticalHeader()->hide();
    m_mix->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_mix->setSelectionMode(QAbstractItemView::NoSelection);
    m_mix->setFocusPolicy(Qt::NoFocus);
    m_mix->setAlternatingRowColors(true);
    m_mix->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_mix->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_mix->verticalHeader()->setDefaultSectionSize(m_mix->fontMetrics().height() + 6);
    m_mix->setToolTip(tr("The packet types this stream sends and their relative rates (Edit… changes them)"));
    (new QVBoxLayout(m_mixBox))->addWidget(m_mix);

    m_faultBox = new QGroupBox(tr("Faults (probability per packet)"), this);
    m_faults = new FaultPanel(m_faultBox);
    m_faults->setObjectName(QStringLiteral("faultPanel"));
    (new QVBoxLayout(m_faultBox))->addWidget(m_faults);

    m_statisticsBox = new QGroupBox(tr("Since the stream started"), this);
    m_statisticsBox->setObjectName(QStringLiteral("statisticsBox"));
    auto* statistics = new QFormLayout(m_statisticsBox);
    statistics->setLabelAlignment(Qt::AlignLeft);
    const std::array<QString, StatisticCount> names{tr("Running for"),    tr("Packets built"),    tr("Packets sent"),
                                                    tr("Bytes sent"),     tr("Not sent"),         tr("Dropped"),
                                                    tr("Duplicated"),     tr("Reordered"),        tr("Corrupted headers"),
                                                    tr("Truncated"),      tr("Garbage runs")};
    for (std::size_t i = 0; i < m_statistics.size(); ++i) {
        m_statistics[i] = new QLabel(m_statisticsBox);
        m_statistics[i]->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_statistics[i]->setTextInteractionFlags(Qt::TextSelectableByMouse);
        statistics->addRow(names[i], m_statistics[i]);
    }
    m_statistics[Sent]->setObjectName(QStringLiteral("sentStatistic"));
    m_statistics[Dropped]->setObjectName(QStringLiteral("droppedStatistic"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_rateBox);
    layout->addWidget(m_mixBox);
    layout->addWidget(m_faultBox);
    layout->addWidget(m_statisticsBox);
    layout->addStretch(1);

    connect(m_rate, &RateControl::rateEdited, this, [this](const Rate& rate) {
        if (!m_stream)
            return;
        m_stream->setRate(rate);
        Q_EMIT streamEdited();
    });
    connect(m_faults, &FaultPanel::faultsEdited, this, [this](const FaultConfig& faults) {
        if (!m_stream)
            return;
        m_stream->setFaults(faults);
        Q_EMIT streamEdited();
    });
    setStream(nullptr, nullptr);
}

const mdb::PacketDef* StreamPanel::resolveMixEntry(const mdb::MissionDatabase& db, const std::string& packet)
{
    if (const mdb::PacketDef* def = db.findPacket(packet))
        return def;
    unsigned apid = 0;
    const auto [end, ec] = std::from_chars(packet.data(), packet.data() + packet.size(), apid);
    if (ec != std::errc{} || end != packet.data() + packet.size())
        return nullptr;
    for (const auto& def : db.packets)
        if (def.apid == apid)
            return &def;
    return nullptr;
}

void StreamPanel::setStream(SimStream* stream, const mdb::MissionDatabase* db)
{
    m_stream = stream;
    const bool on = stream != nullptr;
    m_rateBox->setEnabled(on);
    m_mixBox->setEnabled(on);
    m_faultBox->setEnabled(on);
    m_statisticsBox->setEnabled(on);
    if (!on) {
        m_title->setText(tr("<i>Select a stream to change its rate and faults.</i>"));
        m_rate->setRate(Rate{Rate::Unit::PacketsPerSecond, 100}, 0);
        m_faults->setFaults({}, false);
        m_mix->setRowCount(0);
        fitMixHeight();
        refresh();
        return;
    }
    const StreamConfig& config = stream->config();
    m_title->setText(QStringLiteral("<b>%1</b> &rarr; %2")
                         .arg(QString::fromStdString(config.name).toHtmlEscaped(),
                              QString::fromStdString(config.destination).toHtmlEscaped()));
    m_rate->setRate(config.rate, stream->averagePacketBytes());
    const auto endpoint = io::parseEndpoint(config.destination);
    const bool tcp = endpoint && endpoint->scheme != io::Scheme::Udp; // tcp:// and tcp-listen://
    m_faults->setFaults(config.faults, tcp);
    showMix(db);
    refresh();
}

void StreamPanel::refresh()
{
    if (!m_stream) {
        for (QLabel* label : m_statistics)
            label->setText(QStringLiteral("–"));
        return;
    }
    // summary() reads the stream's counters (relaxed atomics); a few times per second is nothing.
    const StreamSummary s = m_stream->summary();
    const LiveCounters live = m_stream->live();
    // A stopped stream's run ends at its last packet (live.seconds keeps counting from its start).
    const auto seconds = static_cast<qint64>(live.running ? live.seconds : s.seconds);
    m_statistics[RunTime]->setText(live.running || live.finished || live.generated > 0
                                       ? QStringLiteral("%1:%2:%3")
                                             .arg(seconds / 3600)
                                             .arg(seconds / 60 % 60, 2, 10, QLatin1Char('0'))
                                             .arg(seconds % 60, 2, 10, QLatin1Char('0'))
                                       : QStringLiteral("–"));
    m_statistics[Generated]->setText(formatCount(s.generated));
    m_statistics[Sent]->setText(formatCount(s.sent.packets));
    m_statistics[BytesSent]->setText(formatCount(s.sent.bytes));
    m_statistics[NotSent]->setText(formatCount(s.notSent));
    m_statistics[Dropped]->setText(formatCount(s.faults.dropped));
    m_statistics[Duplicated]->setText(formatCount(s.faults.duplicated));
    m_statistics[Reordered]->setText(formatCount(s.faults.reordered));
    m_statistics[CorruptedHeaders]->setText(formatCount(s.faults.corruptedHeaders));
    m_statistics[Truncated]->setText(formatCount(s.faults.truncated));
    m_statistics[GarbageRuns]->setText(
        s.faults.garbageInsertions > 0 ? tr("%1 (%2 bytes)").arg(formatCount(s.faults.garbageInsertions), formatCount(s.faults.garbageBytes))
                                       : formatCount(0));
}

void StreamPanel::showMix(const mdb::MissionDatabase* db)
{
    const auto& mix = m_stream->config().mix;
    double total = 0;
    for (const auto& entry : mix)
        total += entry.weight;
    const QLocale locale;
    m_mix->setRowCount(static_cast<int>(mix.size()));
    for (std::size_t i = 0; i < mix.size(); ++i) {
        const MixEntry& entry = mix[i];
        const mdb::PacketDef* def = db ? resolveMixEntry(*db, entry.packet) : nullptr;
        const auto row = static_cast<int>(i);
        const Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
        auto* name = readOnlyItem(def ? QString::fromStdString(def->name) : QString::fromStdString(entry.packet));
        if (def && !def->description.empty())
            name->setToolTip(QString::fromStdString(def->description));
        m_mix->setItem(row, 0, name);
        m_mix->setItem(row, 1, readOnlyItem(def ? QString::number(def->apid) : QString(), right));
        m_mix->setItem(row, 2, readOnlyItem(locale.toString(entry.weight, 'g', 6), right));
        m_mix->setItem(row, 3, readOnlyItem(total > 0 ? locale.toString(100.0 * entry.weight / total, 'f', 1) + QStringLiteral(" %")
                                                      : QString(),
                                            right));
        QString size;
        if (def)
            size = def->variableLength ? QStringLiteral("%1–%2").arg(def->length).arg(def->maxLength) : QString::number(def->length);
        m_mix->setItem(row, 4, readOnlyItem(size, right));
    }
    fitMixHeight();
}

void StreamPanel::fitMixHeight()
{
    // As tall as its rows (3 to 8 of them; more scroll), so that the panel has no empty table.
    const int rows = std::clamp(m_mix->rowCount(), 3, 8);
    const int height = m_mix->horizontalHeader()->sizeHint().height() + rows * m_mix->verticalHeader()->defaultSectionSize()
        + 2 * m_mix->frameWidth();
    m_mix->setFixedHeight(height);
}

} // namespace telestation::sim::gui
