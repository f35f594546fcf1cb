#include "ui/widgets/window_capture.hpp"

#include <QCoreApplication>
#include <QPixmap>
#include <QTimer>
#include <QWidget>

#include <cstdio>

namespace telestation::ui {

void closeLater(QWidget& window, int delayMs, const QString& pngPath)
{
    QTimer::singleShot(delayMs, &window, [&window, pngPath] {
        if (!pngPath.isEmpty() && !window.grab().save(pngPath, "PNG")) {
            std::fprintf(stderr, "cannot write screenshot %s\n", qPrintable(pngPath));
            QCoreApplication::exit(1);
            return;
        }
        window.close();
    });
}

} // namespace telestation::ui
