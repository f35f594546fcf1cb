// ParameterChoiceModel: the mission tree (MissionTreeModel) with a check box in the name column of
// every row, for choosing parameters (the recordings browser's export). A parameter's box is its own;
// a packet's box stands for all of its parameters: checked when all are, partly when some are, and
// checking it checks them all. chosen() lists the checked parameters as "PACKET.PARAMETER".
#pragma once

#include "ui/models/mission_tree_model.hpp"

#include <QIdentityProxyModel>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace telestation::ui {

class ParameterChoiceModel : public QIdentityProxyModel {
    Q_OBJECT

public:
    // Shows `tree` (which must outlive this model); a reset of `tree` (another database) unchecks all.
    explicit ParameterChoiceModel(MissionTreeModel* tree, QObject* parent = nullptr);

    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    [[nodiscard]] Qt::ItemFlags flags(const QModelIndex& index) const override;

    // A packet row (all of its parameters) or a parameter row of this model, checked or not.
    void setChecked(const QModelIndex& index, bool checked);
    // The checked parameters, "PACKET.PARAMETER", in definition order.
    [[nodiscard]] QStringList chosen() const;
    [[nodiscard]] int chosenCount() const noexcept { return m_count; }
    // Checks these names (and unchecks the rest); names the database does not have are left out.
    void setChosen(const QStringList& names);

Q_SIGNALS:
    void chosenChanged();

private:
    void resetChecks();
    // The (packet, parameter) rows of an index of this model; parameter -1 for a packet row.
    [[nodiscard]] static std::pair<int, int> rows(const QModelIndex& index);
    bool setParameter(int packet, int parameter, bool checked); // true when it changed

    MissionTreeModel* m_tree;
    std::vector<std::vector<std::uint8_t>> m_checked; // per packet, per parameter
    std::vector<int> m_checkedPerPacket;
    int m_count = 0;
};

} // namespace telestation::ui
