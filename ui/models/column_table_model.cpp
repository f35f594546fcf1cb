#include "ui/models/column_table_model.hpp"

#include "ui/models/tones.hpp"
#include "ui/text/number_format.hpp"
#include "ui/widgets/queue_bar.hpp"

#include <QBrush>

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace telestation::ui::detail {

namespace {

double fillFraction(const QueueLevel& q)
{
    return q.capacity > 0 ? static_cast<double>(std::min(q.depth, q.capacity)) / static_cast<double>(q.capacity) : 0.0;
}

} // namespace

QVariant cellAlignment(bool number)
{
    return number ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
}

QVariant formattedCell(CellFormat format, const QVariant& value)
{
    switch (format) {
    case CellFormat::Count: return countText(value.toULongLong());
    case CellFormat::Rate: return compactText(value.toDouble());
    default: return value;
    }
}

QVariant fillCell(const QVariant& level, int role)
{
    const auto q = level.value<QueueLevel>();
    if (role == kQueueLevelRole)
        return QVariant::fromValue(q);
    if (role == kCellValueRole)
        return fillFraction(q);
    if (role == Qt::DisplayRole) // the delegate paints a bar instead; this is for copies and screen readers
        return QStringLiteral("%1%").arg(qRound(fillFraction(q) * 100));
    return {};
}

QVariant toneBrush(CellTone tone)
{
    switch (tone) {
    case CellTone::Loss: return QBrush(tone::kErrorText);
    case CellTone::Notice: return QBrush(tone::kWarningText);
    case CellTone::Plain: return {};
    }
    return {};
}

SyncPlan planSync(const std::vector<std::string>& before, const std::vector<std::string>& after)
{
    SyncPlan plan;
    std::unordered_map<std::string_view, int> position;
    for (std::size_t i = 0; i < after.size(); ++i) {
        if (!position.emplace(after[i], static_cast<int>(i)).second) {
            plan.repeatedKey = plan.reorder = true;
            return plan;
        }
    }
    std::unordered_set<int> kept;
    int last = -1;
    for (std::size_t i = 0; i < before.size(); ++i) {
        const auto it = position.find(before[i]);
        if (it == position.end()) {
            plan.removals.push_back(static_cast<int>(i));
            continue;
        }
        plan.reorder |= it->second <= last; // the removals are still wanted (syncRows moves rows)
        last = it->second;
        kept.insert(it->second);
    }
    std::reverse(plan.removals.begin(), plan.removals.end());
    for (std::size_t i = 0; i < after.size(); ++i)
        if (!kept.contains(static_cast<int>(i)))
            plan.insertions.push_back(static_cast<int>(i));
    return plan;
}

} // namespace telestation::ui::detail
