#include "ui/displays/packet_view.hpp"

#include "core/api/consumer.hpp"
#include "core/ccsds/space_packet.hpp"
#include "core/pipeline/station.hpp"
#include "ui/displays/stream_chooser.hpp"
#include "ui/session/phased_timer.hpp"

#include <QComboBox>
#include <QDateTime>
#include <QFontDatabase>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonValue>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>

namespace telestation::ui {

namespace {

const QString kUnknown = QStringLiteral("unknown");
const QString kNone = QStringLiteral("—");

QString utcText(std::int64_t ns)
{
    // Floor to the millisecond so that times before a second boundary do not round up past it.
    const std::int64_t ms = ns >= 0 ? ns / 1'000'000 : -((-ns + 999'999) / 1'000'000);
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz 'UTC'"));
}

QString hexBytes(std::span<const std::uint8_t> bytes)
{
    QString out;
    out.reserve(static_cast<qsizetype>(bytes.size() * 3));
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (i > 0)
            out += QLatin1Char(' ');
        out += QStringLiteral("%1").arg(bytes[i], 2, 16, QLatin1Char('0')).toUpper();
    }
    return out;
}

QString bytesText(std::size_t n)
{
    return n == 1 ? PacketView::tr("1 byte") : PacketView::tr("%1 bytes").arg(n);
}

QString ageText(qint64 ms)
{
    if (ms < 10'000)
        return QStringLiteral("%1 s").arg(static_cast<double>(ms) / 1000.0, 0, 'f', 1);
    const qint64 s = ms / 1000;
    if (s < 60)
        return QStringLiteral("%1 s").arg(s);
    if (s < 3600)
        return QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60);
    return QStringLiteral("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60);
}

QString epochName(mdb::TimeEpoch epoch)
{
    switch (epoch) {
    case mdb::TimeEpoch::Tai1958:
        return QStringLiteral("1958 TAI epoch");
    case mdb::TimeEpoch::Gps1980:
        return QStringLiteral("1980 GPS epoch");
    case mdb::TimeEpoch::Unix1970:
        return QStringLiteral("1970 Unix epoch");
    }
    return {};
}

QString sequenceFlagsName(ccsds::SequenceFlags flags)
{
    switch (flags) {
    case ccsds::SequenceFlags::Continuation:
        return QStringLiteral("continuation segment");
    case ccsds::SequenceFlags::First:
        return QStringLiteral("first segment");
    case ccsds::SequenceFlags::Last:
        return QStringLiteral("last segment");
    case ccsds::SequenceFlags::Unsegmented:
        return QStringLiteral("unsegmented");
    }
    return {};
}

struct FieldLabel {
    const char* name;
    const char* label;
};

// Left column: the primary header; right column: what the definition and the station add.
constexpr FieldLabel kLeftFields[] = {
    { "version", "Version" },
    { "type", "Type" },
    { "secondaryHeader", "Secondary header" },
    { "apid", "APID" },
    { "sequenceFlags", "Sequence flags" },
    { "sequenceCount", "Sequence count" },
};
constexpr FieldLabel kRightFields[] = {
    { "packetLength", "Packet length" },
    { "secondaryId", "Secondary id" },
    { "packetTime", "Packet time" },
    { "receiveTime", "Receive time" },
    { "transportHeader", "Transport header" },
};

} // namespace

const QStringList& PacketView::headerFieldNames()
{
    static const QStringList names = [] {
        QStringList out;
        for (const auto& f : kLeftFields)
            out << QString::fromLatin1(f.name);
        for (const auto& f : kRightFields)
            out << QString::fromLatin1(f.name);
        return out;
    }();
    return names;
}

PacketView::PacketView(pipeline::Station& station, SnapshotFeed& snapshots, const QString& stream,
                       const QString& packetName, QWidget* parent)
    : QWidget(parent)
    , m_station(station)
    , m_snapshots(snapshots)
    , m_stream(stream)
    , m_packet(packetName)
{
    m_streamCombo = new StreamChooser(station, this);
    m_streamCombo->setToolTip(tr("The stream whose packets are shown"));

    m_packetCombo = new QComboBox(this);
    m_packetCombo->setObjectName(QStringLiteral("packetCombo"));
    m_packetCombo->setToolTip(tr("The packet type shown (\"unknown\": packets no definition matches)"));
    const auto& types = station.types();
    for (std::uint32_t t = 1; t < types.typeCount(); ++t) {
        const auto& def = types.definition(t);
        m_packetCombo->addItem(QString::fromStdString(def.name));
        m_packetCombo->setItemData(m_packetCombo->count() - 1,
            tr("APID %1%2")
                .arg(def.apid)
                .arg(def.secondaryId ? tr(", secondary id %1").arg(def.secondaryId->value) : QString()),
            Qt::ToolTipRole);
    }
    m_packetCombo->addItem(kUnknown);
    m_packetCombo->setMaxVisibleItems(20);
    connect(m_streamCombo, &QComboBox::currentIndexChanged, this, &PacketView::onComboChanged);
    connect(m_packetCombo, &QComboBox::currentIndexChanged, this, &PacketView::onComboChanged);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Stream"), this));
    bar->addWidget(m_streamCombo);
    bar->addSpacing(8);
    bar->addWidget(new QLabel(tr("Packet"), this));
    bar->addWidget(m_packetCombo, 1);

    auto* header = new QGroupBox(tr("Header"), this);
    auto* grid = new QGridLayout(header);
    grid->setHorizontalSpacing(10);
    grid->setVerticalSpacing(2);
    const auto addFields = [&](const auto& fields, int column) {
        int row = 0;
        for (const auto& f : fields) {
            auto* value = new QLabel(kNone, header);
            value->setObjectName(QString::fromLatin1(f.name));
            value->setTextInteractionFlags(Qt::TextSelectableByMouse);
            grid->addWidget(new QLabel(tr(f.label) + QLatin1Char(':'), header), row, column);
            grid->addWidget(value, row, column + 1);
            m_fields.insert(QString::fromLatin1(f.name), value);
            ++row;
        }
    };
    addFields(kLeftFields, 0);
    addFields(kRightFields, 2);
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(3, 2);
    grid->setColumnMinimumWidth(2, 20);

    m_dump = new QPlainTextEdit(this);
    m_dump->setObjectName(QStringLiteral("dump"));
    m_dump->setReadOnly(true);
    m_dump->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_dump->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_dump->setPlaceholderText(tr("No packet yet"));

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("statusLabel"));
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("messageLabel"));
    m_message->setStyleSheet(QStringLiteral("color: #b00020"));
    m_message->setWordWrap(true);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(header);
    layout->addWidget(m_dump, 1);
    layout->addWidget(m_status);
    layout->addWidget(m_message);

