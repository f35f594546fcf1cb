#include "ui/models/value_table_model.hpp"

#include "core/common/clock.hpp"
#include "core/decode/decoded_value.hpp"
#include "core/pipeline/station.hpp"
#include "ui/models/tones.hpp"
#include "ui/text/number_format.hpp"

#include <QColor>
#include <QDateTime>
#include <QTimeZone>
#include <QMimeData>

#include <algorithm>
#include <cmath>
#include <functional>

namespace telestation::ui {

namespace {

constexpr double kNsPerSecond = 1e9;

} // namespace

ValueTableModel::ValueTableModel(pipeline::Station& station, QObject* parent)
    : QAbstractTableModel(parent), m_station(station), m_values(api::ParameterSubscription::createNewest(station))
{
}

ValueTableModel::~ValueTableModel() = default;

bool ValueTableModel::addParameter(std::uint16_t streamId, std::uint32_t parameterId)
{
    // The subscription refuses what does not exist and what is already shown.
    bool added = false;
    const auto current = m_values->add(streamId, parameterId, &added);
    if (!added)
        return false;

    Row row;
    row.streamId = streamId;
    row.parameterId = parameterId;
    row.name = rowName(streamId, parameterId);
    if (current) {
        row.sample = *current;
        row.hasValue = true;
    }
    // Receive times are CLOCK_REALTIME (core/pipeline/packet_pool.hpp): ages compare with the same clock.
    if (m_nowNs == 0)
        m_nowNs = clock::realtimeNs();
    row.stale = isStale(row, m_nowNs);

    const int at = rowCount();
    beginInsertRows({}, at, at);
    m_rowOf.emplace(rowKey(streamId, parameterId), m_rows.size());
    m_rows.push_back(std::move(row));
    endInsertRows();
    return true;
}

bool ValueTableModel::addParameter(const QString& stream, const QString& qualifiedName, QString* error)
{
    const auto fail = [&](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    const auto sid = m_station.streamId(stream.toStdString());
    if (!sid)
        return fail(tr("No stream named \"%1\"").arg(stream));
    const auto pid = m_station.types().parameterId(qualifiedName.trimmed().toStdString());
    if (!pid)
        return fail(tr("No parameter named \"%1\" (a qualified name: PACKET.PARAMETER)").arg(qualifiedName.trimmed()));
    if (!addParameter(*sid, *pid))
        return fail(tr("%1 is already shown for stream %2").arg(qualifiedName.trimmed(), stream));
    return true;
}

void ValueTableModel::removeParameters(std::vector<int> rows)
{
    std::sort(rows.begin(), rows.end(), std::greater<>());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    // From the bottom up, one removal per block of adjacent rows, so that the rows above keep their numbers.
    std::size_t i = 0;
    while (i < rows.size()) {
        std::size_t j = i;
        while (j + 1 < rows.size() && rows[j + 1] == rows[j] - 1)
            ++j;
        removeRows(rows[j], rows[i] - rows[j] + 1);
        i = j + 1;
    }
}

bool ValueTableModel::removeRows(int row, int count, const QModelIndex& parent)
{
    if (parent.isValid() || row < 0 || count <= 0 || row + count > rowCount())
        return false;
    beginRemoveRows({}, row, row + count - 1);
    for (int r = row; r < row + count; ++r)
        m_values->remove(m_rows[static_cast<std::size_t>(r)].streamId, m_rows[static_cast<std::size_t>(r)].parameterId);
    m_rows.erase(m_rows.begin() + row, m_rows.begin() + row + count);
    m_rowOf.clear();
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        m_rowOf.emplace(rowKey(m_rows[i].streamId, m_rows[i].parameterId), i);
    endRemoveRows();
    return true;
}

void ValueTableModel::clear()
{
    if (m_rows.empty())
        return;
    removeRows(0, rowCount());
}

std::optional<pipeline::ParameterSample> ValueTableModel::sample(int row) const
{
    const Row& r = m_rows.at(static_cast<std::size_t>(row));
    if (!r.hasValue)
        return std::nullopt;
    return r.sample;
}

ValueTableModel::RowState ValueTableModel::rowState(int row) const
{
    return stateOf(m_rows.at(static_cast<std::size_t>(row)));
}

void ValueTableModel::setRawFormat(RawFormat format)
{
    if (format == m_rawFormat)
        return;
    m_rawFormat = format;
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0, Raw), index(rowCount() - 1, Raw), {Qt::DisplayRole});
}

