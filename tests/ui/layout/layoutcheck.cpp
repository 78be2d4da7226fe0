#include "layoutcheck.h"

#include "shownwidgets.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDialog>
#include <QFocusFrame>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QSizeGrip>
#include <QStackedWidget>
#include <QTabBar>
#include <QTableView>
#include <QTextDocument>
#include <QTextEdit>
#include <QTreeView>

using namespace Qt::StringLiterals;

namespace berth::test {

namespace {

// What a scroll area would show if it grew: its content's size beyond its size hint.
QSize wantedGrowth(const QAbstractScrollArea *area)
{
    QSize content;
    if (auto *table = qobject_cast<const QTableView *>(area)) {
        content = QSize(table->verticalHeader()->isVisible() ? table->verticalHeader()->width() : 0,
            table->horizontalHeader()->isVisible() ? table->horizontalHeader()->height() : 0);
        const QAbstractItemModel *model = table->model();
        for (int column = 0; model && column < model->columnCount(); ++column) {
            if (!table->isColumnHidden(column))
                content.rwidth() += qMax(static_cast<const QAbstractItemView *>(table)->sizeHintForColumn(column),
                    table->horizontalHeader()->sectionSizeHint(column));
        }
        content.rheight() += table->verticalHeader()->length();
    } else if (auto *tree = qobject_cast<const QTreeView *>(area)) {
        const QAbstractItemModel *model = tree->model();
        content = QSize(0, tree->header()->isVisible() ? tree->header()->height() : 0);
        for (int column = 0; model && column < model->columnCount(); ++column)
            content.rwidth() += qMax(static_cast<const QAbstractItemView *>(tree)->sizeHintForColumn(column),
                tree->header()->sectionSizeHint(column));
        for (int row = 0; model && row < model->rowCount(); ++row)
            content.rheight() += static_cast<const QAbstractItemView *>(tree)->sizeHintForRow(row);
    } else if (auto *list = qobject_cast<const QListView *>(area)) {
        const QAbstractItemModel *model = list->model();
        content = QSize(list->sizeHintForColumn(0), 0);
        for (int row = 0; model && row < model->rowCount(); ++row)
            content.rheight() += list->sizeHintForRow(row);
    } else if (auto *text = qobject_cast<const QTextEdit *>(area)) {
        content = text->document()->size().toSize();
    } else if (auto *plain = qobject_cast<const QPlainTextEdit *>(area)) {
        content = QSize(
            plain->viewport()->width(), int(plain->document()->size().height()) * plain->fontMetrics().height());
    } else if (auto *scroll = qobject_cast<const QScrollArea *>(area); scroll && scroll->widget()) {
        content = scroll->widget()->sizeHint();
    }
    const int frame = 2 * area->frameWidth();
    return (content + QSize(frame, frame) - area->sizeHint()).expandedTo(QSize(0, 0));
}

// Widgets whose children Qt lays out over each other on purpose (a scroll area's bars and viewport, a line edit's
// buttons): their children are not compared.
bool composesItsChildren(const QWidget *widget)
{
    return qobject_cast<const QAbstractScrollArea *>(widget) || qobject_cast<const QAbstractSpinBox *>(widget)
        || qobject_cast<const QComboBox *>(widget) || qobject_cast<const QTabBar *>(widget)
        || qobject_cast<const QLineEdit *>(widget);
}

} // namespace

QString LayoutCheck::describe(const QWidget *widget)
{
    const QString type = QString::fromLatin1(widget->metaObject()->className());
    if (!widget->objectName().isEmpty())
        return u"%1 (%2)"_s.arg(widget->objectName(), type);
    QString text;
    if (auto *label = qobject_cast<const QLabel *>(widget))
        text = label->text();
    else if (auto *button = qobject_cast<const QAbstractButton *>(widget))
        text = button->text();
    const QString parent = widget->parentWidget() ? describe(widget->parentWidget()) : QString();
    return text.isEmpty() ? u"%1 in %2"_s.arg(type, parent) : u"%1 \"%2\" in %3"_s.arg(type, text.left(30), parent);
}

QStringList LayoutCheck::check(QWidget *window) const
{
    QStringList found = clippedTexts(window) + literalMnemonics(window) + lowContrast(window) + overlaps(window);
    if (qobject_cast<QDialog *>(window))
        found += oversized(window);
    return found;
}

QStringList LayoutCheck::literalMnemonics(QWidget *root)
{
    QStringList found;
    for (QWidget *widget : shownWidgets(root)) {
        auto *label = qobject_cast<QLabel *>(widget);
        if (!label || label->buddy())
            continue;
        const QString text = label->text();
        const bool plain = label->textFormat() == Qt::PlainText
            || (label->textFormat() == Qt::AutoText && !Qt::mightBeRichText(text));
        QString rest = text;
        rest.remove(u"&&"_s); // an ampersand, not a mnemonic
        if (plain && rest.contains(u'&'))
            found.append(u"%1: \"%2\" shows a literal '&': a mnemonic with no buddy"_s.arg(describe(label), text));
    }
    return found;
}

QStringList LayoutCheck::oversized(QWidget *dialog)
{
    // A tabbed window keeps one size for all its tabs: the lists of the tabs not shown count as well.
    const auto onSomeTab = [dialog](const QWidget *widget) {
        for (const QWidget *at = widget; at && at != dialog; at = at->parentWidget()) {
            if (at->isHidden() && !qobject_cast<const QStackedWidget *>(at->parentWidget()))
                return false;
        }
        return true;
    };
    QSize needed = dialog->sizeHint().expandedTo(dialog->minimumSizeHint()).expandedTo(dialog->minimumSize());
    const auto areas = dialog->findChildren<QAbstractScrollArea *>();
    for (const QAbstractScrollArea *area : areas) {
        if (onSomeTab(area) && !qobject_cast<const QAbstractItemView *>(area->parentWidget()))
            needed += wantedGrowth(area);
    }
    const auto slack = [](int hint) { return qMax(kSlackPixels, hint * kSlackPercent / 100); };
    const QSize allowed(needed.width() + slack(needed.width()), needed.height() + slack(needed.height()));
    if (dialog->width() <= allowed.width() && dialog->height() <= allowed.height())
        return {};
    return {u"%1: is %2×%3 px, its content needs %4×%5 (at most %6×%7 allowed)"_s.arg(describe(dialog))
                .arg(dialog->width())
                .arg(dialog->height())
                .arg(needed.width())
                .arg(needed.height())
                .arg(allowed.width())
                .arg(allowed.height())};
}

QStringList LayoutCheck::overlaps(QWidget *root)
{
    QStringList found;
    for (QWidget *parent : shownWidgets(root)) {
        if (composesItsChildren(parent))
            continue;
        QList<QWidget *> siblings;
        for (QObject *object : parent->children()) {
            auto *child = qobject_cast<QWidget *>(object);
            if (child && child->isVisible() && !child->isWindow() && !qobject_cast<QSizeGrip *>(child)
                && !qobject_cast<QFocusFrame *>(child))
                siblings.append(child);
        }
        for (qsizetype i = 0; i < siblings.size(); ++i) {
            for (qsizetype j = i + 1; j < siblings.size(); ++j) {
                const QRect shared = siblings.at(i)->geometry().intersected(siblings.at(j)->geometry());
                if (!shared.isEmpty())
                    found.append(
                        u"%1 and %2 overlap by %3×%4 px"_s.arg(describe(siblings.at(i)), describe(siblings.at(j)))
                            .arg(shared.width())
                            .arg(shared.height()));
            }
        }
    }
    return found;
}

} // namespace berth::test
