#include "ui/widgets/theme.h"

#include <QLabel>
#include <QPalette>
#include <cmath>

using namespace Qt::StringLiterals;

namespace berth::Theme {

namespace {
constexpr double kReadableContrast = 4.5; // WCAG AA for text
constexpr int kMaxSteps = 20;

// WCAG 2 relative luminance and contrast ratio.
double luminance(const QColor &colour)
{
    const auto linear
        = [](double value) { return value <= 0.03928 ? value / 12.92 : std::pow((value + 0.055) / 1.055, 2.4); };
    return 0.2126 * linear(colour.redF()) + 0.7152 * linear(colour.greenF()) + 0.0722 * linear(colour.blueF());
}

double contrast(const QColor &a, const QColor &b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor mixed(const QColor &from, const QColor &to, double share)
{
    return QColor::fromRgbF(float(from.redF() + (to.redF() - from.redF()) * share),
        float(from.greenF() + (to.greenF() - from.greenF()) * share),
        float(from.blueF() + (to.blueF() - from.blueF()) * share));
}
} // namespace

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

QColor linkColour(const QPalette &palette, QPalette::ColorRole background)
{
    const QColor back = palette.color(background);
    const QColor toward = luminance(back) < 0.5 ? QColor(Qt::white) : QColor(Qt::black);
    QColor link = palette.color(QPalette::Link);
    for (int step = 0; step < kMaxSteps && contrast(link, back) < kReadableContrast; ++step)
        link = mixed(link, toward, 0.1);
    return link;
}

QString linkHtml(const QString &url, const QPalette &palette, QPalette::ColorRole background)
{
    const QString escaped = url.toHtmlEscaped();
    return u"<a href=\"%1\" style=\"color: %2\">%1</a>"_s.arg(escaped, linkColour(palette, background).name());
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
