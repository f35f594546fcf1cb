#include "ui/models/mission_tree_model.hpp"

#include "core/mdb/keywords.hpp"
#include "core/mdb/text_format.hpp"
#include "ui/models/value_table_model.hpp"

#include <QDateTime>
#include <QFont>
#include <QTimeZone>
#include <QLocale>
#include <QMimeData>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace telestation::ui {
namespace {

// Enumerations longer than this are shown as their first states and a count.
constexpr std::size_t kStatesShown = 4;

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

// The shortest text that reads back as the same double, without an exponent where a reader would
// not use one: 0.0005 rather than 5e-04, 1000000000 rather than 1e+09.
QString real(double v)
{
    const double magnitude = std::fabs(v);
    const bool plain = magnitude == 0.0 || (magnitude >= 1e-6 && magnitude < 1e15);
    return QString::number(v, plain ? 'f' : 'g', QLocale::FloatingPointShortest);
}

QString power(std::size_t n)
{
    static const char16_t* const kSuperscripts[] = {u"", u"", u"\u00b2", u"\u00b3", u"\u2074", u"\u2075"};
    if (n < std::size(kSuperscripts))
        return QString::fromUtf16(kSuperscripts[n]);
    return QStringLiteral("^%1").arg(n);
}

// c0 + c1·x + c2·x² ..., leaving out zero terms: "-40 + 0.5·x".
QString polynomialText(const mdb::PolynomialCalibrator& poly)
{
    if (poly.coefficients.empty())
        return MissionTreeModel::tr("polynomial without coefficients");
    QString out;
    for (std::size_t i = 0; i < poly.coefficients.size(); ++i) {
        const double c = poly.coefficients[i];
        if (c == 0.0)
            continue;
        const double magnitude = std::fabs(c);
        QString term;
        if (i == 0)
            term = real(magnitude);
        else
            term = (magnitude == 1.0 ? QString() : real(magnitude) + QChar(0x00b7)) + QLatin1Char('x') + power(i);
        if (out.isEmpty())
            out = (c < 0 ? QStringLiteral("-") : QString()) + term;
        else
            out += (c < 0 ? QStringLiteral(" \u2212 ") : QStringLiteral(" + ")) + term;
    }
    return out.isEmpty() ? QStringLiteral("0") : out;
}

QString stateCodes(const mdb::State& s)
{
    return s.low == s.high ? QString::number(s.low) : QStringLiteral("%1..%2").arg(s.low).arg(s.high);
}

QString enumerationText(const mdb::EnumerationCalibrator& e)
{
    if (e.states.empty())
        return MissionTreeModel::tr("enumeration without states");
    const bool all = e.states.size() <= kStatesShown;
    const std::size_t shown = all ? e.states.size() : kStatesShown - 1;
    QStringList parts;
    for (std::size_t i = 0; i < shown; ++i)
        parts << qs(e.states[i].text) + QLatin1Char('=') + stateCodes(e.states[i]);
    QString out = parts.join(QStringLiteral(", "));
    if (!all)
        out += MissionTreeModel::tr(", \u2026 (%1 states)").arg(e.states.size());
    return out;
}

QString pointTableText(const mdb::PointPairCalibrator& t)
{
    if (t.points.empty())
        return MissionTreeModel::tr("table without points");
    const auto& first = t.points.front();
    const auto& last = t.points.back();
    return MissionTreeModel::tr("%1 points: %2 \u2192 %3 \u2026 %4 \u2192 %5")
        .arg(t.points.size())
        .arg(real(first.raw), real(first.calibrated), real(last.raw), real(last.calibrated));
}

QString parameterCountText(std::size_t n)
{
    return n == 1 ? MissionTreeModel::tr("1 parameter") : MissionTreeModel::tr("%1 parameters").arg(n);
}

QString lengthText(const mdb::PacketDef& p)
{
    if (p.variableLength)
        return MissionTreeModel::tr("%1..%2 bytes").arg(p.length).arg(p.maxLength);
    return MissionTreeModel::tr("%1 bytes").arg(p.length);
}

QString compareText(mdb::CompareOp op)
{
    switch (op) {
    case mdb::CompareOp::Equal: return QStringLiteral("=");
    case mdb::CompareOp::NotEqual: return QStringLiteral("\u2260");
    case mdb::CompareOp::Less: return QStringLiteral("<");
    case mdb::CompareOp::LessOrEqual: return QStringLiteral("\u2264");
    case mdb::CompareOp::Greater: return QStringLiteral(">");
    case mdb::CompareOp::GreaterOrEqual: return QStringLiteral("\u2265");
    }
    return QStringLiteral("?");
}

// A criterion in words: by the parameter at its field where there is one ("TYPE > 1"), else by bits.
QString criterionText(const mdb::PacketDef& p, const mdb::FieldCriterion& c)
{
    for (const auto& q : p.parameters)
        if (q.placement == mdb::Placement::Absolute && q.fixedSize() && q.bitOffset == c.bitOffset && q.bitLength == c.bitLength)
            return QStringLiteral("%1 %2 %3").arg(qs(q.name), compareText(c.op)).arg(c.value);
    return MissionTreeModel::tr("bits %1..%2 %3 %4")
        .arg(c.bitOffset)
        .arg(std::uint64_t{c.bitOffset} + c.bitLength - 1)
        .arg(compareText(c.op))
        .arg(c.value);
}

// "1424 (id 3)", and the criteria on other fields: "1424 (IDX__SCI0TYPE > 1, VERSION = 0)" — those that
// tell the type from others first, those on the primary header (every packet of a mission has them) last.
QString apidText(const mdb::PacketDef& p)
{
    QStringList conditions;
    if (p.secondaryId)
        conditions << MissionTreeModel::tr("id %1").arg(p.secondaryId->value);
    for (const bool header : {false, true})
        for (const auto& c : p.criteria)
            if ((c.bitOffset < 48) == header)
                conditions << criterionText(p, c);
    if (conditions.isEmpty())
        return QString::number(p.apid);
    return QStringLiteral("%1 (%2)").arg(p.apid).arg(conditions.join(QStringLiteral(", ")));
}

QString aliasesText(const std::vector<mdb::Alias>& aliases)
{
    QStringList parts;
    for (const auto& a : aliases)
        parts << (a.nameSpace.empty() ? qs(a.alias) : qs(a.nameSpace) + QLatin1Char(':') + qs(a.alias));
    return parts.join(QStringLiteral(", "));
}

// What search finds beside names and descriptions: the XTCE path, aliases, the long description.
QString moreSearchText(const std::string& path, const std::vector<mdb::Alias>& aliases, const std::string& longDescription)
{
    QString out = QLatin1Char('\n') + qs(path) + QLatin1Char('\n') + qs(longDescription);
    for (const auto& a : aliases)
        out += QLatin1Char('\n') + qs(a.alias);
    return out;
}

// Path, aliases and long description for a tooltip, as HTML lines.
QString moreTooltip(const std::string& path, const std::vector<mdb::Alias>& aliases, const std::string& longDescription)
{
    QString tip;
    if (!path.empty())
        tip += QStringLiteral("<br/>") + MissionTreeModel::tr("Path: %1").arg(qs(path).toHtmlEscaped());
    if (!aliases.empty())
        tip += QStringLiteral("<br/>") + MissionTreeModel::tr("Aliases: %1").arg(aliasesText(aliases).toHtmlEscaped());
    if (!longDescription.empty())
        tip += QStringLiteral("<br/>") + qs(longDescription).toHtmlEscaped();
    return tip;
}

QString bitRange(std::uint64_t offset, std::uint64_t length)
{
    const std::uint64_t last = offset + (length > 0 ? length - 1 : 0);
    return MissionTreeModel::tr("bits %1..%2, bytes %3..%4").arg(offset).arg(last).arg(offset / 8).arg(last / 8);
}

// The packet's own lines of the canonical definition text (PACKET, DESCRIPTION, SECONDARY_ID, ...).
std::string packetHeaderText(const mdb::PacketDef& p)
{
    mdb::MissionDatabase one;
    one.packets.push_back(p);
    one.packets.back().parameters.clear();
    return mdb::writeText(one);
}

// The parameter's lines of the canonical definition text: what writeText adds for it after its packet.
std::string parameterText(const mdb::PacketDef& p, const mdb::ParameterDef& q)
{
    mdb::MissionDatabase one;
    one.packets.push_back(p);
    one.packets.back().parameters.assign(1, q);
    const std::string head = packetHeaderText(p);
    std::string all = mdb::writeText(one);
    return all.size() > head.size() ? all.substr(head.size()) : all;
}

QString preformatted(const std::string& text)
{
    QString t = qs(text);
    while (t.endsWith(QLatin1Char('\n')))
        t.chop(1);
    return QStringLiteral("<pre>") + t.toHtmlEscaped() + QStringLiteral("</pre>");
}

bool isNumericColumn(int column)
{
    return column == MissionTreeModel::Apid || column == MissionTreeModel::Length
        || column == MissionTreeModel::Parameters || column == MissionTreeModel::BitOffset
        || column == MissionTreeModel::BitLength;
}

} // namespace

