// Flat tables whose columns are described once: a table of TableColumn (header, tool tip, value,
// format, tone) per model, and ColumnTableModel<Row> writes rowCount, columnCount, data and headerData
// for all of them. Rows carry a string key: setRows() brings the table up to date in place (row
// removals and inserts for keys that vanished or appeared, one dataChanged over the rows that changed),
// so that views keep their selection and scroll position. Used by the statistics tables and the alarm
// list; StreamStatisticsModel (a tree) writes its cells with cellData().
#pragma once

#include <QAbstractTableModel>
#include <QMetaObject>
#include <QString>
#include <QVariant>

#include <algorithm>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace telestation::ui {

// The unformatted value of a cell: qulonglong for counts, double for rates, QString for texts.
inline constexpr int kCellValueRole = Qt::UserRole + 1;
// A QueueLevel (ui/widgets/queue_bar.hpp) for the cells QueueBarDelegate paints.
inline constexpr int kQueueLevelRole = Qt::UserRole + 2;

// How a column's cells are written.
enum class CellFormat {
    Text,  // a QString, shown as it is; left-aligned
    Count, // qulonglong, shown exact with digit grouping
    Rate,  // double, shown compact (97.1k)
    Fill,  // a QueueLevel for the bar (kQueueLevelRole); depth / capacity as the value, "N%" as text
};
// The foreground of a cell that is `flagged`.
enum class CellTone { Plain, Loss, Notice };

// One column, described once in a model's table (its kColumns): its header and tool tip, and how a
// row's cell is found and written.
template <typename Row> struct TableColumn {
    const char* header;                     // QT_TR_NOOP: translated by the model
    const char* help;                       // the header's and the cells' tool tip (QT_TR_NOOP)
    CellFormat format;
    QVariant (*value)(const Row&);          // kCellValueRole; Fill: the QueueLevel (kQueueLevelRole)
    QString (*text)(const Row&) = nullptr;  // Qt::DisplayRole when not the formatted value
    CellTone tone = CellTone::Plain;
    bool (*flagged)(const Row&) = nullptr;  // when the tone applies; nullptr: a count above 0
};

namespace detail {

QVariant cellAlignment(bool number);
// A value written in its format (Count, Rate; others as they are).
QVariant formattedCell(CellFormat format, const QVariant& value);
// A Fill cell (the value is a QueueLevel) for `role`.
QVariant fillCell(const QVariant& level, int role);
QVariant toneBrush(CellTone tone);

// What is needed to bring a list of rows keyed `before` to `after` with row removals and inserts.
struct SyncPlan {
    bool repeatedKey = false;    // `after` repeats a key: reset instead
    bool reorder = false;        // kept rows changed order (or keys repeat): moves needed
    std::vector<int> removals;   // rows of `before`, descending
    std::vector<int> insertions; // rows of `after`, ascending
};
[[nodiscard]] SyncPlan planSync(const std::vector<std::string>& before, const std::vector<std::string>& after);

template <typename Row> std::vector<std::string> keysOf(const std::vector<Row>& rows)
{
    std::vector<std::string> keys;
    keys.reserve(rows.size());
    for (const Row& row : rows)
        keys.push_back(row.key);
    return keys;
}

} // namespace detail

// A cell of `column` in `row` for every role but the tool tip (the models add their own details).
template <typename Row> QVariant cellData(const TableColumn<Row>& column, const Row& row, int role)
{
    if (role == Qt::TextAlignmentRole)
        return detail::cellAlignment(column.format != CellFormat::Text);
    if (column.format == CellFormat::Fill)
        return detail::fillCell(column.value(row), role);
    switch (role) {
    case kCellValueRole: return column.value(row);
    case Qt::DisplayRole:
        return column.text ? QVariant(column.text(row)) : detail::formattedCell(column.format, column.value(row));
    case Qt::ForegroundRole: {
        if (column.tone == CellTone::Plain)
            return {};
        const bool flagged = column.flagged ? column.flagged(row) : column.value(row).toULongLong() > 0;
        return flagged ? detail::toneBrush(column.tone) : QVariant();
    }
    default: return {};
    }
}

