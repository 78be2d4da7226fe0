// LayoutCheck::clippedTexts: each kind of text is measured the way its widget lays it out, with the widget's own
// font and style, against the room the widget has now.
#include "layoutcheck.h"
#include "shownwidgets.h"

#include <QAbstractItemView>
#include <QCheckBox>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QStyle>
#include <QStyleOption>
#include <QTabBar>
#include <QTextDocument>
#include <QToolButton>
#include <functional>

using namespace Qt::StringLiterals;

namespace berth::test {

namespace {

// The text as drawn: "&&" is one ampersand, "&x" underlines x.
QString shownText(const QString &text)
{
    QString shown;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text.at(i) == u'&' && i + 1 < text.size())
            ++i;
        shown += text.at(i);
    }
    return shown;
}

int textWidth(const QFontMetrics &metrics, const QString &text)
{
    return metrics.boundingRect(QRect(0, 0, 100'000, 100'000), Qt::TextExpandTabs, text).width();
}

QString finding(const QWidget *widget, const QString &text, const QString &what)
{
    return u"%1: \"%2\" does not fit: %3"_s.arg(LayoutCheck::describe(widget), text.left(60), what);
}

void checkLabel(const QLabel *label, QStringList &found)
{
    const QString text = label->text();
    if (text.isEmpty())
        return; // a picture
    const bool rich
        = label->textFormat() == Qt::RichText || (label->textFormat() == Qt::AutoText && Qt::mightBeRichText(text));
    if (label->wordWrap() || rich) {
        // QLabel's own layout: the height it needs at its width, and the longest line it cannot break.
        const int height = label->heightForWidth(label->width());
        if (height > label->height())
            found.append(finding(label, text,
                u"needs %1 px of height at width %2, has %3"_s.arg(height).arg(label->width()).arg(label->height())));
        const int width = label->wordWrap() ? label->minimumSizeHint().width() : label->sizeHint().width();
        if (width > label->width())
            found.append(finding(label, text, u"needs %1 px of width, has %2"_s.arg(width).arg(label->width())));
        return;
    }
    const QRect room
        = label->contentsRect().adjusted(label->margin(), label->margin(), -label->margin(), -label->margin());
    const QFontMetrics metrics(label->font());
    const QString shown = label->buddy() ? shownText(text) : text;
    const QRect needed
        = metrics.boundingRect(QRect(0, 0, 100'000, 100'000), Qt::TextExpandTabs | label->alignment(), shown);
    const int indent = qMax(0, label->indent());
    if (needed.width() + indent > room.width() || needed.height() > room.height())
        found.append(finding(label, text,
            u"needs %1×%2 px, has %3×%4"_s.arg(needed.width() + indent)
                .arg(needed.height())
                .arg(room.width())
                .arg(room.height())));
}

// The style's margins around a button's content, measured at a width where no minimum width applies.
int contentMargin(const QWidget *widget, QStyle::ContentsType type, const QStyleOption &option)
{
    constexpr int kWide = 10'000;
    const QSize content(kWide, option.fontMetrics.height());
    return widget->style()->sizeFromContents(type, &option, content, widget).width() - kWide;
}

void checkButton(const QAbstractButton *button, QStringList &found)
{
    const QString text = button->text();
    if (text.isEmpty())
        return;
    QStyleOptionButton option;
    option.initFrom(button);
    option.text = text;
    option.icon = button->icon();
    option.iconSize = button->iconSize();
    const int icon = button->icon().isNull() ? 0 : button->iconSize().width() + 4;
    int needed = textWidth(button->fontMetrics(), shownText(text)) + icon;
    if (qobject_cast<const QPushButton *>(button))
        needed += contentMargin(button, QStyle::CT_PushButton, option);
    else if (qobject_cast<const QCheckBox *>(button))
        needed += contentMargin(button, QStyle::CT_CheckBox, option);
    else if (qobject_cast<const QRadioButton *>(button))
        needed += contentMargin(button, QStyle::CT_RadioButton, option);
    else if (auto *tool = qobject_cast<const QToolButton *>(button); tool) {
        if (tool->toolButtonStyle() == Qt::ToolButtonIconOnly)
            return;
        needed = tool->sizeHint().width(); // QToolButton sets no minimum width: its hint is its content
    }
    if (needed > button->width())
        found.append(finding(button, text, u"needs %1 px of width, has %2"_s.arg(needed).arg(button->width())));
}

void checkGroupBox(const QGroupBox *box, QStringList &found)
{
    if (box->title().isEmpty())
        return;
    const int checkBox = box->isCheckable() ? box->style()->pixelMetric(QStyle::PM_IndicatorWidth) + 6 : 0;
    const int needed = textWidth(box->fontMetrics(), shownText(box->title())) + checkBox + 8;
    if (needed > box->width())
        found.append(finding(box, box->title(), u"needs %1 px of width, has %2"_s.arg(needed).arg(box->width())));
}

