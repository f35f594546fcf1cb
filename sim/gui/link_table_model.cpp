#include "sim/gui/link_table_model.hpp"

namespace telestation::sim::gui {

namespace {

// The report's tables name their rows in the first two columns (transport and size, size and gap…);
// the rest are figures, right-aligned as in its Markdown.
constexpr int kNameColumns = 2;

} // namespace

QStringList LinkTableModel::csvFields(const QString& line)
{
    QStringList fields;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted) {
            if (c != u'"')
                field += c;
            else if (i + 1 < line.size() && line[i + 1] == u'"')
                field += line[++i];
            else
                quoted = false;
        } else if (c == u'"') {
            quoted = true;
        } else if (c == u',') {
            fields << field;
            field.clear();
        } else {
            field += c;
        }
    }
    fields << field;
    return fields;
}

void LinkTableModel::setCsv(const std::string& csv)
{
    beginResetModel();
    m_headers.clear();
    m_rows.clear();
    // No field of the report's tables holds a line break, so a line is a row.
    const QStringList lines = QString::fromStdString(csv).split(u'\n', Qt::SkipEmptyParts);
    for (const QString& line : lines) {
        if (line.startsWith(u'#'))
            continue;
        if (m_headers.isEmpty())
            m_headers = csvFields(line);
        else
            m_rows.push_back(csvFields(line));
    }
    endResetModel();
}

void LinkTableModel::clear()
{
    beginResetModel();
    m_headers.clear();
    m_rows.clear();
    endResetModel();
}

int LinkTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int LinkTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_headers.size());
}

QVariant LinkTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    if (role == Qt::DisplayRole) {
        const QStringList& row = m_rows[static_cast<std::size_t>(index.row())];
        return index.column() < row.size() ? row[index.column()] : QString();
    }
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::AlignVCenter | (index.column() < kNameColumns ? Qt::AlignLeft : Qt::AlignRight));
    return {};
}

QVariant LinkTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal || section < 0 || section >= m_headers.size())
        return {};
    return m_headers[section];
}

} // namespace telestation::sim::gui
