#include "sim/gui/gui_text.hpp"

#include <QLocale>
#include <QStringList>

#include <cmath>

namespace telestation::sim::gui {

QString formatCount(std::uint64_t n)
{
    return QLocale().toString(static_cast<qulonglong>(n));
}

QString formatMegabits(double bitsPerSecond)
{
    const double mbps = bitsPerSecond / 1e6;
    if (!(mbps > 0))
        return QStringLiteral("0");
    // Enough decimals for three significant digits, at most four decimals.
    const int decimals = mbps >= 100 ? 0 : mbps >= 10 ? 1 : mbps >= 1 ? 2 : mbps >= 0.1 ? 3 : 4;
    return QLocale().toString(mbps, 'f', decimals);
}

QString formatPacketRate(double packetsPerSecond)
{
    if (!(packetsPerSecond > 0))
        return QStringLiteral("0");
    if (packetsPerSecond < 100)
        return QLocale().toString(packetsPerSecond, 'f', 1);
    return QLocale().toString(std::llround(packetsPerSecond));
}

QString formatPercent(double probability)
{
    // 'g' with enough precision drops trailing zeros: 1%, 0.5%, 0.025%.
    return QLocale().toString(probability * 100.0, 'g', 4) + QStringLiteral("%");
}

QString faultSummary(const FaultConfig& faults)
{
    QStringList parts;
    for (const FaultKind& kind : kFaultKinds) {
        const double p = faults.*kind.member;
        if (p > 0)
            parts << QStringLiteral("%1 %2").arg(QString::fromLatin1(kind.label).toLower(), formatPercent(p));
    }
    return parts.join(QStringLiteral(", "));
}

} // namespace telestation::sim::gui