    m_timer = new PhasedTimer(std::chrono::milliseconds(1000 / kRefreshHz), this);
    m_timer->skipWhileUnseen(this); // a tab behind another takes nothing; it catches up when in front
    connect(m_timer, &PhasedTimer::timeout, this, [this] {
        if (!isVisible()) { // hideEvent stops the timer; this is the belt to its braces
            m_timer->stop();
            unsubscribe();
            return;
        }
        refresh();
    });
    snapshots.follow(this, [this](const SharedSnapshot& snapshot) {
        updateCount(snapshot);
        updateStatus();
    });

    syncCombos();
    clearPacket();
    showMessage({});
}

PacketView::~PacketView() = default; // the subscription's destructor removes it from the station

void PacketView::setTarget(const QString& stream, const QString& packetName)
{
    if (stream == m_stream && packetName == m_packet)
        return;
    m_stream = stream;
    m_packet = packetName;
    unsubscribe();
    clearPacket();
    syncCombos();
    showMessage({});
    if (isVisible()) {
        subscribe();
        updateCount(m_snapshots.latest());
        refresh();
    }
    Q_EMIT specChanged();
}

QJsonObject PacketView::spec() const
{
    return QJsonObject { { QStringLiteral("stream"), m_stream }, { QStringLiteral("packet"), m_packet } };
}

PacketView* PacketView::fromSpec(pipeline::Station& station, SnapshotFeed& snapshots, const QJsonObject& spec,
                                 QWidget* parent)
{
    const QJsonValue stream = spec.value(QStringLiteral("stream"));
    const QJsonValue packet = spec.value(QStringLiteral("packet"));
    if (!stream.isString() || !packet.isString())
        return nullptr;
    return new PacketView(station, snapshots, stream.toString(), packet.toString(), parent);
}

QString PacketView::dumpText() const
{
    return m_dump->toPlainText();
}

QString PacketView::headerField(const QString& name) const
{
    const QLabel* label = m_fields.value(name);
    return label ? label->text() : QString();
}

QString PacketView::statusText() const
{
    return m_status->text();
}

QString PacketView::message() const
{
    return m_message->text();
}

bool PacketView::isPolling() const
{
    return m_timer->isActive();
}

QString PacketView::hexDump(std::span<const std::uint8_t> bytes)
{
    if (bytes.empty())
        return {};
    const std::size_t lastOffset = (bytes.size() - 1) / kBytesPerLine * kBytesPerLine;
    const int digits
        = std::max<int>(4, static_cast<int>(QString::number(static_cast<qulonglong>(lastOffset), 16).size()));
    QString out;
    const std::size_t lines = lastOffset / kBytesPerLine + 1;
    out.reserve(static_cast<qsizetype>(
        lines * static_cast<std::size_t>(digits + 2 + 3 * kBytesPerLine + 2 + kBytesPerLine + 1)));
    static constexpr char kHex[] = "0123456789ABCDEF";
    for (std::size_t offset = 0; offset < bytes.size(); offset += kBytesPerLine) {
        if (offset > 0)
            out += QLatin1Char('\n');
        out += QString::number(static_cast<qulonglong>(offset), 16).toUpper().rightJustified(digits, QLatin1Char('0'));
        out += QLatin1String("  ");
        const std::size_t end = std::min(bytes.size(), offset + kBytesPerLine);
        for (std::size_t i = offset; i < offset + kBytesPerLine; ++i) {
            if (i == offset + kBytesPerLine / 2)
                out += QLatin1Char(' ');
            if (i < end) {
                out += QLatin1Char(kHex[bytes[i] >> 4]);
                out += QLatin1Char(kHex[bytes[i] & 0x0F]);
                out += QLatin1Char(' ');
            } else {
                out += QLatin1String("   ");
            }
        }
        out += QLatin1Char(' ');
        for (std::size_t i = offset; i < end; ++i)
            out += bytes[i] >= 0x20 && bytes[i] < 0x7F ? QLatin1Char(static_cast<char>(bytes[i])) : QLatin1Char('.');
    }
    return out;
}

void PacketView::refresh()
{
    bool taken = false;
    if (m_subscription) {
        m_subscription->poll(
            [&](const api::PacketView& packet) {
                m_frame.assign(packet.frame.begin(), packet.frame.end());
                m_transportBytes = packet.frame.size() - packet.packet.size();
                m_receiveTimeNs = packet.receiveTimeNs;
                m_typeIndex = packet.typeIndex;
                taken = true;
            },
            1);
    }
    if (taken) {
        m_takenAt.start();
        showPacket();
    }
    // A first packet asks the session for a tick at once (every view gets it), so that the view never
    // shows a packet and "0 seen".
    if (taken && m_packetsSeen == 0) {
        m_snapshots.tick();
        updateCount(m_snapshots.latest());
    }
    updateStatus();
}

void PacketView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    subscribe();
    refresh();
    m_timer->start();
}

