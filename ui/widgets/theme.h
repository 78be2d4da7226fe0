#pragma once

#include <QColor>
#include <QString>

QT_BEGIN_NAMESPACE
class QLabel;
class QPalette;
QT_END_NAMESPACE

namespace berth {

// Colours for messages that must read well on light and dark palettes alike.
namespace Theme {

bool isDark(const QPalette &palette);
QColor errorColour(const QPalette &palette);
QColor successColour(const QPalette &palette);

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