void ValueTableModel::setStaleTimeout(double seconds)
{
    if (seconds > 0)
        m_staleSeconds = seconds; // rows change colour at the next refresh
}

QStringList ValueTableModel::qualifiedNames() const
{
    const auto& types = m_station.types();
    QStringList names;
    names.reserve(static_cast<qsizetype>(types.totalParameters()));
    for (std::uint32_t id = 0; id < types.totalParameters(); ++id)
        names.push_back(QString::fromStdString(types.parameter(id).qualifiedName));
    return names;
}

int ValueTableModel::refresh()
{
    m_nowNs = clock::realtimeNs();
    // The pairs whose packet type updated since the last refresh, one sample each.
    m_taken.resize(m_rows.size());
    const std::size_t taken = m_values->poll(m_taken);
    std::vector<bool> changed(m_rows.size(), false);
    for (std::size_t i = 0; i < taken; ++i) {
        const api::ParameterSample& sample = m_taken[i];
        const auto found = m_rowOf.find(rowKey(sample.streamId, sample.parameterId));
        if (found == m_rowOf.end())
            continue;
        Row& row = m_rows[found->second];
        row.sample = sample;
        row.hasValue = true;
        changed[found->second] = true;
    }
    int first = -1; // the current block of changed rows
    const auto flush = [&](int last) {
        if (first >= 0)
            Q_EMIT dataChanged(index(first, 0), index(last, ColumnCount - 1));
        first = -1;
    };
    for (int r = 0; r < rowCount(); ++r) {
        Row& row = m_rows[static_cast<std::size_t>(r)];
        bool rowChanged = changed[static_cast<std::size_t>(r)];
        const bool stale = isStale(row, m_nowNs);
        if (stale != row.stale) {
            row.stale = stale;
            rowChanged = true;
        }
        if (rowChanged && first < 0)
            first = r;
        else if (!rowChanged)
            flush(r - 1);
    }
    flush(rowCount() - 1);
    // Every age moves with the clock: one signal for the whole column.
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0, Age), index(rowCount() - 1, Age), {Qt::DisplayRole, kValueRole});
    return static_cast<int>(taken);
}

bool ValueTableModel::isStale(const Row& row, std::int64_t nowNs) const noexcept
{
    return row.hasValue && static_cast<double>(nowNs - row.sample.receiveTimeNs) > m_staleSeconds * kNsPerSecond;
}

ValueTableModel::RowState ValueTableModel::stateOf(const Row& row) const noexcept
{
    if (!row.hasValue)
        return RowState::NoValue;
    if (row.stale)
        return RowState::Stale;
    switch (row.sample.value.limit) {
    case decode::LimitState::None: return RowState::NoLimits;
    case decode::LimitState::Normal: return RowState::Normal;
    case decode::LimitState::YellowLow:
    case decode::LimitState::YellowHigh:
    case decode::LimitState::Unexpected: return RowState::Yellow;
    case decode::LimitState::RedLow:
    case decode::LimitState::RedHigh:
    case decode::LimitState::Invalid: return RowState::Red;
    }
    return RowState::NoLimits;
}

QString ValueTableModel::rowName(std::uint16_t streamId, std::uint32_t parameterId) const
{
    const QString name = QString::fromStdString(m_station.types().parameter(parameterId).qualifiedName);
    // With one stream the stream's name says nothing.
    if (m_station.streamCount() <= 1)
        return name;
    return QStringLiteral("%1: %2").arg(QString::fromStdString(m_station.streamName(streamId)), name);
}

int ValueTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ValueTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ValueTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole: return displayText(row, column);
    case kValueRole: return value(row, column);
    case kRowStateRole: return static_cast<int>(stateOf(row));
    case Qt::BackgroundRole:
        switch (stateOf(row)) {
        case RowState::Normal: return tone::kNormalBackground;
        case RowState::Yellow: return tone::kYellowBackground;
        case RowState::Red: return tone::kRedBackground;
        case RowState::Stale: return tone::kStaleBackground;
        case RowState::NoValue:
        case RowState::NoLimits: return {};
        }
        return {};
    case Qt::ForegroundRole:
        switch (stateOf(row)) {
        case RowState::Normal:
        case RowState::Yellow:
        case RowState::Red: return tone::kColouredText;
        case RowState::Stale: return tone::kMutedText;
        case RowState::NoValue:
        case RowState::NoLimits: return {};
        }
        return {};
    case Qt::TextAlignmentRole:
        switch (column) {
        case Raw:
        case Converted:
        case Calibrated:
        case Age: return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        default: return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
        }
    case Qt::ToolTipRole:
        if (column == Name) {
            const auto& info = m_station.types().parameter(row.parameterId);
            const auto& def = m_station.types().definition(info.typeIndex).parameters[info.indexInPacket];
            return QStringLiteral("%1 (%2)\n%3")
                .arg(QString::fromStdString(info.qualifiedName), QString::fromStdString(m_station.streamName(row.streamId)),
                     QString::fromStdString(def.description));
        }
        return {};
    default: return {};
    }
}

QVariant ValueTableModel::displayText(const Row& row, int column) const
{
    const auto& types = m_station.types();
    const auto& info = types.parameter(row.parameterId);
    const auto& def = types.definition(info.typeIndex).parameters[info.indexInPacket];
    if (column == Name)
        return row.name;
    if (column == Units)
        return QString::fromStdString(def.units);
    if (!row.hasValue)
        return {};
    const decode::DecodedValue& v = row.sample.value;
    const auto type = types.plan(info.typeIndex).dataType(info.indexInPacket);
    const bool bytes = mdb::isByteSequence(type);
    switch (column) {
    case Raw: {
        if (!v.present)
            return tr("absent");
        if (m_rawFormat == RawFormat::Decimal)
            return QString::number(v.raw);
        // As many hex digits as the field has (String/Bytes: their first 8 bytes at most, as many as
        // the value has when its size comes from the packet).
        const std::uint32_t byteCount = def.fixedSize() ? def.bitLength / 8 : static_cast<std::uint32_t>(v.converted.u);
        const std::uint32_t bits = bytes ? 8 * std::min<std::uint32_t>(8, byteCount) : def.bitLength;
        const int digits = static_cast<int>(std::clamp<std::uint32_t>((bits + 3) / 4, 1, 16));
        return QStringLiteral("0x") + QString::number(v.raw, 16).toUpper().rightJustified(digits, QLatin1Char('0'));
    }
    case Converted:
        if (!v.present)
            return {};
        switch (type) {
        case mdb::DataType::UnsignedInt: return QString::number(v.converted.u);
        case mdb::DataType::SignedInt:
        case mdb::DataType::SignMagnitudeInt:
        case mdb::DataType::OnesComplementInt: return QString::number(v.converted.i);
        case mdb::DataType::Float: return valueText(v.converted.f);
        case mdb::DataType::String:
        case mdb::DataType::Bytes: return tr("%1 bytes").arg(v.converted.u);
        }
        return {};
    case Calibrated: {
        if (!v.present || bytes)
            return {};
        const auto& plan = types.plan(info.typeIndex);
        const std::string_view state = plan.stateText(info.indexInPacket, v);
        if (!state.empty())
            return QString::fromUtf8(state.data(), static_cast<qsizetype>(state.size()));
        if (plan.isTime(info.indexInPacket) && std::isfinite(v.calibrated) && std::fabs(v.calibrated) < 1e13)
            return QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(std::floor(v.calibrated * 1000)), QTimeZone::utc())
                .toString(QStringLiteral("yyyy-MM-dd hh:mm:ss.zzz"));
        return valueText(v.calibrated);
    }
    case Limit: {
        if (!v.present)
            return tr("absent");
        if (v.limit == decode::LimitState::None)
            return {};
        const std::string_view name = decode::limitStateName(v.limit);
        return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
    }
    case PacketTime:
        if (row.sample.packetTimeNs == 0)
            return {};
        return QDateTime::fromMSecsSinceEpoch(row.sample.packetTimeNs / 1'000'000, Qt::UTC)
            .toString(QStringLiteral("yyyy-MM-dd hh:mm:ss.zzz"));
    case Age:
        return QString::number(std::max(0.0, static_cast<double>(m_nowNs - row.sample.receiveTimeNs) / kNsPerSecond), 'f', 1);
    default: return {};
    }
}

