#include "ui/models/parameter_choice_model.hpp"

#include <QSet>

namespace telestation::ui {

ParameterChoiceModel::ParameterChoiceModel(MissionTreeModel* tree, QObject* parent)
    : QIdentityProxyModel(parent), m_tree(tree)
{
    setSourceModel(tree);
    connect(tree, &QAbstractItemModel::modelReset, this, &ParameterChoiceModel::resetChecks);
    resetChecks();
}

void ParameterChoiceModel::resetChecks()
{
    m_checked.clear();
    m_checkedPerPacket.clear();
    m_count = 0;
    if (const mdb::MissionDatabase* db = m_tree->database()) {
        for (const auto& packet : db->packets)
            m_checked.emplace_back(packet.parameters.size(), 0);
        m_checkedPerPacket.assign(db->packets.size(), 0);
    }
    Q_EMIT chosenChanged();
}

std::pair<int, int> ParameterChoiceModel::rows(const QModelIndex& index)
{
    const QModelIndex parent = index.parent();
    return parent.isValid() ? std::pair{parent.row(), index.row()} : std::pair{index.row(), -1};
}

QVariant ParameterChoiceModel::data(const QModelIndex& index, int role) const
{
    if (role != Qt::CheckStateRole || index.column() != MissionTreeModel::Name || !index.isValid())
        return QIdentityProxyModel::data(index, role);
    const auto [packet, parameter] = rows(index);
    if (packet < 0 || static_cast<std::size_t>(packet) >= m_checked.size())
        return {};
    const auto& checked = m_checked[static_cast<std::size_t>(packet)];
    if (parameter >= static_cast<int>(checked.size()))
        return {}; // asked while the tree is being reset to another database
    if (parameter >= 0)
        return checked[static_cast<std::size_t>(parameter)] ? Qt::Checked : Qt::Unchecked;
    if (checked.empty())
        return {}; // a packet without parameters has nothing to choose
    const int n = m_checkedPerPacket[static_cast<std::size_t>(packet)];
    return n == 0 ? Qt::Unchecked : n == static_cast<int>(checked.size()) ? Qt::Checked : Qt::PartiallyChecked;
}

bool ParameterChoiceModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::CheckStateRole || index.column() != MissionTreeModel::Name || !index.isValid())
        return QIdentityProxyModel::setData(index, value, role);
    setChecked(index, value.toInt() == Qt::Checked);
    return true;
}

Qt::ItemFlags ParameterChoiceModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QIdentityProxyModel::flags(index);
    if (index.column() == MissionTreeModel::Name && data(index, Qt::CheckStateRole).isValid())
        f |= Qt::ItemIsUserCheckable;
    return f;
}

bool ParameterChoiceModel::setParameter(int packet, int parameter, bool checked)
{
    auto& box = m_checked[static_cast<std::size_t>(packet)][static_cast<std::size_t>(parameter)];
    if (box == (checked ? 1 : 0))
        return false;
    box = checked ? 1 : 0;
    const int step = checked ? 1 : -1;
    m_checkedPerPacket[static_cast<std::size_t>(packet)] += step;
    m_count += step;
    return true;
}

void ParameterChoiceModel::setChecked(const QModelIndex& index, bool checked)
{
    const auto [packet, parameter] = rows(index);
    if (packet < 0 || static_cast<std::size_t>(packet) >= m_checked.size())
        return;
    const int parameters = static_cast<int>(m_checked[static_cast<std::size_t>(packet)].size());
    if (parameter >= parameters)
        return;
    const int before = m_count;
    const QModelIndex packetIndex = this->index(packet, MissionTreeModel::Name);
    if (parameter >= 0) {
        setParameter(packet, parameter, checked);
        const QModelIndex row = this->index(parameter, MissionTreeModel::Name, packetIndex);
        Q_EMIT dataChanged(row, row, {Qt::CheckStateRole});
    } else {
        for (int q = 0; q < parameters; ++q)
            setParameter(packet, q, checked);
        if (parameters > 0)
            Q_EMIT dataChanged(this->index(0, MissionTreeModel::Name, packetIndex),
                               this->index(parameters - 1, MissionTreeModel::Name, packetIndex), {Qt::CheckStateRole});
    }
    Q_EMIT dataChanged(packetIndex, packetIndex, {Qt::CheckStateRole});
    if (m_count != before)
        Q_EMIT chosenChanged();
}

QStringList ParameterChoiceModel::chosen() const
{
    QStringList names;
    const mdb::MissionDatabase* db = m_tree->database();
    if (db == nullptr)
        return names;
    names.reserve(m_count);
    for (std::size_t p = 0; p < m_checked.size(); ++p)
        for (std::size_t q = 0; q < m_checked[p].size(); ++q)
            if (m_checked[p][q])
                names << QString::fromStdString(db->packets[p].name + '.' + db->packets[p].parameters[q].name);
    return names;
}

void ParameterChoiceModel::setChosen(const QStringList& names)
{
    const mdb::MissionDatabase* db = m_tree->database();
    if (db == nullptr)
        return;
    const QSet<QString> wanted(names.begin(), names.end());
    bool changed = false;
    for (std::size_t p = 0; p < m_checked.size(); ++p) {
        for (std::size_t q = 0; q < m_checked[p].size(); ++q) {
            const std::string name = db->packets[p].name + '.' + db->packets[p].parameters[q].name;
            changed = setParameter(static_cast<int>(p), static_cast<int>(q), wanted.contains(QString::fromStdString(name)))
                || changed;
        }
        const QModelIndex packetIndex = index(static_cast<int>(p), MissionTreeModel::Name);
        if (!m_checked[p].empty())
            Q_EMIT dataChanged(index(0, MissionTreeModel::Name, packetIndex),
                               index(static_cast<int>(m_checked[p].size()) - 1, MissionTreeModel::Name, packetIndex),
                               {Qt::CheckStateRole});
        Q_EMIT dataChanged(packetIndex, packetIndex, {Qt::CheckStateRole});
    }
    if (changed)
        Q_EMIT chosenChanged();
}

} // namespace telestation::ui
