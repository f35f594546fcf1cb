// Range…: a time range of the event archive to show or export, from and to in UTC (to the second),
// checked as they are changed: "from" must come before "to", else OK is disabled with the reason.
// Quick choices set the last hour, day or week up to now.
#pragma once

#include <QDialog>

#include <cstdint>

class QDateTimeEdit;
class QDialogButtonBox;
class QLabel;

namespace telestation::ui {

class EventRangeDialog : public QDialog {
    Q_OBJECT

public:
    // `title`: what the range is for ("Show events", "Export events").
    explicit EventRangeDialog(const QString& title, QWidget* parent = nullptr);

    // ns since the epoch; `to` is exclusive (EventFilter's toNs). Rounded to the second.
    void setRange(std::int64_t fromNs, std::int64_t toNs);
    [[nodiscard]] std::int64_t fromNs() const;
    [[nodiscard]] std::int64_t toNs() const;
    // Why OK is disabled ("" when it is not).
    [[nodiscard]] QString problem() const;

private:
    void validate();
    void setLast(std::int64_t seconds);

    QDateTimeEdit* m_from = nullptr;
    QDateTimeEdit* m_to = nullptr;
    QLabel* m_reason = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace telestation::ui
