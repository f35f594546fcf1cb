#include "ui/models/packet_settings_model.hpp"

#include "core/io/endpoint.hpp"
#include "core/pipeline/setting_resolver.hpp"
#include "core/pipeline/station.hpp"
#include "core/stats/status_line.hpp"
#include "ui/text/number_format.hpp"
#include "ui/session/station_session.hpp"

#include <QBrush>
#include <QColor>
#include <QFont>

#include <algorithm>
#include <string>
#include <unordered_map>

namespace telestation::ui {

namespace {

using config::ProcessingMode;

const config::StreamProfile* findStream(const config::StationProfile& profile, const std::string& name)
{
    const auto it = std::find_if(profile.streams.begin(), profile.streams.end(),
                                 [&](const config::StreamProfile& s) { return s.name == name; });
    return it == profile.streams.end() ? nullptr : &*it;
}

std::optional<std::uint64_t> secondaryIdOf(const mdb::PacketDef& def)
{
    if (def.secondaryId)
        return def.secondaryId->value;
    return std::nullopt;
}

QStringList toQStringList(const std::vector<std::string>& list)
{
    QStringList out;
    out.reserve(static_cast<qsizetype>(list.size()));
    for (const auto& s : list)
        out.push_back(QString::fromStdString(s));
    return out;
}

std::vector<std::string> toStdList(const QStringList& list)
{
    std::vector<std::string> out;
    out.reserve(static_cast<std::size_t>(list.size()));
    for (const auto& s : list)
        out.push_back(s.toStdString());
    return out;
}

QStringList parseDestinations(const QVariant& value)
{
    QStringList list;
    if (value.typeId() == QMetaType::QStringList)
        list = value.toStringList();
    else
        list = value.toString().split(QLatin1Char(','));
    QStringList out;
    for (const QString& entry : list) {
        const QString trimmed = entry.trimmed();
        if (!trimmed.isEmpty())
            out.push_back(trimmed);
    }
    return out;
}

std::optional<ProcessingMode> parseMode(const QVariant& value)
{
    if (value.typeId() == QMetaType::QString) {
        const QString text = value.toString();
        for (const ProcessingMode mode : {ProcessingMode::PassThru, ProcessingMode::ProcessOnDemand,
                                          ProcessingMode::ProcessEntirePacket, ProcessingMode::Discard}) {
            if (text == PacketSettingsModel::modeText(mode) || text == QLatin1String(config::toString(mode).data()))
                return mode;
        }
        return std::nullopt;
    }
    bool ok = false;
    const int number = value.toInt(&ok);
    if (!ok || number < 0 || number > static_cast<int>(ProcessingMode::Discard))
        return std::nullopt;
    return static_cast<ProcessingMode>(number);
}

std::uint64_t countOf(const stats::PacketCounters& c, int column)
{
    switch (column) {
    case PacketSettingsModel::Received: return c.packetsReceived;
    case PacketSettingsModel::Processed: return c.packetsDecoded; // what "processed" means to an operator
    case PacketSettingsModel::Recorded: return c.packetsRecorded;
    case PacketSettingsModel::Forwarded: return c.packetsForwarded;
    case PacketSettingsModel::Dropped: return stats::dropCount(c);
    default: return 0;
    }
}

} // namespace

PacketSettingsModel::PacketSettingsModel(StationSession& session, QObject* parent)
    : QAbstractTableModel(parent), m_session(session)
{
}

QString PacketSettingsModel::modeText(ProcessingMode mode)
{
    switch (mode) {
    case ProcessingMode::PassThru: return tr("Pass Thru");
    case ProcessingMode::ProcessOnDemand: return tr("Process On Demand");
    case ProcessingMode::ProcessEntirePacket: return tr("Process Entire Packet");
    case ProcessingMode::Discard: return tr("Discard");
    }
    return {};
}

QString PacketSettingsModel::profileDestinationError(const QString& url)
{
    const auto endpoint = io::parseEndpoint(url.toStdString());
    if (endpoint && endpoint->scheme != io::Scheme::File && endpoint->scheme != io::Scheme::TcpListen
        && endpoint->port == 0)
        return tr("forward destination %1: port 0 is only for tcp-listen:// (packets are sent to a port, not to any "
                  "free one)")
            .arg(url);
    return {};
}

void PacketSettingsModel::setStation(pipeline::Station* station)
{
    m_station = station;
    m_snapshot = m_session.snapshots().latest();
    m_lastError.clear();
    rebuild();
}

void PacketSettingsModel::setStream(const QString& stream)
{
    if (stream == m_stream && !m_rows.empty())
        return;
    m_stream = stream;
    m_lastError.clear();
    rebuild();
}

void PacketSettingsModel::rebuild()
{
    beginResetModel();
    m_rows.clear();
    if (m_station) {
        const pipeline::PacketTypeTable& types = m_station->types();
        std::vector<Row> rows;
        for (std::uint32_t t = 1; t < types.typeCount(); ++t) {
            const mdb::PacketDef& def = types.definition(t);
            Row row;
            row.type = t;
            row.name = QString::fromStdString(def.name);
            row.apid = def.apid;
            row.secondaryId = secondaryIdOf(def);
            row.description = QString::fromStdString(def.description);
            rows.push_back(std::move(row));
        }
        Row unknown;
        unknown.type = pipeline::kUnknownType;
        unknown.name = tr("Unknown packets");
        unknown.description = tr("Packets the mission database does not define");
        unknown.mode = ProcessingMode::PassThru;
        rows.push_back(std::move(unknown));
        if (readSettings(rows)) {
            readCounters(rows);
            m_rows = std::move(rows);
        }
    }
    endResetModel();
}

bool PacketSettingsModel::readSettings(std::vector<Row>& rows) const
{
    if (!m_station)
        return false;
    const config::StreamProfile* stream = findStream(m_session.profile(), m_stream.toStdString());
    if (!stream)
        return false;
    const pipeline::SettingResolver resolver(m_station->types(), stream->packets);
    const config::PacketSettings defaults;
    for (Row& row : rows) {
        if (row.type == pipeline::kUnknownType) {
            row.mode = stream->unknownMode;
            row.record = stream->recordUnknown;
            row.forward = toQStringList(stream->forwardUnknown);
            continue;
        }
        const auto applying = resolver.applying(row.type);
        const config::PacketSettings& settings = applying ? stream->packets[*applying] : defaults;
        row.mode = settings.mode;
        row.record = settings.record;
        row.forward = toQStringList(settings.forward);
    }
    return true;
}

void PacketSettingsModel::readCounters(std::vector<Row>& rows) const
{
    for (Row& row : rows)
        row.counters = {};
    if (!m_station || !m_snapshot || rows.empty())
        return;
    const std::string name = m_stream.toStdString();
    const auto& streams = m_snapshot->streams;
    const auto stream = std::find_if(streams.begin(), streams.end(),
                                     [&](const stats::StreamStats& s) { return s.name == name; });
    if (stream == streams.end())
        return;
    // A row per packet type, found by the type's name: (APID, secondary id) does not tell apart the
    // types of an APID that differ by criteria. The unknown packets are the snapshot's first entry.
    std::unordered_map<std::string, std::size_t> rowByName;
    rowByName.reserve(rows.size());
    const pipeline::PacketTypeTable& types = m_station->types();
    for (std::size_t i = 0; i + 1 < rows.size(); ++i)
        rowByName.emplace(std::string(types.typeName(rows[i].type)), i);
    for (std::size_t i = 0; i < stream->packetTypes.size(); ++i) {
        const stats::PacketTypeStats& type = stream->packetTypes[i];
        if (i == 0 && type.name == "unknown") {
            rows.back().counters = type.counters;
            continue;
        }
        const auto found = rowByName.find(type.name);
        if (found != rowByName.end())
            rows[found->second].counters = type.counters;
    }
}

void PacketSettingsModel::updateRows(std::vector<Row> rows)
{
    if (rows.size() != m_rows.size())
        return;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        Row& now = m_rows[i];
        Row& next = rows[i];
        const int r = static_cast<int>(i);
        if (now.mode != next.mode || now.record != next.record || now.forward != next.forward) {
            now.mode = next.mode;
            now.record = next.record;
            now.forward = std::move(next.forward);
            Q_EMIT dataChanged(index(r, Mode), index(r, Forward));
        }
        if (!(now.counters == next.counters)) {
            now.counters = next.counters;
            Q_EMIT dataChanged(index(r, Received), index(r, Dropped));
        }
    }
}

