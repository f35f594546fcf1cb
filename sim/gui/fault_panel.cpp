#include "sim/gui/fault_panel.hpp"

#include "sim/gui/gui_text.hpp"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QSignalBlocker>

#include <algorithm>
#include <iterator>

namespace telestation::sim::gui {

static_assert(std::size(kFaultKinds) == 6, "one row per fault kind");

FaultPanel::FaultPanel(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setColumnStretch(0, 1);
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const FaultKind& kind = kFaultKinds[i];
        const QString key = QString::fromLatin1(kind.key);
        Row& row = m_rows[i];
        row.check = new QCheckBox(tr(kind.label), this);
        row.check->setObjectName(key + QStringLiteral("Check"));
        row.check->setToolTip(tr(kind.help));
        row.percent = new QDoubleSpinBox(this);
        row.percent->setObjectName(key + QStringLiteral("Probability"));
        row.percent->setRange(0.001, 100.0);
        row.percent->setDecimals(3);
        row.percent->setSuffix(QStringLiteral(" %"));
        row.percent->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
        row.percent->setKeyboardTracking(false); // applied when typing is done, not per keystroke
        row.percent->setValue(kDefaultPercent);
        row.percent->setToolTip(tr("Probability per packet"));
        layout->addWidget(row.check, static_cast<int>(i), 0);
        layout->addWidget(row.percent, static_cast<int>(i), 1);
        connect(row.check, &QCheckBox::toggled, this, [this] {
            updateEnabled();
            emitFaults();
        });
        connect(row.percent, &QDoubleSpinBox::valueChanged, this, [this, i](double percent) {
            m_rows[i].probability = percent / 100.0;
            if (m_rows[i].check->isChecked())
                emitFaults();
        });
    }
    updateEnabled();
}

void FaultPanel::setFaults(const FaultConfig& faults, bool tcp)
{
    m_tcp = tcp;
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const double p = faults.*kFaultKinds[i].member;
        const QSignalBlocker blockCheck(m_rows[i].check);
        const QSignalBlocker blockPercent(m_rows[i].percent);
        m_rows[i].check->setChecked(p > 0);
        // An inactive fault keeps the probability last shown, for when it is switched on again.
        if (p > 0) {
            m_rows[i].probability = p; // the spin box shows it rounded
            m_rows[i].percent->setValue(std::clamp(p * 100.0, m_rows[i].percent->minimum(), 100.0));
        }
    }
    updateEnabled();
}

FaultConfig FaultPanel::faults() const
{
    FaultConfig faults;
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        // A TCP-only fault that a UDP stream's scenario sets is kept (the stream ignores it), so that
        // changing another fault does not rewrite the scenario.
        if (m_rows[i].check->isChecked())
            faults.*kFaultKinds[i].member = m_rows[i].probability;
    }
    return faults;
}

void FaultPanel::updateEnabled()
{
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const bool possible = m_tcp || !kFaultKinds[i].tcpOnly;
        m_rows[i].check->setEnabled(possible);
        m_rows[i].percent->setEnabled(possible && m_rows[i].check->isChecked());
        if (kFaultKinds[i].tcpOnly)
            m_rows[i].check->setToolTip(possible ? tr(kFaultKinds[i].help)
                                                 : tr("%1 (this stream is UDP)").arg(tr(kFaultKinds[i].help)));
    }
}

void FaultPanel::emitFaults()
{
    Q_EMIT faultsEdited(faults());
}

} // namespace telestation::sim::gui
