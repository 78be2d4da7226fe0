#include "ui/widgets/theme.h"

#include <QLabel>
#include <QPalette>

namespace berth::Theme {

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

QColor errorColour(const QPalette &palette)
{
    return isDark(palette) ? QColor(0xef, 0x9a, 0x9a) : QColor(0xb7, 0x1c, 0x1c);
}

QColor successColour(const QPalette &palette)
{
    return isDark(palette) ? QColor(0xa5, 0xd6, 0xa7) : QColor(0x1b, 0x5e, 0x20);
}

void setTone(QLabel *label, Tone tone)
{
    QPalette palette = label->parentWidget() ? label->parentWidget()->palette() : label->palette();
    switch (tone) {
    case Tone::Error:
        palette.setColor(QPalette::WindowText, errorColour(palette));
        break;
    case Tone::Success:
        palette.setColor(QPalette::WindowText, successColour(palette));
        break;
    case Tone::Normal:
        break;
    }
    label->setPalette(palette);
}

void showMessage(QLabel *label, const QString &text, Tone tone)
{
    label->setText(text);
    setTone(label, tone);
    label->setVisible(!text.isEmpty());
}

} // namespace berth::Theme