void PacketSettingsModel::setSnapshot(const SharedSnapshot& snapshot)
{
    m_snapshot = snapshot;
    if (!m_station)
        return;
    std::vector<Row> rows = m_rows;
    const bool haveStream = readSettings(rows);
    // The stream appeared or went away (profile changed under the same station): start over.
    if (haveStream == m_rows.empty()) {
        rebuild();
        return;
    }
    if (!haveStream)
        return;
    readCounters(rows);
    updateRows(std::move(rows));
}

int PacketSettingsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int PacketSettingsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

int PacketSettingsModel::rowOfType(const QString& packetName) const
{
    for (std::size_t i = 0; i + 1 < m_rows.size(); ++i)
        if (m_rows[i].name == packetName)
            return static_cast<int>(i);
    return -1;
}

QString PacketSettingsModel::typeLabel(int row) const
{
    if (row < 0 || row >= rowCount())
        return {};
    const Row& r = m_rows[static_cast<std::size_t>(row)];
    if (r.type == pipeline::kUnknownType)
        return tr("unknown packets");
    if (r.secondaryId)
        return tr("%1 (APID %2, secondary id %3)").arg(r.name).arg(r.apid).arg(static_cast<qulonglong>(*r.secondaryId));
    return tr("%1 (APID %2)").arg(r.name).arg(r.apid);
}