// Base of the flat tables: rows with a string key, brought up to date in place.
class KeyedTableModel : public QAbstractTableModel {
protected:
    using QAbstractTableModel::QAbstractTableModel;
    // Makes `rows` equal to `next` (Row: a `key` and operator==) with row removals, moves and inserts
    // for keys that vanished, changed places or appeared (a view's selection follows its rows), and one
    // dataChanged over the rows that changed; a model reset only if `next` repeats a key.
    template <typename Row> void syncRows(std::vector<Row>& rows, std::vector<Row> next);
};

// A flat table whose columns are described once (`columns`, translated in the context of the model's
// class): rowCount, columnCount, data and headerData are written here, once, for all.
template <typename Row> class ColumnTableModel : public KeyedTableModel {
public:
    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override
    {
        return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
    }
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override
    {
        return parent.isValid() ? 0 : static_cast<int>(m_columns.size());
    }
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    ColumnTableModel(const QMetaObject& model, std::span<const TableColumn<Row>> columns, QObject* parent)
        : KeyedTableModel(parent), m_model(model), m_columns(columns)
    {
    }
    // The operator's explanation of a column (header and cell tool tips).
    [[nodiscard]] QString help(int column) const
    {
        if (column < 0 || column >= columnCount())
            return {};
        return m_model.tr(m_columns[static_cast<std::size_t>(column)].help, nullptr);
    }
    // A cell's tool tip: the column's help, unless the model has more to say.
    [[nodiscard]] virtual QString cellToolTip(const Row&, int column) const { return help(column); }
    void setRows(std::vector<Row> rows) { syncRows(m_rows, std::move(rows)); }

    std::vector<Row> m_rows;

private:
    const QMetaObject& m_model;
    std::span<const TableColumn<Row>> m_columns;
};

// ---- templates ----

template <typename Row> void KeyedTableModel::syncRows(std::vector<Row>& rows, std::vector<Row> next)
{
    const detail::SyncPlan plan = detail::planSync(detail::keysOf(rows), detail::keysOf(next));
    if (plan.repeatedKey) {
        beginResetModel();
        rows = std::move(next);
        endResetModel();
        return;
    }
    for (const int r : plan.removals) {
        beginRemoveRows({}, r, r);
        rows.erase(rows.begin() + r);
        endRemoveRows();
    }
    // Row by row in the new order: a kept row that sits lower moves up to its place, a new one is
    // inserted there (a few hundred rows at most: the search is cheap).
    for (std::size_t i = 0; i < next.size(); ++i) {
        if (i < rows.size() && rows[i].key == next[i].key)
            continue;
        std::size_t j = i + 1;
        while (j < rows.size() && rows[j].key != next[i].key)
            ++j;
        const int to = static_cast<int>(i);
        if (j < rows.size()) {
            beginMoveRows({}, static_cast<int>(j), static_cast<int>(j), {}, to);
            std::rotate(rows.begin() + to, rows.begin() + static_cast<std::ptrdiff_t>(j),
                        rows.begin() + static_cast<std::ptrdiff_t>(j) + 1);
            endMoveRows();
        } else {
            beginInsertRows({}, to, to);
            rows.insert(rows.begin() + to, next[i]);
            endInsertRows();
        }
    }
    int first = -1;
    int last = -1;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (rows[i] == next[i])
            continue;
        rows[i] = std::move(next[i]);
        if (first < 0)
            first = static_cast<int>(i);
        last = static_cast<int>(i);
    }
    if (first >= 0)
        Q_EMIT dataChanged(index(first, 0), index(last, columnCount() - 1));
}

template <typename Row> QVariant ColumnTableModel<Row>::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    if (role == Qt::ToolTipRole)
        return cellToolTip(row, index.column());
    return cellData(m_columns[static_cast<std::size_t>(index.column())], row, role);
}

template <typename Row>
QVariant ColumnTableModel<Row>::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole)
        return help(section);
    if (role != Qt::DisplayRole || section < 0 || section >= columnCount())
        return {};
    return m_model.tr(m_columns[static_cast<std::size_t>(section)].header, nullptr);
}

} // namespace telestation::ui
