#include "ui/plotting/hideable_curve.hpp"

#include <QColor>
#include <QFont>

#include <qwt_legend_data.h>
#include <qwt_text.h>

namespace telestation::ui {

namespace {

const QColor kHiddenTextColor(0x80, 0x86, 0x90);

} // namespace

void HideableCurve::setShown(bool shown)
{
    if (shown == isVisible())
        return;
    setVisible(shown);
    legendChanged();
}

QList<QwtLegendData> HideableCurve::legendData() const
{
    QList<QwtLegendData> entries = QwtPlotCurve::legendData();
    if (isVisible())
        return entries;
    for (QwtLegendData& entry : entries) {
        QwtText title = entry.title();
        QFont font = title.font();
        font.setStrikeOut(true);
        title.setFont(font);
        title.setColor(kHiddenTextColor);
        entry.setValue(QwtLegendData::TitleRole, QVariant::fromValue(title));
    }
    return entries;
}

} // namespace telestation::ui
