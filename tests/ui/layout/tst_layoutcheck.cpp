// The layout check can fail: each kind of defect, built on purpose into a small window, is found and named, and
// the same window built right is not.
#include "layoutcheck.h"

#include <QCheckBox>
#include <QDialog>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;
using namespace berth::test;

namespace {

// A shown dialog laid out at its size hint, holding widget.
std::unique_ptr<QDialog> dialogWith(QWidget *widget)
{
    auto dialog = std::make_unique<QDialog>();
    auto *layout = new QVBoxLayout(dialog.get());
    layout->addWidget(widget);
    dialog->show();
    dialog->adjustSize();
    return dialog;
}

QLabel *namedLabel(const QString &text, const QString &name)
{
    auto *label = new QLabel(text);
    label->setObjectName(name);
    return label;
}

// The widgets one under another.
QWidget *column(const QList<QWidget *> &widgets)
{
    auto *form = new QWidget;
    auto *layout = new QVBoxLayout(form);
    for (QWidget *widget : widgets)
        layout->addWidget(widget);
    return form;
}

bool names(const QStringList &found, const QString &name)
{
    for (const QString &line : found) {
        if (line.contains(name))
            return true;
    }
    return false;
}

} // namespace

class TestLayoutCheck : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aLabelNarrowerThanItsTextIsClipped()
    {
        auto *label = new QLabel(u"A label with a rather long text"_s);
        label->setObjectName(u"narrowLabel"_s);
        auto dialog = dialogWith(label);
        QVERIFY2(LayoutCheck().clippedTexts(dialog.get()).isEmpty(), "fits at its size hint");
        label->setFixedWidth(60);
        QVERIFY(names(LayoutCheck().clippedTexts(dialog.get()), u"narrowLabel (QLabel)"_s));
    }

    void aWrappedLabelLowerThanItsLinesIsClipped()
    {
        auto *label = new QLabel(u"Words that wrap onto several lines when the label is narrow enough"_s);
        label->setObjectName(u"wrappedLabel"_s);
        label->setWordWrap(true);
        auto dialog = dialogWith(label);
        QVERIFY(LayoutCheck().clippedTexts(dialog.get()).isEmpty());
        label->setFixedSize(90, label->fontMetrics().height());
        QVERIFY(names(LayoutCheck().clippedTexts(dialog.get()), u"wrappedLabel"_s));
    }

    void buttonsCheckBoxesAndGroupTitlesThatDoNotFitAreClipped()
    {
        auto *box = new QGroupBox(u"A group box with a long title"_s);
        box->setObjectName(u"group"_s);
        auto *layout = new QVBoxLayout(box);
        auto *button = new QPushButton(u"&Publish Anyway With Options"_s);
        button->setObjectName(u"publishButton"_s);
        auto *check = new QCheckBox(u"Keep serving in the tray"_s);
        check->setObjectName(u"trayCheckBox"_s);
        layout->addWidget(button);
        layout->addWidget(check);
        auto dialog = dialogWith(box);
        QVERIFY2(LayoutCheck().clippedTexts(dialog.get()).isEmpty(),
            qPrintable(LayoutCheck().clippedTexts(dialog.get()).join(u'\n')));
        box->setFixedWidth(70);
        const QStringList found = LayoutCheck().clippedTexts(dialog.get());
        QVERIFY2(names(found, u"publishButton"_s), qPrintable(found.join(u'\n')));
        QVERIFY2(names(found, u"trayCheckBox"_s), qPrintable(found.join(u'\n')));
        QVERIFY2(names(found, u"group (QGroupBox)"_s), qPrintable(found.join(u'\n')));
    }

    void tabsHeadersAndCellsThatDoNotFitAreClipped()
    {
        auto *tabs = new QTabWidget;
        auto *table = new QTableWidget(2, 2);
        table->setObjectName(u"sitesTable"_s);
        table->setHorizontalHeaderLabels({u"Address"_s, u"Title"_s});
        table->setItem(0, 0, new QTableWidgetItem(u"http://a-thirty-character-slug-here.localhost:8080/"_s));
        table->setItem(0, 1, new QTableWidgetItem(u"A title that may elide"_s));
        table->resizeColumnsToContents();
        tabs->addTab(table, u"Submissions and counters"_s);
        tabs->addTab(new QWidget, u"Another tab with a long name"_s);
        auto dialog = dialogWith(tabs);
        dialog->resize(900, 400);
        QVERIFY2(LayoutCheck().clippedTexts(dialog.get()).isEmpty(),
            qPrintable(LayoutCheck().clippedTexts(dialog.get()).join(u'\n')));
        table->setColumnWidth(0, 30);
        table->setColumnWidth(1, 30);
        dialog->setMinimumSize(0, 0);
        tabs->setMinimumSize(0, 0);
        tabs->setElideMode(Qt::ElideRight);
        dialog->resize(150, 300);
        QTest::qWait(0);
        LayoutCheck check;
        QStringList found = check.clippedTexts(dialog.get());
        QVERIFY2(names(found, u"cell (0, 0)"_s), qPrintable(found.join(u'\n')));
        QVERIFY2(names(found, u"cell (0, 1)"_s), qPrintable(found.join(u'\n')));
        QVERIFY2(names(found, u"\"Address\" does not fit: column 0"_s), qPrintable(found.join(u'\n')));
        QVERIFY2(names(found, u"QTabBar"_s), qPrintable(found.join(u'\n')));
        check.allowElided(u"sitesTable"_s, 1); // a column the design elides
        found = check.clippedTexts(dialog.get());
        QVERIFY2(!names(found, u"cell (0, 1)"_s), qPrintable(found.join(u'\n')));
        QVERIFY2(names(found, u"cell (0, 0)"_s), qPrintable(found.join(u'\n')));
    }

    void aMnemonicWithoutABuddyShowsALiteralAmpersand()
    {
        QLabel *orphan = namedLabel(u"HTTPS ce&rtificate:"_s, u"certificateLabel"_s);
        QLabel *buddied = namedLabel(u"HTTPS private &key:"_s, u"keyLabel"_s);
        auto *edit = new QLineEdit;
        buddied->setBuddy(edit);
        QLabel *ampersand = namedLabel(u"Terms && conditions"_s, u"ampersandLabel"_s);
        auto dialog = dialogWith(column({orphan, buddied, edit, ampersand}));
        const QStringList found = LayoutCheck::literalMnemonics(dialog.get());
        QCOMPARE(found.size(), 1);
        QVERIFY2(names(found, u"certificateLabel"_s), qPrintable(found.join(u'\n')));
    }

    void faintTextAndFaintLinksAreLowContrast()
    {
        QLabel *grey = namedLabel(u"Grey on grey"_s, u"greyLabel"_s);
        QLabel *link = namedLabel(u"<a href=\"http://localhost:8080\">http://localhost:8080</a>"_s, u"apiLinkLabel"_s);
        QLabel *coloured = namedLabel(u"<span style=\"color:#303030\">Dark words</span>"_s, u"spanLabel"_s);
        auto dialog = dialogWith(column({grey, link, coloured}));
        QPalette dark = dialog->palette();
        dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
        dark.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
        dark.setColor(QPalette::Link, QColor(0xe8, 0xe8, 0xe8));
        dialog->setPalette(dark);
        const QStringList before = LayoutCheck::lowContrast(dialog.get());
        QCOMPARE(before.size(), 1); // only the span's own dark colour
        QVERIFY2(names(before, u"spanLabel"_s), qPrintable(before.join(u'\n')));
        QPalette faint = grey->palette();
        faint.setColor(QPalette::WindowText, QColor(0x55, 0x55, 0x55));
        grey->setPalette(faint);
        dark.setColor(QPalette::Link, QColor(0x00, 0x00, 0xa0)); // the light palette's link blue
        link->setPalette(dark);
        const QStringList found = LayoutCheck::lowContrast(dialog.get());
        QVERIFY2(names(found, u"greyLabel"_s), qPrintable(found.join(u'\n')));
        QVERIFY2(names(found, u"apiLinkLabel"_s), qPrintable(found.join(u'\n')));
        QVERIFY2(names(found, u"#0000a0 on #2b2b2b"_s), qPrintable(found.join(u'\n')));
    }

    void contrastIsWcagsRatio()
    {
        QCOMPARE(qRound(LayoutCheck::contrast(Qt::black, Qt::white) * 100), 2100);
        QCOMPARE(qRound(LayoutCheck::contrast(QColor(0x76, 0x76, 0x76), Qt::white) * 100), 454);
        QCOMPARE(LayoutCheck::contrast(Qt::red, Qt::red), 1.0);
    }

    void aDialogMuchLargerThanItsContentIsOversized()
    {
        auto *label = new QLabel(u"Your site is live"_s);
        auto dialog = dialogWith(label);
        dialog->setObjectName(u"answerSheet"_s);
        QVERIFY(LayoutCheck::oversized(dialog.get()).isEmpty());
        dialog->resize(dialog->sizeHint() + QSize(40, 40)); // within the slack
        QVERIFY(LayoutCheck::oversized(dialog.get()).isEmpty());
        dialog->resize(640, 480);
        QVERIFY(names(LayoutCheck::oversized(dialog.get()), u"answerSheet (QDialog)"_s));
    }

    void aDialogMayGrowForWhatItsListCouldShow()
    {
        auto *table = new QTableWidget(40, 3);
        auto dialog = dialogWith(table);
        dialog->resize(dialog->sizeHint() + QSize(0, 600)); // forty rows want the room
        QVERIFY2(LayoutCheck::oversized(dialog.get()).isEmpty(),
            qPrintable(LayoutCheck::oversized(dialog.get()).join(u'\n')));
        dialog->resize(dialog->sizeHint() + QSize(0, 2000));
        QVERIFY(!LayoutCheck::oversized(dialog.get()).isEmpty());
    }

    void siblingsDrawnOverEachOtherOverlap()
    {
        auto dialog = std::make_unique<QDialog>();
        auto *first = new QLabel(u"Address"_s, dialog.get());
        first->setObjectName(u"addressLabel"_s);
        auto *second = new QPushButton(u"Copy"_s, dialog.get());
        second->setObjectName(u"copyButton"_s);
        first->setGeometry(10, 10, 100, 30);
        second->setGeometry(120, 10, 80, 30);
        dialog->resize(220, 60);
        dialog->show();
        QVERIFY(LayoutCheck::overlaps(dialog.get()).isEmpty());
        second->move(90, 20);
        const QStringList found = LayoutCheck::overlaps(dialog.get());
        QCOMPARE(found.size(), 1);
        QVERIFY2(found.constFirst().contains(u"addressLabel (QLabel) and copyButton (QPushButton) overlap by 20×20"_s),
            qPrintable(found.constFirst()));
        second->hide(); // what is not shown overlaps nothing
        QVERIFY(LayoutCheck::overlaps(dialog.get()).isEmpty());
    }
};

QTEST_MAIN(TestLayoutCheck)
#include "tst_layoutcheck.moc"