void PacketView::hideEvent(QHideEvent* event)
{
    m_timer->stop();
    unsubscribe();
    QWidget::hideEvent(event);
}

void PacketView::subscribe()
{
    if (m_subscription)
        return;
    api::PacketSubscription::Options options;
    options.name = "packet view " + m_stream.toStdString() + " " + m_packet.toStdString();
    options.stream = m_stream.toStdString();
    options.packet = m_packet.toStdString();
    options.delivery = api::Delivery::Newest;
    if (m_stream.isEmpty() || m_packet.isEmpty()) {
        showMessage(tr("Choose a stream and a packet type."));
        return;
    }
    auto created = api::PacketSubscription::create(m_station, options);
    if (!created) {
        showMessage(
            tr("Cannot show %1 of %2: %3").arg(m_packet, m_stream, QString::fromStdString(created.error().message)));
        return;
    }
    m_subscription = std::move(*created);
    showMessage({});
}

void PacketView::unsubscribe()
{
    m_subscription.reset();
}

void PacketView::syncCombos()
{
    const QSignalBlocker blockStream(m_streamCombo);
    const QSignalBlocker blockPacket(m_packetCombo);
    m_streamCombo->setCurrentIndex(m_streamCombo->findText(m_stream));
    m_packetCombo->setCurrentIndex(m_packetCombo->findText(m_packet));
}

