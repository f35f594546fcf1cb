// A queue's fill level as a painted bar: the depth against the capacity, a tick at the warning
// threshold and a mark at the high-water level; the bar turns amber once the depth reaches the warning
// threshold (the engine's own rule for counting a warning) and red when the queue is full. A widget
// for forms, and QueueBarDelegate paints the same bar in a table cell (the statistics dialog's queues).
#pragma once

#include <QColor>
#include <QMetaType>
#include <QStyledItemDelegate>
#include <QWidget>

#include <cstdint>

class QPainter;

namespace telestation::ui {

// What the bar shows; warningThreshold 0 = none (no tick, never amber).
struct QueueLevel {
    std::uint64_t depth = 0;
    std::uint64_t capacity = 0;
    std::uint64_t warningThreshold = 0;
    std::uint64_t highWater = 0;
    friend bool operator==(const QueueLevel&, const QueueLevel&) = default;
};

class QueueBar : public QWidget {
    Q_OBJECT

public:
    // The colours, fixed so that operators learn them (and tests can find them).
    static inline const QColor kNormalColor{0x2e, 0xa0, 0x43};   // below the warning threshold
    static inline const QColor kWarningColor{0xe0, 0x8e, 0x0b};  // at or past the warning threshold
    static inline const QColor kFullColor{0xc0, 0x39, 0x2b};     // at capacity: the next packet drops
    static inline const QColor kTickColor{0x20, 0x20, 0x20};     // the warning threshold
    static inline const QColor kHighWaterColor{0x3b, 0x7d, 0xd8}; // the deepest the queue has been
    static inline const QColor kTroughColor{0xe4, 0xe6, 0xea};   // the empty part of the bar

    explicit QueueBar(QWidget* parent = nullptr);

    void setLevel(const QueueLevel& level);
    [[nodiscard]] const QueueLevel& level() const noexcept { return m_level; }
    // "depth / capacity" right of the bar when there is room (on by default).
    void setTextVisible(bool visible);
    [[nodiscard]] bool isTextVisible() const noexcept { return m_textVisible; }

    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

    // Paints `level` into `rect`: shared by the widget and the delegate. With `drawText` (and room for
    // it), the text takes the right end of `rect` and the bar the rest.
    static void paint(QPainter& painter, const QRect& rect, const QueueLevel& level, const QPalette& palette,
                      bool drawText = true);
    // Geometry of paint() without text, for tests and hit testing. The bar is `rect` less a margin; the warning tick
    // runs the full height of `rect` (so that it shows above and below the bar); -1 when there is none.
    [[nodiscard]] static QRect barRect(const QRect& rect);
    [[nodiscard]] static int xFor(const QRect& rect, std::uint64_t value, std::uint64_t capacity);
    [[nodiscard]] static int warningTickX(const QRect& rect, const QueueLevel& level);
    [[nodiscard]] static int highWaterX(const QRect& rect, const QueueLevel& level);
    // The fill colour for a level (normal, warning or full).
    [[nodiscard]] static QColor fillColor(const QueueLevel& level);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QueueLevel m_level;
    bool m_textVisible = true;
};

// Paints a QueueBar in cells whose model returns a QueueLevel for `role`; other cells as usual.
class QueueBarDelegate : public QStyledItemDelegate {
    Q_OBJECT

public:
    explicit QueueBarDelegate(int role, QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    [[nodiscard]] QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    int m_role;
};

} // namespace telestation::ui

Q_DECLARE_METATYPE(telestation::ui::QueueLevel)