QVariant PacketSettingsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const bool unknown = row.type == pipeline::kUnknownType;
    const int column = index.column();

    if (column >= Received) {
        const std::uint64_t value = countOf(row.counters, column);
        switch (role) {
        case Qt::DisplayRole: return countText(value);
        case kCountRole: return QVariant::fromValue(static_cast<qulonglong>(value));
        case Qt::TextAlignmentRole: return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        case Qt::ToolTipRole:
            if (column == Dropped)
                return tr("Dropped at a full queue: network %1, process %2, record %3, forward %4")
                    .arg(countText(row.counters.networkDrops), countText(row.counters.processDrops),
                         countText(row.counters.recordDrops), countText(row.counters.forwardDrops))
                    + (unknown ? tr("\nDiscarded (not dropped): %1").arg(countText(row.counters.discarded))
                               : QString());
            return {};
        default: return {};
        }
    }

    switch (column) {
    case Apid:
        if (role == Qt::DisplayRole) {
            if (unknown)
                return QStringLiteral("—");
            if (row.secondaryId)
                return tr("%1 (id %2)").arg(row.apid).arg(static_cast<qulonglong>(*row.secondaryId));
            return QString::number(row.apid);
        }
        if (role == Qt::ToolTipRole && row.secondaryId)
            return tr("APID %1, secondary id %2").arg(row.apid).arg(static_cast<qulonglong>(*row.secondaryId));
        if (role == Qt::TextAlignmentRole)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Name:
        if (role == Qt::DisplayRole)
            return row.name;
        if (role == Qt::ToolTipRole && !row.description.isEmpty())
            return row.description;
        if (role == Qt::FontRole && unknown) {
            QFont font;
            font.setItalic(true);
            return font;
        }
        return {};
    case Mode:
        if (role == Qt::DisplayRole)
            return modeText(row.mode);
        if (role == kModeRole || role == Qt::EditRole)
            return static_cast<int>(row.mode);
        if (role == kModeChoicesRole) {
            if (unknown)
                return QVariantList{static_cast<int>(ProcessingMode::PassThru), static_cast<int>(ProcessingMode::Discard)};
            return QVariantList{static_cast<int>(ProcessingMode::PassThru), static_cast<int>(ProcessingMode::ProcessOnDemand),
                                static_cast<int>(ProcessingMode::ProcessEntirePacket)};
        }
        if (role == Qt::ToolTipRole)
            return tr("Double-click or F2 to change");
        return {};
    case Record:
        if (role == Qt::CheckStateRole)
            return row.record ? Qt::Checked : Qt::Unchecked;
        if (role == Qt::ToolTipRole)
            return unknown && row.mode == ProcessingMode::Discard ? tr("Discarded packets are not recorded")
                                                                   : tr("Record packets of this type");
        return {};
    case Forward:
        if (role == Qt::DisplayRole)
            return row.forward.join(QStringLiteral(", "));
        if (role == kForwardRole || role == Qt::EditRole)
            return row.forward;
        if (role == Qt::ToolTipRole) {
            const QString hint = tr("Double-click to edit the destinations");
            return row.forward.isEmpty() ? hint : row.forward.join(QLatin1Char('\n')) + QStringLiteral("\n\n") + hint;
        }
        if (role == Qt::ForegroundRole && unknown && row.mode == ProcessingMode::Discard && !row.forward.isEmpty())
            return QBrush(QColor(0x80, 0x80, 0x80)); // discarded packets are not forwarded
        return {};
    default:
        return {};
    }
}