void PacketView::refreshStreams()
{
    static_cast<StreamChooser*>(m_streamCombo)->reload();
    if (m_streamCombo->currentText() != m_stream)
        onComboChanged();
}

void PacketView::onComboChanged()
{
    if (m_streamCombo->currentIndex() < 0 || m_packetCombo->currentIndex() < 0)
        return;
    setTarget(m_streamCombo->currentText(), m_packetCombo->currentText());
}

void PacketView::showPacket()
{
    const std::span<const std::uint8_t> frame(m_frame);
    const std::span<const std::uint8_t> packet = frame.subspan(std::min(m_transportBytes, frame.size()));
    const auto check = ccsds::checkPrimaryHeader(packet);
    if (check.error == ccsds::HeaderError::TooShort) {
        for (const auto& name : headerFieldNames())
            setField(name, kNone);
        setField(QStringLiteral("packetLength"), bytesText(packet.size()) + tr(": too short for a primary header"));
    } else {
        const ccsds::PrimaryHeader& h = check.header;
        setField(QStringLiteral("version"), QString::number(h.version));
        setField(QStringLiteral("type"),
            h.type == ccsds::PacketType::Telemetry ? tr("0 (telemetry)") : tr("1 (telecommand)"));
        setField(QStringLiteral("secondaryHeader"), h.secondaryHeader ? tr("1 (present)") : tr("0 (absent)"));
        setField(QStringLiteral("apid"),
            QStringLiteral("%1 (0x%2)")
                .arg(h.apid)
                .arg(QString::number(h.apid, 16).toUpper().rightJustified(3, QLatin1Char('0'))));
        setField(QStringLiteral("sequenceFlags"),
            QStringLiteral("%1 (%2)").arg(static_cast<int>(h.sequenceFlags)).arg(sequenceFlagsName(h.sequenceFlags)));
        setField(QStringLiteral("sequenceCount"), QString::number(h.sequenceCount));
        QString length = tr("%1 bytes (data length field %2)").arg(h.packetLength()).arg(h.dataLength);
        if (packet.size() != h.packetLength())
            length += tr("; %1 bytes received").arg(packet.size());
        setField(QStringLiteral("packetLength"), length);
    }

    const auto& types = m_station.types();
    if (m_typeIndex == pipeline::kUnknownType || m_typeIndex >= types.typeCount()) {
        setField(QStringLiteral("secondaryId"), kNone, tr("No packet definition matches this packet"));
        setField(QStringLiteral("packetTime"), kNone, tr("No packet definition matches this packet"));
    } else {
        const mdb::PacketDef& def = types.definition(m_typeIndex);
        if (def.secondaryId) {
            const auto& id = *def.secondaryId;
            setField(QStringLiteral("secondaryId"),
                tr("%1 (bits %2..%3)").arg(id.value).arg(id.bitOffset).arg(id.bitOffset + id.bitLength - 1));
        } else {
            setField(
                QStringLiteral("secondaryId"), kNone, tr("The definition of %1 has no secondary id").arg(m_packet));
        }
        if (def.secondaryHeader) {
            const mdb::CucLayout& cuc = *def.secondaryHeader;
            const QString layout = tr("CUC %1+%2%3, %4")
                                       .arg(cuc.coarseBytes)
                                       .arg(cuc.fineBytes)
                                       .arg(cuc.hasPField ? tr(" with P-field") : QString())
                                       .arg(epochName(cuc.epoch));
            const std::size_t from = ccsds::kPrimaryHeaderSize;
            const std::size_t size
                = std::min<std::size_t>(cuc.sizeBytes(), packet.size() > from ? packet.size() - from : 0);
            const QString raw
                = tr("Secondary header bytes: %1").arg(hexBytes(packet.subspan(std::min(from, packet.size()), size)));
            const auto& plan = types.plan(m_typeIndex);
            std::int64_t timeNs = 0;
            if (plan.hasPacketTime() && plan.packetTime(packet, timeNs))
                setField(QStringLiteral("packetTime"), QStringLiteral("%1 (%2)").arg(utcText(timeNs), layout), raw);
            else
                setField(QStringLiteral("packetTime"), tr("cannot decode the %1 time").arg(layout), raw);
        } else {
            setField(QStringLiteral("packetTime"), kNone,
                tr("The definition of %1 has no secondary header time").arg(m_packet));
        }
    }
    setField(QStringLiteral("receiveTime"), utcText(m_receiveTimeNs));
    if (m_transportBytes == 0)
        setField(QStringLiteral("transportHeader"), tr("none"));
    else
        setField(QStringLiteral("transportHeader"),
            bytesText(m_transportBytes) + QStringLiteral(": ") + hexBytes(frame.first(m_transportBytes)));

    // Keep the reader's place in a long packet while it updates under them.
    const int scroll = m_dump->verticalScrollBar()->value();
    m_dump->setPlainText(hexDump(packet));
    m_dump->verticalScrollBar()->setValue(scroll);
}

