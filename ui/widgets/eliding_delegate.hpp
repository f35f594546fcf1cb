// A column's own elision: a table elides every column alike (QAbstractItemView::textElideMode), while a
// URL reads best cut in its middle (scheme and port kept) and a state text at its end.
#pragma once

#include <QStyledItemDelegate>

namespace telestation::ui {

class ElidingDelegate : public QStyledItemDelegate {
public:
    ElidingDelegate(Qt::TextElideMode mode, QObject* parent) : QStyledItemDelegate(parent), m_mode(mode) {}

    [[nodiscard]] Qt::TextElideMode mode() const noexcept { return m_mode; }

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        option->textElideMode = m_mode;
    }

private:
    Qt::TextElideMode m_mode;
};

} // namespace telestation::ui