MissionTreeModel::MissionTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

MissionTreeModel::~MissionTreeModel() = default;

void MissionTreeModel::setDatabase(const mdb::MissionDatabase* db)
{
    beginResetModel();
    m_db = db;
    m_searchText.clear();
    if (db != nullptr) {
        m_searchText.reserve(db->packets.size());
        for (const auto& p : db->packets) {
            std::vector<QString>& texts = m_searchText.emplace_back();
            texts.reserve(p.parameters.size() + 1);
            texts.push_back(qs(p.name) + QLatin1Char('\n') + qs(p.description)
                            + moreSearchText(p.path, p.aliases, p.longDescription));
            for (const auto& q : p.parameters)
                texts.push_back(qs(p.name + '.' + q.name) + QLatin1Char('\n') + qs(q.units) + QLatin1Char('\n')
                                + qs(q.description) + moreSearchText(q.path, q.aliases, q.longDescription));
        }
    }
    endResetModel();
}

// Packet rows carry internal id 0; parameter rows their packet's row + 1.
QModelIndex MissionTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, quintptr{0});
    return createIndex(row, column, static_cast<quintptr>(parent.row()) + 1);
}

QModelIndex MissionTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, quintptr{0});
}

int MissionTreeModel::rowCount(const QModelIndex& parent) const
{
    if (m_db == nullptr)
        return 0;
    if (!parent.isValid())
        return static_cast<int>(m_db->packets.size());
    if (parent.column() != 0 || parent.internalId() != 0)
        return 0; // parameters have no children; only column 0 has children
    const auto row = static_cast<std::size_t>(parent.row());
    return row < m_db->packets.size() ? static_cast<int>(m_db->packets[row].parameters.size()) : 0;
}

int MissionTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

const mdb::PacketDef* MissionTreeModel::packet(const QModelIndex& index) const
{
    if (m_db == nullptr || !index.isValid() || index.model() != this)
        return nullptr;
    const std::size_t row = index.internalId() == 0 ? static_cast<std::size_t>(index.row())
                                                    : static_cast<std::size_t>(index.internalId() - 1);
    return row < m_db->packets.size() ? &m_db->packets[row] : nullptr;
}

const mdb::ParameterDef* MissionTreeModel::parameter(const QModelIndex& index) const
{
    if (!index.isValid() || index.internalId() == 0)
        return nullptr;
    const mdb::PacketDef* p = packet(index);
    const auto row = static_cast<std::size_t>(index.row());
    return p != nullptr && row < p->parameters.size() ? &p->parameters[row] : nullptr;
}

QModelIndex MissionTreeModel::indexOf(const QString& name) const
{
    if (m_db == nullptr)
        return {};
    const qsizetype dot = name.indexOf(QLatin1Char('.'));
    const std::string packetName = (dot < 0 ? name : name.left(dot)).toStdString();
    for (std::size_t p = 0; p < m_db->packets.size(); ++p) {
        const auto& def = m_db->packets[p];
        if (def.name != packetName)
            continue;
        const QModelIndex packetIndex = index(static_cast<int>(p), 0);
        if (dot < 0)
            return packetIndex;
        const std::string parameterName = name.mid(dot + 1).toStdString();
        for (std::size_t q = 0; q < def.parameters.size(); ++q)
            if (def.parameters[q].name == parameterName)
                return index(static_cast<int>(q), 0, packetIndex);
        return {};
    }
    return {};
}

