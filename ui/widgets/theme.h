#pragma once

#include <QColor>
#include <QPalette>
#include <QString>

QT_BEGIN_NAMESPACE
class QLabel;
QT_END_NAMESPACE

namespace berth {

// Colours for messages that must read well on light and dark palettes alike.
namespace Theme {

bool isDark(const QPalette &palette);
QColor errorColour(const QPalette &palette);
QColor successColour(const QPalette &palette);
// The palette's link colour, made lighter on a dark background (darker on a light one) until it reads on it: a
// WCAG contrast of at least 4.5:1.
QColor linkColour(const QPalette &palette, QPalette::ColorRole background);
// A link in rich text, in linkColour: a QLabel would colour it as the application's palette was when it was set.
QString linkHtml(const QString &url, const QPalette &palette, QPalette::ColorRole background);

enum class Tone
{
    Normal,
    Error,
    Success
};
// Sets the label's text colour for the tone from its current palette.
void setTone(QLabel *label, Tone tone);
// A dialog's message line: the text in the tone, shown when there is text.
void showMessage(QLabel *label, const QString &text, Tone tone);

} // namespace Theme
} // namespace berth
