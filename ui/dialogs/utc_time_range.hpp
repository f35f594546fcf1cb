// A receive-time range of a recording as the recordings browser and its export dialog offer it: a
// check box "Only from", then "from" and "to" fields in UTC to the millisecond, both ends inclusive,
// nothing before 1970, the fields disabled while the box is off. The caller lays the three widgets out.
#pragma once

#include "core/record/recording_catalog.hpp"

#include <QDateTime>
#include <QObject>

#include <cstdint>
#include <vector>

class QCheckBox;
class QDateTimeEdit;
class QWidget;

namespace telestation::ui {

class UtcTimeRange : public QObject {
    Q_OBJECT

public:
    // The widgets are children of `parent`; the fields start at the current time.
    explicit UtcTimeRange(QWidget* parent);

    [[nodiscard]] QCheckBox* check() const noexcept { return m_check; }
    [[nodiscard]] QDateTimeEdit* from() const noexcept { return m_from; }
    [[nodiscard]] QDateTimeEdit* to() const noexcept { return m_to; }

    [[nodiscard]] bool isOn() const;
    // The fields in ns since 1970 (whole ms), whether or not the range is on.
    [[nodiscard]] std::int64_t fromNs() const;
    [[nodiscard]] std::int64_t toNs() const;
    // On, and "from" is after "to".
    [[nodiscard]] bool isBackwards() const;

    // The span of these segments' records: "from" down, "to" up to the ms, so that both stay inside;
    // nothing changes when they have no record.
    void setSpan(const std::vector<record::SegmentInfo>& segments);
    // Both fields, and the box.
    void set(bool on, const QDateTime& from, const QDateTime& to);

Q_SIGNALS:
    void changed(); // the box toggled or a field edited

private:
    QCheckBox* m_check = nullptr;
    QDateTimeEdit* m_from = nullptr;
    QDateTimeEdit* m_to = nullptr;
};

} // namespace telestation::ui