void checkTabs(const QTabBar *bar, QStringList &found)
{
    const int space = bar->style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, bar);
    for (int i = 0; i < bar->count(); ++i) {
        if (!bar->isTabVisible(i))
            continue;
        const QRect tab = bar->tabRect(i);
        const int icon = bar->tabIcon(i).isNull() ? 0 : bar->iconSize().width() + 4;
        const int needed = textWidth(bar->fontMetrics(), shownText(bar->tabText(i))) + icon + space;
        if (needed > tab.width() || !bar->rect().contains(tab))
            found.append(finding(bar, bar->tabText(i),
                u"tab %1 needs %2 px of width, has %3 (%4 px shown)"_s.arg(i)
                    .arg(needed)
                    .arg(tab.width())
                    .arg(bar->rect().intersected(tab).width())));
    }
}

void checkHeader(const QHeaderView *header, QStringList &found)
{
    if (!header->model())
        return;
    if (header->orientation() == Qt::Vertical) {
        // Row headings (a plan's name) share one width: the widest one's.
        if (header->sizeHint().width() > header->width())
            found.append(finding(header, header->model()->headerData(0, Qt::Vertical).toString(),
                u"row headings need %1 px of width, have %2"_s.arg(header->sizeHint().width()).arg(header->width())));
        return;
    }
    const int indicator = header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header) + header->height();
    for (int logical = 0; logical < header->count(); ++logical) {
        if (header->isSectionHidden(logical))
            continue;
        const QString text = header->model()->headerData(logical, Qt::Horizontal).toString();
        // The hint reserves a sort arrow in every section; only the sorted one draws it.
        int needed = header->sectionSizeHint(logical);
        if (header->isSortIndicatorShown() && header->sortIndicatorSection() != logical)
            needed -= indicator;
        if (!text.isEmpty() && needed > header->sectionSize(logical))
            found.append(finding(header, text,
                u"column %1 needs %2 px of width, has %3"_s.arg(logical).arg(needed).arg(
                    header->sectionSize(logical))));
    }
}

// QListView, QTableView and QTreeView each have the property; QAbstractItemView has none.
bool wrapsWords(const QAbstractItemView *view)
{
    return view->property("wordWrap").toBool();
}

QStyleOptionViewItem itemOption(const QAbstractItemView *view, const QModelIndex &index)
{
    QStyleOptionViewItem option;
    option.initFrom(view->viewport());
    option.widget = view;
    option.font = view->font();
    option.fontMetrics = view->fontMetrics();
    option.rect = view->visualRect(index);
    const int iconSize = view->style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, view);
    option.decorationSize = view->iconSize().isValid() ? view->iconSize() : QSize(iconSize, iconSize);
    option.showDecorationSelected = true;
    if (wrapsWords(view))
        option.features |= QStyleOptionViewItem::WrapText;
    option.textElideMode = view->textElideMode();
    return option;
}

void checkCells(const QAbstractItemView *view, const std::function<bool(int)> &elides, QStringList &found)
{
    const QAbstractItemModel *model = view->model();
    if (!model || !view->itemDelegate())
        return;
    constexpr int kRowsChecked = 200;
    const QRect viewport = view->viewport()->rect();
    for (int row = 0; row < qMin(model->rowCount(), kRowsChecked); ++row) {
        for (int column = 0; column < model->columnCount(); ++column) {
            const QModelIndex index = model->index(row, column);
            const QString text = index.data().toString();
            QStyleOptionViewItem option = itemOption(view, index);
            if (text.isEmpty() || option.rect.isEmpty() || !viewport.intersects(option.rect) || elides(column))
                continue;
            const QSize needed = view->itemDelegate()->sizeHint(option, index);
            // A wrapping cell fits when its lines do: none wider than the cell (a word it cannot break), none below it.
            if (needed.width() > option.rect.width() || (wrapsWords(view) && needed.height() > option.rect.height()))
                found.append(finding(view, text,
                    u"cell (%1, %2) needs %3×%4 px, has %5×%6"_s.arg(row)
                        .arg(column)
                        .arg(needed.width())
                        .arg(needed.height())
                        .arg(option.rect.width())
                        .arg(option.rect.height())));
        }
    }
}

} // namespace

QStringList LayoutCheck::clippedTexts(QWidget *root) const
{
    QStringList found;
    for (QWidget *widget : shownWidgets(root)) {
        if (auto *label = qobject_cast<QLabel *>(widget))
            checkLabel(label, found);
        else if (auto *button = qobject_cast<QAbstractButton *>(widget))
            checkButton(button, found);
        else if (auto *box = qobject_cast<QGroupBox *>(widget))
            checkGroupBox(box, found);
        else if (auto *bar = qobject_cast<QTabBar *>(widget))
            checkTabs(bar, found);
        else if (auto *header = qobject_cast<QHeaderView *>(widget))
            checkHeader(header, found);
        else if (auto *view = qobject_cast<QAbstractItemView *>(widget)) {
            const QString name = view->objectName();
            checkCells(
                view,
                [&](int column) {
                    return m_elided.contains({name, column});
                },
                found);
        }
    }
    return found;
}

} // namespace berth::test