QStringList MissionTreeModel::qualifiedNames(const QModelIndexList& indexes) const
{
    std::vector<std::pair<std::size_t, std::size_t>> chosen; // (packet, parameter) in the database
    for (const QModelIndex& index : indexes) {
        const mdb::PacketDef* p = packet(index);
        if (p == nullptr)
            continue;
        const auto packetRow = static_cast<std::size_t>(p - m_db->packets.data());
        if (index.internalId() == 0) {
            for (std::size_t q = 0; q < p->parameters.size(); ++q)
                chosen.emplace_back(packetRow, q);
        } else if (parameter(index) != nullptr) {
            chosen.emplace_back(packetRow, static_cast<std::size_t>(index.row()));
        }
    }
    std::sort(chosen.begin(), chosen.end());
    chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
    QStringList names;
    names.reserve(static_cast<qsizetype>(chosen.size()));
    for (const auto& [p, q] : chosen)
        names << qs(m_db->packets[p].name + '.' + m_db->packets[p].parameters[q].name);
    return names;
}

QVariant MissionTreeModel::data(const QModelIndex& index, int role) const
{
    const mdb::PacketDef* p = packet(index);
    if (p == nullptr)
        return {};
    if (role == kKindRole)
        return static_cast<int>(index.internalId() == 0 ? ItemKind::Packet : ItemKind::Parameter);
    if (role == Qt::TextAlignmentRole && isNumericColumn(index.column()))
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (index.internalId() == 0)
        return packetData(*p, index.column(), role);
    const mdb::ParameterDef* q = parameter(index);
    return q != nullptr ? parameterData(*p, *q, index.column(), role) : QVariant();
}

