#include "ui/text/number_format.hpp"

#include "core/stats/status_line.hpp"

#include <QLocale>

namespace telestation::ui {

QString countText(std::uint64_t value)
{
    return QLocale().toString(static_cast<qulonglong>(value));
}

QString compactText(double value)
{
    return QString::fromStdString(stats::formatCompact(value));
}

QString valueText(double value)
{
    return QString::number(value, 'g', 10);
}

} // namespace telestation::ui
