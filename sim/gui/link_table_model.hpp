// One link test's table in the link test window: the cells of the report's CSV file for the test
// (link::toCsvFiles), so that the table's columns are laid out once, in core/link/link_report.cpp.
#pragma once

#include <QAbstractTableModel>
#include <QStringList>

#include <string>
#include <vector>

namespace telestation::sim::gui {

class LinkTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    using QAbstractTableModel::QAbstractTableModel;

    // Replaces the table with a CSV file's: '#' lines are comments, the first other line the headers.
    void setCsv(const std::string& csv);
    void clear();

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // One CSV line's fields (quoted fields with "" for a quote, as link::toCsvFiles writes them).
    [[nodiscard]] static QStringList csvFields(const QString& line);

private:
    QStringList m_headers;
    std::vector<QStringList> m_rows;
};

} // namespace telestation::sim::gui