QVariant MissionTreeModel::packetData(const mdb::PacketDef& p, int column, int role) const
{
    switch (role) {
    case kQualifiedNameRole:
        return qs(p.name);
    case kSearchTextRole:
        return m_searchText[static_cast<std::size_t>(&p - m_db->packets.data())].front();
    case Qt::FontRole:
        if (column == Name) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::ToolTipRole: {
        QString tip = QStringLiteral("<b>%1</b> \u2014 ").arg(qs(p.name).toHtmlEscaped())
            + tr("APID %1, %2, %3").arg(p.apid).arg(lengthText(p), parameterCountText(p.parameters.size()));
        if (!p.description.empty())
            tip += QStringLiteral("<br/>") + qs(p.description).toHtmlEscaped();
        tip += moreTooltip(p.path, p.aliases, p.longDescription);
        return tip + preformatted(packetHeaderText(p));
    }
    case Qt::DisplayRole:
        switch (column) {
        case Name:
            return qs(p.name);
        case Apid:
            return apidText(p);
        case Length:
            return lengthText(p);
        case Parameters:
            return QString::number(p.parameters.size());
        case Description:
            return qs(p.description);
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant MissionTreeModel::parameterData(const mdb::PacketDef& p, const mdb::ParameterDef& q, int column,
                                         int role) const
{
    switch (role) {
    case kQualifiedNameRole:
        return qs(p.name + '.' + q.name);
    case kSearchTextRole:
        return m_searchText[static_cast<std::size_t>(&p - m_db->packets.data())][1 + static_cast<std::size_t>(&q - p.parameters.data())];
    case Qt::ToolTipRole: {
        QString tip = QStringLiteral("<b>%1</b> \u2014 ").arg(qs(p.name + '.' + q.name).toHtmlEscaped());
        if (q.placement == mdb::Placement::Absolute && q.fixedSize())
            tip += bitRange(q.bitOffset, q.bitLength).toHtmlEscaped();
        else
            tip += tr("placed by the data: %1").arg(placementText(q)).toHtmlEscaped();
        if (!q.description.empty())
            tip += QStringLiteral("<br/>") + qs(q.description).toHtmlEscaped();
        tip += moreTooltip(q.path, q.aliases, q.longDescription);
        return tip + preformatted(parameterText(p, q));
    }
    case Qt::DisplayRole:
        switch (column) {
        case Name:
            return qs(q.name);
        case Type:
            return typeText(p, q);
        case BitOffset:
            return q.placement == mdb::Placement::Absolute ? QString::number(q.bitOffset)
                                                           : QStringLiteral("+%1").arg(q.bitOffset);
        case BitLength:
            return sizeText(q);
        case Units:
            return qs(q.units);
        case Calibration:
            return calibrationText(q);
        case Limits:
            return limitsText(q);
        case Description:
            return qs(q.description);
        default:
            return {};
        }
    default:
        return {};
    }
}

QString MissionTreeModel::typeText(const mdb::PacketDef& packet, const mdb::ParameterDef& parameter)
{
    QString text = QString::fromLatin1(mdb::keyword(parameter.type));
    // Byte order means something only for a field wider than a byte.
    const bool wide = (parameter.bitOffset % 8) + parameter.bitLength > 8;
    if (wide && mdb::effectiveByteOrder(packet, parameter) == mdb::ByteOrder::LittleEndian)
        text += QStringLiteral(" LE");
    return text;
}

QString MissionTreeModel::calibrationText(const mdb::ParameterDef& parameter)
{
    return std::visit(
        [](const auto& c) -> QString {
            using T = std::decay_t<decltype(c)>;
            if constexpr (std::is_same_v<T, mdb::PolynomialCalibrator>)
                return polynomialText(c);
            else if constexpr (std::is_same_v<T, mdb::PointPairCalibrator>)
                return pointTableText(c);
            else if constexpr (std::is_same_v<T, mdb::EnumerationCalibrator>)
                return enumerationText(c);
            else if constexpr (std::is_same_v<T, mdb::TimeCalibrator>)
                return tr("time: %1 s since %2")
                    .arg(c.scale == 1 ? QStringLiteral("x") : real(c.scale) + QStringLiteral("\u00b7x"))
                    .arg(QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(std::llround((c.epochUnixSeconds + c.offset) * 1000)), QTimeZone::utc())
                             .toString(Qt::ISODateWithMs));
            else
                return QString();
        },
        parameter.calibrator) + (parameter.contextCalibrators.empty() ? QString() : tr(" (+%n in context)", "", static_cast<int>(parameter.contextCalibrators.size())));
}

QString MissionTreeModel::placementText(const mdb::ParameterDef& q)
{
    QStringList parts;
    parts << (q.placement == mdb::Placement::Absolute ? tr("at bit %1").arg(q.bitOffset)
                                                      : q.bitOffset == 0 ? tr("after the previous parameter")
                                                                         : tr("%1 bits after the previous parameter").arg(q.bitOffset));
    if (!q.fixedSize())
        parts << sizeText(q);
    for (const auto& c : q.includeWhen)
        parts << tr("present when %1 %2 %3").arg(qs(c.parameter), compareText(c.op), real(c.value));
    return parts.join(QStringLiteral(", "));
}

QString MissionTreeModel::sizeText(const mdb::ParameterDef& q)
{
    switch (q.size.kind) {
    case mdb::SizeKind::Fixed:
        return QString::number(q.bitLength);
    case mdb::SizeKind::FromParameter:
        return q.size.sizeSlope == 1 && q.size.sizeIntercept == 0
            ? tr("%1 bits").arg(qs(q.size.sizeParameter))
            : tr("%1\u00b7%2 %3 %4").arg(real(q.size.sizeSlope), qs(q.size.sizeParameter),
                                          q.size.sizeIntercept < 0 ? QStringLiteral("\u2212") : QStringLiteral("+"),
                                          real(std::fabs(q.size.sizeIntercept)));
    case mdb::SizeKind::Terminated:
        return tr("to byte 0x%1").arg(q.size.terminator, 2, 16, QLatin1Char('0'));
    case mdb::SizeKind::LeadingSize:
        return tr("%1-bit count + bytes").arg(q.size.leadingSizeBits);
    }
    return {};
}

QString MissionTreeModel::limitsText(const mdb::ParameterDef& parameter)
{
    if (const auto* n = std::get_if<mdb::NumericLimits>(&parameter.limits)) {
        // An open side (XTCE ranges need not be two-sided) is left out.
        QStringList parts;
        if (std::isfinite(n->redLow))
            parts << QStringLiteral("R<%1").arg(real(n->redLow));
        if (std::isfinite(n->yellowLow))
            parts << QStringLiteral("Y<%1").arg(real(n->yellowLow));
        if (std::isfinite(n->yellowHigh))
            parts << QStringLiteral("Y>%1").arg(real(n->yellowHigh));
        if (std::isfinite(n->redHigh))
            parts << QStringLiteral("R>%1").arg(real(n->redHigh));
        const QString text = parts.join(QLatin1Char(' '));
        return n->enabled ? text : text + tr(" (disabled)");
    }
    if (const auto* s = std::get_if<mdb::StateLimits>(&parameter.limits)) {
        QStringList states;
        for (const auto& state : s->expectedStates)
            states << qs(state);
        QString text = tr("expected %1").arg(states.join(QStringLiteral(", ")));
        return s->enabled ? text : text + tr(" (disabled)");
    }
    return {};
}

QVariant MissionTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Name: return tr("Name");
        case Apid: return tr("APID");
        case Length: return tr("Length");
        case Parameters: return tr("Parameters");
        case Type: return tr("Type");
        case BitOffset: return tr("Bit offset");
        case BitLength: return tr("Bits");
        case Units: return tr("Units");
        case Calibration: return tr("Calibration");
        case Limits: return tr("Limits");
        case Description: return tr("Description");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Apid: return tr("Application process id; (id N): the secondary id value that tells packets sharing the APID apart");
        case Length: return tr("Packet length in bytes, the 6-byte primary header included");
        case Type: return tr("Data type; LE: little-endian field");
        case BitOffset: return tr("First bit of the field, counted from the first bit of the packet (bit 48 follows the primary header)");
        case Calibration: return tr("Polynomial, point table (first and last point) or enumeration (state=code)");
        case Limits: return tr("Numeric limits: red low, yellow low, yellow high, red high; or the expected states of an enumeration");
        default: return {};
        }
    }
    if (role == Qt::TextAlignmentRole && isNumericColumn(section))
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    return {};
}

