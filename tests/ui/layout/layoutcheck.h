#pragma once

#include <QColor>
#include <QSet>
#include <QString>
#include <QStringList>
#include <utility>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace berth::test {

// What a person sees wrong in a window without looking: texts that do not fit, mnemonics shown as '&', text too
// faint on its background, a dialog much larger than its content, widgets drawn over each other. Each finding is
// one line naming the widget ("objectName (Class)") and what is wrong with it, in logical pixels.
class LayoutCheck final
{
public:
    // A dialog may be this much larger than its content needs (its size hint, plus what its lists and text areas
    // could show if they grew) before it counts as oversized: the larger of kSlackPixels and kSlackPercent of the
    // hint, in each direction. Room for a user's resize or a style's rounding, not for an empty half of a window.
    static constexpr int kSlackPixels = 64;
    static constexpr int kSlackPercent = 20;
    // WCAG 2's minimum contrast for normal text (success criterion 1.4.3, level AA).
    static constexpr double kMinimumContrast = 4.5;

    // Columns whose cells elide by design, as (view objectName, column): a too-narrow cell there is no finding.
    void allowElided(const QString &viewName, int column) { m_elided.insert({viewName, column}); }

    // Every finding below in window and its visible descendants; oversized() only when window is a dialog.
    QStringList check(QWidget *window) const;

    QStringList clippedTexts(QWidget *root) const;
    static QStringList literalMnemonics(QWidget *root);
    static QStringList lowContrast(QWidget *root);
    static QStringList oversized(QWidget *dialog);
    static QStringList overlaps(QWidget *root);

    // WCAG 2's contrast ratio of two opaque colours, from 1 (none) to 21 (black on white).
    static double contrast(const QColor &a, const QColor &b);
    // "objectName (Class)", or the class and the start of its text when it has no name.
    static QString describe(const QWidget *widget);

private:
    QSet<std::pair<QString, int>> m_elided;
};

} // namespace berth::test
