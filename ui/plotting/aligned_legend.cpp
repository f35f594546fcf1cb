#include "ui/plotting/aligned_legend.hpp"

#include <algorithm>

namespace telestation::ui {

QSize AlignedLegend::sizeHint() const
{
    QSize hint = QwtLegend::sizeHint();
    hint.setWidth(std::max(hint.width(), m_width));
    return hint;
}

} // namespace telestation::ui
