// LayoutCheck::lowContrast: the colours each widget draws its text in, from its palette (and, in rich text, the
// colours the markup names and the palette's link colour), against the background actually behind it.
#include "layoutcheck.h"
#include "shownwidgets.h"

#include <QAbstractItemView>
#include <QCheckBox>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QTabBar>
#include <QToolButton>
#include <cmath>

using namespace Qt::StringLiterals;

namespace berth::test {

namespace {

double channel(double value)
{
    return value <= 0.03928 ? value / 12.92 : std::pow((value + 0.055) / 1.055, 2.4);
}

double luminance(const QColor &colour)
{
    const QColor rgb = colour.toRgb();
    return 0.2126 * channel(rgb.redF()) + 0.7152 * channel(rgb.greenF()) + 0.0722 * channel(rgb.blueF());
}

// The colour painted behind widget: its own background when it fills it, else the nearest ancestor's that does.
QColor backgroundOf(const QWidget *widget)
{
    for (const QWidget *at = widget; at; at = at->parentWidget()) {
        if (at->autoFillBackground() || at->isWindow())
            return at->palette().color(QPalette::Active, at->backgroundRole());
    }
    return widget->palette().color(QPalette::Active, QPalette::Window);
}

// The text colours of rich text: each colour the markup names, and the palette's link colour for a link without one.
QList<QColor> richTextColours(const QLabel *label)
{
    QList<QColor> colours {label->palette().color(QPalette::Active, label->foregroundRole())};
    static const QRegularExpression named(uR"(color\s*[:=]\s*["']?\s*(#[0-9a-fA-F]{3,8}|[a-zA-Z]+))"_s);
    for (const auto &match : named.globalMatch(label->text()))
        colours.append(QColor::fromString(match.captured(1)));
    static const QRegularExpression anchor(uR"(<a\s[^>]*>)"_s, QRegularExpression::CaseInsensitiveOption);
    for (const auto &match : anchor.globalMatch(label->text())) {
        if (!match.captured(0).contains(u"color"_s, Qt::CaseInsensitive))
            colours.append(label->palette().color(QPalette::Active, QPalette::Link));
    }
    return colours;
}

void compare(
    const QWidget *widget, const QString &what, const QColor &text, const QColor &background, QStringList &found)
{
    if (!text.isValid() || !background.isValid())
        return;
    const double ratio = LayoutCheck::contrast(text, background);
    if (ratio < LayoutCheck::kMinimumContrast)
        found.append(
            u"%1: %2 %3 on %4 has contrast %5:1, below %6:1"_s.arg(LayoutCheck::describe(widget), what, text.name(),
                background.name(), QString::number(ratio, 'f', 2), QString::number(LayoutCheck::kMinimumContrast)));
}

void checkCells(const QAbstractItemView *view, QStringList &found)
{
    const QAbstractItemModel *model = view->model();
    if (!model)
        return;
    const QPalette palette = view->palette();
    constexpr int kRowsChecked = 50;
    for (int row = 0; row < qMin(model->rowCount(), kRowsChecked); ++row) {
        const bool alternate = view->alternatingRowColors() && row % 2 == 1;
        const bool selected = view->selectionModel() && view->selectionModel()->isRowSelected(row);
        for (int column = 0; column < model->columnCount(); ++column) {
            const QModelIndex index = model->index(row, column);
            if (index.data().toString().isEmpty())
                continue;
            QColor text = palette.color(QPalette::Active, selected ? QPalette::HighlightedText : QPalette::Text);
            QColor background = palette.color(QPalette::Active,
                selected ? QPalette::Highlight : (alternate ? QPalette::AlternateBase : QPalette::Base));
            if (const QVariant brush = index.data(Qt::ForegroundRole); brush.isValid() && !selected)
                text = brush.value<QBrush>().color();
            if (const QVariant brush = index.data(Qt::BackgroundRole); brush.isValid() && !selected)
                background = brush.value<QBrush>().color();
            compare(view, u"cell (%1, %2)"_s.arg(row).arg(column), text, background, found);
        }
    }
}

} // namespace

double LayoutCheck::contrast(const QColor &a, const QColor &b)
{
    const double first = luminance(a);
    const double second = luminance(b);
    return (qMax(first, second) + 0.05) / (qMin(first, second) + 0.05);
}

QStringList LayoutCheck::lowContrast(QWidget *root)
{
    QStringList found;
    for (QWidget *widget : shownWidgets(root)) {
        if (!widget->isEnabled())
            continue; // WCAG asks nothing of inactive controls
        const QPalette palette = widget->palette();
        const QColor foreground = palette.color(QPalette::Active, widget->foregroundRole());
        if (auto *label = qobject_cast<QLabel *>(widget); label && !label->text().isEmpty()) {
            const bool rich = label->textFormat() == Qt::RichText
                || (label->textFormat() == Qt::AutoText && Qt::mightBeRichText(label->text()));
            const QList<QColor> colours = rich ? richTextColours(label) : QList<QColor> {foreground};
            for (const QColor &colour : colours)
                compare(label, u"text"_s, colour, backgroundOf(label), found);
        } else if (qobject_cast<QPushButton *>(widget) && !static_cast<QPushButton *>(widget)->isFlat()) {
            compare(widget, u"button text"_s, foreground, palette.color(QPalette::Active, QPalette::Button), found);
        } else if (qobject_cast<QAbstractButton *>(widget) || qobject_cast<QGroupBox *>(widget)
            || qobject_cast<QTabBar *>(widget)) {
            compare(widget, u"text"_s, foreground, backgroundOf(widget), found);
        } else if (qobject_cast<QHeaderView *>(widget)) {
            compare(widget, u"header text"_s, palette.color(QPalette::Active, QPalette::ButtonText),
                palette.color(QPalette::Active, QPalette::Button), found);
        } else if (auto *edit = qobject_cast<QLineEdit *>(widget); edit && !edit->text().isEmpty()) {
            compare(edit, u"text"_s, palette.color(QPalette::Active, QPalette::Text),
                palette.color(QPalette::Active, QPalette::Base), found);
        } else if (auto *view = qobject_cast<QAbstractItemView *>(widget)) {
            checkCells(view, found);
        }
    }
    return found;
}

} // namespace berth::test