Qt::ItemFlags MissionTreeModel::flags(const QModelIndex& index) const
{
    if (packet(index) == nullptr)
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled;
    if (index.internalId() != 0)
        f |= Qt::ItemNeverHasChildren;
    return f;
}

QStringList MissionTreeModel::mimeTypes() const
{
    return {QString::fromLatin1(ValueTableModel::kParameterMimeType), QStringLiteral("text/plain")};
}

QMimeData* MissionTreeModel::mimeData(const QModelIndexList& indexes) const
{
    const QStringList names = qualifiedNames(indexes);
    if (names.isEmpty())
        return nullptr;
    const QString text = names.join(QLatin1Char('\n'));
    auto* mime = new QMimeData;
    mime->setData(QString::fromLatin1(ValueTableModel::kParameterMimeType), text.toUtf8());
    mime->setText(text);
    return mime;
}

Qt::DropActions MissionTreeModel::supportedDragActions() const
{
    return Qt::CopyAction;
}

MissionTreeFilter::MissionTreeFilter(QObject* parent) : QSortFilterProxyModel(parent)
{
    setFilterRole(MissionTreeModel::kSearchTextRole);
    setFilterKeyColumn(MissionTreeModel::Name);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setRecursiveFilteringEnabled(true);
    setAutoAcceptChildRows(true);
}

} // namespace telestation::ui