void PacketView::clearPacket()
{
    m_frame.clear();
    m_transportBytes = 0;
    m_receiveTimeNs = 0;
    m_typeIndex = 0;
    m_takenAt.invalidate();
    m_counted.reset();
    m_packetsSeen = 0;
    for (const auto& name : headerFieldNames())
        setField(name, kNone);
    m_dump->clear();
    updateStatus();
}

void PacketView::updateCount(const SharedSnapshot& snapshot)
{
    if (!snapshot)
        return;
    m_counted = snapshot;
    const std::string stream = m_stream.toStdString();
    const std::string packet = m_packet.toStdString();
    for (const auto& s : snapshot->streams) {
        if (s.name != stream)
            continue;
        for (const auto& t : s.packetTypes) {
            if (t.name == packet) {
                m_packetsSeen = t.counters.packetsProcessed;
                return;
            }
        }
    }
}

void PacketView::updateStatus()
{
    QString text = m_packetsSeen == 1 ? tr("1 packet seen") : tr("%1 packets seen").arg(m_packetsSeen);
    if (m_takenAt.isValid())
        text += tr(", last %1 ago").arg(ageText(m_takenAt.elapsed()));
    else if (m_packetsSeen > 0)
        text += tr(", waiting for the next one");
    m_status->setText(text);
}

void PacketView::setField(const QString& name, const QString& text, const QString& toolTip)
{
    if (QLabel* label = m_fields.value(name)) {
        label->setText(text);
        label->setToolTip(toolTip);
    }
}

void PacketView::showMessage(const QString& text)
{
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
}

} // namespace telestation::ui
