#include "ui/widgets/queue_bar.hpp"

#include "ui/text/number_format.hpp"

#include <QApplication>
#include <QFontMetrics>
#include <QPainter>
#include <QStyle>

#include <algorithm>
#include <cmath>

namespace telestation::ui {

namespace {

// The bar leaves this much of the rectangle above and below it, where the warning tick still shows.
constexpr int kVerticalMargin = 3;
constexpr int kHorizontalMargin = 1;

QString levelText(const QueueLevel& level)
{
    return QStringLiteral("%1 / %2").arg(countText(level.depth), countText(level.capacity));
}

} // namespace

QueueBar::QueueBar(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void QueueBar::setLevel(const QueueLevel& level)
{
    if (level == m_level)
        return;
    m_level = level;
    setToolTip(tr("Depth %1 of %2 packets; high water %3; warning at %4")
                   .arg(countText(level.depth), countText(level.capacity), countText(level.highWater),
                        level.warningThreshold > 0 ? countText(level.warningThreshold) : tr("none")));
    update();
}

void QueueBar::setTextVisible(bool visible)
{
    if (visible == m_textVisible)
        return;
    m_textVisible = visible;
    update();
}

QSize QueueBar::sizeHint() const
{
    return {240, fontMetrics().height() + 2 * kVerticalMargin + 2};
}

QSize QueueBar::minimumSizeHint() const
{
    return {40, 2 * kVerticalMargin + 6};
}

QRect QueueBar::barRect(const QRect& rect)
{
    // Small rectangles keep at least a few pixels of bar; the tick then covers the whole height.
    const int vertical = rect.height() > 2 * kVerticalMargin + 4 ? kVerticalMargin : 0;
    return rect.adjusted(kHorizontalMargin, vertical, -kHorizontalMargin, -vertical);
}

int QueueBar::xFor(const QRect& rect, std::uint64_t value, std::uint64_t capacity)
{
    const QRect bar = barRect(rect);
    if (capacity == 0)
        return bar.left();
    const double fraction = static_cast<double>(std::min(value, capacity)) / static_cast<double>(capacity);
    return bar.left() + static_cast<int>(std::lround(fraction * bar.width()));
}

int QueueBar::warningTickX(const QRect& rect, const QueueLevel& level)
{
    if (level.warningThreshold == 0 || level.capacity == 0)
        return -1;
    const QRect bar = barRect(rect);
    return std::clamp(xFor(rect, level.warningThreshold, level.capacity), bar.left(), bar.right());
}

int QueueBar::highWaterX(const QRect& rect, const QueueLevel& level)
{
    if (level.highWater == 0 || level.capacity == 0)
        return -1;
    const QRect bar = barRect(rect);
    return std::clamp(xFor(rect, level.highWater, level.capacity), bar.left(), bar.right());
}

QColor QueueBar::fillColor(const QueueLevel& level)
{
    if (level.capacity > 0 && level.depth >= level.capacity)
        return kFullColor;
    // The engine counts a warning when the depth reaches the threshold: the same rule here.
    if (level.warningThreshold > 0 && level.depth >= level.warningThreshold)
        return kWarningColor;
    return kNormalColor;
}

void QueueBar::paint(QPainter& painter, const QRect& rect, const QueueLevel& level, const QPalette& palette,
                     bool drawText)
{
    if (rect.width() < 4 || rect.height() < 4)
        return;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false); // crisp ticks on whole pixels

    // The text goes right of the bar, never over the marks. Its room is that of a full queue's text,
    // so the bar keeps its length while the depth changes.
    QRect area = rect;
    if (drawText) {
        const QFontMetrics metrics(painter.font());
        const QueueLevel full{level.capacity, level.capacity, 0, 0};
        const int room = metrics.horizontalAdvance(level.capacity > 0 ? levelText(full) : QStringLiteral("—")) + 8;
        if (rect.width() - room >= 40 && metrics.height() <= rect.height()) {
            area = rect.adjusted(0, 0, -room, 0);
            painter.setPen(palette.color(QPalette::Text));
            painter.drawText(QRect(area.right() + 1, rect.top(), room, rect.height()), Qt::AlignRight | Qt::AlignVCenter,
                             level.capacity > 0 ? levelText(level) : QStringLiteral("—"));
        }
    }

    const QRect bar = barRect(area);
    painter.fillRect(bar, kTroughColor);
    const int fillRight = xFor(area, level.depth, level.capacity);
    if (fillRight > bar.left())
        painter.fillRect(QRect(bar.left(), bar.top(), fillRight - bar.left(), bar.height()), fillColor(level));

    painter.setPen(palette.color(QPalette::Mid));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(bar.adjusted(0, 0, -1, -1));

    // Two pixels wide, the line's own x included: x-1 and x.
    if (const int x = highWaterX(area, level); x >= 0)
        painter.fillRect(QRect(x - 1, bar.top(), 2, bar.height()), kHighWaterColor);
    if (const int x = warningTickX(area, level); x >= 0)
        painter.fillRect(QRect(x - 1, area.top(), 2, area.height()), kTickColor);
    painter.restore();
}

void QueueBar::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    paint(painter, rect(), m_level, palette(), m_textVisible);
}

// ---- QueueBarDelegate ---------------------------------------------------------------------------------

QueueBarDelegate::QueueBarDelegate(int role, QObject* parent) : QStyledItemDelegate(parent), m_role(role) {}

void QueueBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    const QVariant value = index.data(m_role);
    if (value.metaType() != QMetaType::fromType<QueueLevel>()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    // The cell's background (selection, alternate rows) as the style draws it, then the bar.
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    opt.icon = QIcon();
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
    // No text: the table has its numbers in columns of their own.
    QueueBar::paint(*painter, option.rect.adjusted(3, 1, -3, -1), value.value<QueueLevel>(), option.palette, false);
}

QSize QueueBarDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    if (index.data(m_role).metaType() == QMetaType::fromType<QueueLevel>())
        size = size.expandedTo(QSize(160, option.fontMetrics.height() + 8));
    return size;
}

} // namespace telestation::ui
