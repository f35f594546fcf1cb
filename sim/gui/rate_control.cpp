#include "sim/gui/rate_control.hpp"

#include "sim/gui/gui_text.hpp"

#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSlider>

#include <algorithm>
#include <cmath>

namespace telestation::sim::gui {

namespace {

// Rounds to `digits` significant digits, so that slider positions give round rates ("12kpps").
double roundSignificant(double value, int digits)
{
    if (!(value > 0))
        return value;
    const double magnitude = std::pow(10.0, std::floor(std::log10(value)) - (digits - 1));
    return magnitude >= 1 ? std::round(value / magnitude) * magnitude
                          : std::round(value / magnitude) / std::round(1.0 / magnitude);
}

} // namespace

RateControl::RateControl(QWidget* parent) : QWidget(parent)
{
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setObjectName(QStringLiteral("rateSlider"));
    m_slider->setRange(0, kSliderSteps);
    m_slider->setSingleStep(5);
    m_slider->setPageStep(100); // a decade
    m_slider->setTickPosition(QSlider::TicksBelow);
    m_slider->setTickInterval(100);
    m_slider->setTracking(false); // valueChanged when released: one setRate per gesture
    m_slider->setToolTip(tr("Packets per second on a logarithmic scale, 1 to 1,000,000"));

    m_edit = new QLineEdit(this);
    m_edit->setObjectName(QStringLiteral("rateEdit"));
    m_edit->setPlaceholderText(QStringLiteral("100pps, 2.5kpps, 25.6Mbps, flood"));
    m_edit->setToolTip(tr("A rate: 100pps, 2.5kpps, 25.6Mbps, 1.5Gbps, 9600bps, or flood (as fast as possible). "
                          "Return applies it."));
    m_edit->setMaximumWidth(130);

    m_hint = new QLabel(this);
    m_hint->setObjectName(QStringLiteral("rateHint"));
    m_hint->setWordWrap(true); // in the window's text colour: it is what the rate means, not a placeholder

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("rateError"));
    m_error->setWordWrap(true);
    QPalette errorPalette = m_error->palette();
    errorPalette.setColor(QPalette::WindowText, QColor(0xc0, 0x39, 0x2b));
    m_error->setPalette(errorPalette);
    m_error->hide();

    auto* low = new QLabel(tr("1 pps"), this);
    auto* high = new QLabel(tr("1 Mpps"), this);
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_edit, 0, 0);
    layout->addWidget(m_slider, 0, 1, 1, 3);
    layout->addWidget(low, 1, 1, Qt::AlignLeft);
    layout->addWidget(high, 1, 3, Qt::AlignRight);
    layout->addWidget(m_hint, 2, 0, 1, 4);
    layout->addWidget(m_error, 3, 0, 1, 4);
    layout->setColumnStretch(2, 1);

    connect(m_slider, &QSlider::sliderMoved, this, &RateControl::onSliderMoved);
    connect(m_slider, &QSlider::valueChanged, this, &RateControl::onSliderValueChanged);
    connect(m_edit, &QLineEdit::textEdited, this, &RateControl::onTextEdited);
    connect(m_edit, &QLineEdit::editingFinished, this, &RateControl::onEditingFinished);
}

double RateControl::packetsPerSecondAt(int position)
{
    const int clamped = std::clamp(position, 0, kSliderSteps);
    return roundSignificant(std::pow(10.0, double(clamped) / 100.0), 2);
}

int RateControl::positionFor(double packetsPerSecond)
{
    if (!(packetsPerSecond > 1))
        return 0;
    return std::clamp(static_cast<int>(std::lround(std::log10(packetsPerSecond) * 100.0)), 0, kSliderSteps);
}

void RateControl::setRate(const Rate& rate, double averagePacketBytes)
{
    m_rate = rate;
    m_averagePacketBytes = averagePacketBytes;
    m_edit->setText(QString::fromStdString(toString(rate)));
    m_error->hide();
    showSlider(rate);
    showHint(rate);
}

Rate RateControl::rateAtSliderPosition(int position) const
{
    const double pps = packetsPerSecondAt(position);
    // A bit rate stays a bit rate: the slider moves it along the same packets/s scale.
    if (m_rate.unit == Rate::Unit::BitsPerSecond && m_averagePacketBytes > 0)
        return Rate{Rate::Unit::BitsPerSecond, roundSignificant(pps * 8.0 * m_averagePacketBytes, 3)};
    return Rate{Rate::Unit::PacketsPerSecond, pps};
}

void RateControl::showSlider(const Rate& rate)
{
    const int position = rate.unit == Rate::Unit::Flood ? kSliderSteps : positionFor(rate.packetsPerSecond(m_averagePacketBytes));
    const QSignalBlocker blocker(m_slider);
    m_slider->setValue(position);
}

void RateControl::showHint(const Rate& rate)
{
    if (rate.unit == Rate::Unit::Flood) {
        m_hint->setText(tr("As fast as the destination takes them"));
        return;
    }
    const double pps = rate.packetsPerSecond(m_averagePacketBytes);
    const double bps = pps * 8.0 * m_averagePacketBytes;
    const QString bytes = QLocale().toString(m_averagePacketBytes, 'f', m_averagePacketBytes == std::floor(m_averagePacketBytes) ? 0 : 1);
    m_hint->setText(tr("≈ %1 packets/s, %2 Mbit/s (%3 bytes per packet on average)")
                        .arg(formatPacketRate(pps), formatMegabits(bps), bytes));
}

void RateControl::onSliderMoved(int position)
{
    // While dragging: preview only; the rate applies when the slider is released.
    const Rate preview = rateAtSliderPosition(position);
    m_edit->setText(QString::fromStdString(toString(preview)));
    m_error->hide();
    showHint(preview);
}

void RateControl::onSliderValueChanged(int position)
{
    commit(rateAtSliderPosition(position));
}

void RateControl::onTextEdited(const QString& text)
{
    const auto parsed = parseRate(text.trimmed().toStdString());
    if (parsed) {
        m_error->hide();
        showHint(*parsed);
        return;
    }
    m_error->setText(QString::fromStdString(parsed.error().message));
    m_error->show();
}

void RateControl::onEditingFinished()
{
    const auto parsed = parseRate(m_edit->text().trimmed().toStdString());
    if (!parsed) {
        // Kept as typed, so that the operator can correct it; the stream keeps its rate.
        m_error->setText(QString::fromStdString(parsed.error().message));
        m_error->show();
        return;
    }
    commit(*parsed);
}

void RateControl::commit(const Rate& rate)
{
    const bool changed = !(rate == m_rate);
    m_rate = rate;
    m_edit->setText(QString::fromStdString(toString(rate)));
    m_error->hide();
    showSlider(rate);
    showHint(rate);
    if (changed)
        Q_EMIT rateEdited(rate);
}

} // namespace telestation::sim::gui
