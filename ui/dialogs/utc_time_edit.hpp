// The time fields of a recording's receive-time range — the recordings browser's "Only from … to"
// and its export dialog's: UTC, to the millisecond, inclusive at both ends, nothing before 1970.
#pragma once

#include <QDateTime>
#include <QDateTimeEdit>
#include <QString>

namespace telestation::ui {

[[nodiscard]] inline QDateTimeEdit* newUtcTimeEdit(QWidget* parent, const QString& objectName)
{
    auto* edit = new QDateTimeEdit(parent);
    edit->setObjectName(objectName);
    edit->setTimeSpec(Qt::UTC);
    edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
    edit->setMinimumDateTime(QDateTime::fromMSecsSinceEpoch(0, Qt::UTC));
    return edit;
}

} // namespace telestation::ui