QVariant ValueTableModel::value(const Row& row, int column) const
{
    const auto& info = m_station.types().parameter(row.parameterId);
    if (column == Name)
        return QString::fromStdString(info.qualifiedName);
    if (column == Units)
        return displayText(row, Units);
    if (!row.hasValue)
        return {};
    const decode::DecodedValue& v = row.sample.value;
    switch (column) {
    case Raw: return QVariant::fromValue<qulonglong>(v.raw);
    case Converted:
        switch (m_station.types().plan(info.typeIndex).dataType(info.indexInPacket)) {
        case mdb::DataType::SignedInt:
        case mdb::DataType::SignMagnitudeInt:
        case mdb::DataType::OnesComplementInt: return QVariant::fromValue<qlonglong>(v.converted.i);
        case mdb::DataType::Float: return v.converted.f;
        case mdb::DataType::UnsignedInt:
        case mdb::DataType::String:
        case mdb::DataType::Bytes: return QVariant::fromValue<qulonglong>(v.converted.u);
        }
        return {};
    case Calibrated: return v.calibrated;
    case Limit: return static_cast<int>(v.limit);
    case PacketTime: return QVariant::fromValue<qlonglong>(row.sample.packetTimeNs);
    case Age: return static_cast<double>(m_nowNs - row.sample.receiveTimeNs) / kNsPerSecond;
    default: return {};
    }
}

QVariant ValueTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name: return tr("Parameter");
    case Raw: return tr("Raw");
    case Converted: return tr("Converted");
    case Calibrated: return tr("Calibrated");
    case Units: return tr("Units");
    case Limit: return tr("Limit");
    case PacketTime: return tr("Packet time (UTC)");
    case Age: return tr("Age (s)");
    default: return {};
    }
}

Qt::ItemFlags ValueTableModel::flags(const QModelIndex& index) const
{
    // Drops on a row add to the table like drops on the empty area.
    return QAbstractTableModel::flags(index) | Qt::ItemIsDropEnabled;
}

QStringList ValueTableModel::mimeTypes() const
{
    return {QString::fromLatin1(kParameterMimeType), QStringLiteral("text/plain")};
}

Qt::DropActions ValueTableModel::supportedDropActions() const
{
    return Qt::CopyAction | Qt::MoveAction;
}

std::vector<QString> ValueTableModel::namesIn(const QMimeData* data)
{
    std::vector<QString> names;
    if (!data)
        return names;
    const QString text = data->hasFormat(QString::fromLatin1(kParameterMimeType))
                             ? QString::fromUtf8(data->data(QString::fromLatin1(kParameterMimeType)))
                             : data->text();
    for (const QString& line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        if (const QString name = line.trimmed(); !name.isEmpty())
            names.push_back(name);
    return names;
}

bool ValueTableModel::canDropMimeData(const QMimeData* data, Qt::DropAction, int, int, const QModelIndex&) const
{
    const auto& types = m_station.types();
    const auto names = namesIn(data);
    return std::any_of(names.begin(), names.end(),
                       [&](const QString& n) { return types.parameterId(n.toStdString()).has_value(); });
}

bool ValueTableModel::dropMimeData(const QMimeData* data, Qt::DropAction, int, int, const QModelIndex&)
{
    bool added = false;
    for (const QString& name : namesIn(data)) {
        if (const auto pid = m_station.types().parameterId(name.toStdString()))
            added = addParameter(m_dropStream, *pid) || added;
    }
    return added;
}

} // namespace telestation::ui