QVariant PacketSettingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Apid: return tr("APID");
        case Name: return tr("Packet type");
        case Mode: return tr("Mode");
        case Record: return tr("Record");
        case Forward: return tr("Forward to");
        case Received: return tr("Received");
        case Processed: return tr("Processed");
        case Recorded: return tr("Recorded");
        case Forwarded: return tr("Forwarded");
        case Dropped: return tr("Dropped");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Mode: return tr("Pass Thru: not decoded, the whole packet goes to consumers. Process On Demand: the newest "
                             "packet is kept and decoded when asked. Process Entire Packet: every parameter decoded "
                             "on arrival.");
        case Received: return tr("Packets of the type that arrived on the stream (dropped ones included)");
        case Processed: return tr("Packets whose parameters were decoded: every packet in Process Entire Packet; in "
                                  "Process On Demand each kept packet that a display, plot or consumer asked for "
                                  "(counted once); none in Pass Thru");
        case Recorded: return tr("Packets written to the recording");
        case Forwarded: return tr("Packets handed to every destination of the type");
        case Dropped: return tr("Packets dropped at a full network, process, record or forward queue");
        default: return {};
        }
    }
    return {};
}

Qt::ItemFlags PacketSettingsModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (!m_station)
        return f;
    if (index.column() == Mode)
        f |= Qt::ItemIsEditable;
    else if (index.column() == Record)
        f |= Qt::ItemIsUserCheckable;
    // Forward is edited in ForwardEditorDialog (the table opens it), not in a line editor.
    return f;
}

bool PacketSettingsModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || index.row() >= rowCount())
        return false;
    Change change;
    switch (index.column()) {
    case Mode:
        if (role != Qt::EditRole && role != kModeRole)
            return false;
        change.mode = parseMode(value);
        if (!change.mode) {
            refuse(index.row(), tr("'%1' is not a processing mode").arg(value.toString()));
            return false;
        }
        break;
    case Record:
        if (role != Qt::CheckStateRole)
            return false;
        change.record = value.toInt() == Qt::Checked;
        break;
    case Forward:
        if (role != Qt::EditRole && role != kForwardRole)
            return false;
        change.forward = parseDestinations(value);
        break;
    default:
        return false;
    }
    return apply(index.row(), change);
}

void PacketSettingsModel::refuse(int row, const QString& message)
{
    m_lastError = tr("Could not change %1 of stream %2: %3").arg(typeLabel(row), m_stream, message);
    // The view shows the settings as they still are.
    Q_EMIT dataChanged(index(row, Mode), index(row, Forward));
    Q_EMIT settingRefused(m_lastError);
}

bool PacketSettingsModel::apply(int row, const Change& change)
{
    if (!m_station) {
        refuse(row, tr("there is no station"));
        return false;
    }
    const std::string streamName = m_stream.toStdString();
    const config::StreamProfile* stream = findStream(m_session.profile(), streamName);
    if (!stream) {
        refuse(row, tr("the station has no such stream"));
        return false;
    }
    if (change.forward) {
        for (const QString& url : *change.forward) {
            if (const QString error = profileDestinationError(url); !error.isEmpty()) {
                refuse(row, error);
                return false;
            }
        }
    }

    const Row& r = m_rows[static_cast<std::size_t>(row)];
    bool applied = false;
    QString error;
    if (r.type == pipeline::kUnknownType) {
        const ProcessingMode mode = change.mode.value_or(stream->unknownMode);
        const bool record = change.record.value_or(stream->recordUnknown);
        const std::vector<std::string> forward = change.forward ? toStdList(*change.forward) : stream->forwardUnknown;
        if (mode == stream->unknownMode && record == stream->recordUnknown && forward == stream->forwardUnknown)
            return true; // nothing changes
        applied = m_session.setUnknownSettings(m_stream, mode, record, forward, &error);
    } else {
        // Keyed to this type alone: by (APID, secondary id) where that names only this type, else by name.
        const config::PacketSettings current =
            pipeline::SettingResolver(m_station->types(), stream->packets).settingsFor(r.type);
        config::PacketSettings next = current;
        if (change.mode)
            next.mode = *change.mode;
        if (change.record)
            next.record = *change.record;
        if (change.forward)
            next.forward = toStdList(*change.forward);
        if (next == current)
            return true;
        applied = m_session.setPacketSettings(m_stream, next, &error);
    }
    if (!applied) {
        refuse(row, error);
        return false;
    }
    m_lastError.clear();
    std::vector<Row> rows = m_rows;
    if (readSettings(rows))
        updateRows(std::move(rows));
    Q_EMIT settingsChanged(m_stream);
    return true;
}

} // namespace telestation::ui
