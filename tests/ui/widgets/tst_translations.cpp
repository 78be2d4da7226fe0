// The dashboard follows the locale: German is complete and shows in the real window; English plural
// forms come from berth_en.ts.
#include "ui/widgets/translations.h"
#include "uitestsupport.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>

using namespace Qt::StringLiterals;
using namespace berth;

class TestTranslations : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void germanWindow()
    {
        Translations translations;
        QVERIFY(translations.install(QLocale(QLocale::German, QLocale::Germany)));
        test::Dashboard dashboard;
        QVERIFY(dashboard.start());
        const QString empty = dashboard.window().findChild<QLabel *>(u"emptyStateLabel"_s)->text();
        QCOMPARE(empty, u"Ziehen Sie einen Ordner oder eine .html-Datei hierher, um sie zu veröffentlichen"_s);
        QStringList menus;
        for (const QAction *action : dashboard.window().menuBar()->actions())
            menus.append(action->text());
        QCOMPARE(menus, (QStringList {u"&Datei"_s, u"&Website"_s, u"&Ansicht"_s, u"&Hilfe"_s}));
        QCOMPARE(dashboard.window().findChild<QLabel *>(u"countLabel"_s)->text(), u"0 Websites"_s);
    }

    void qtsOwnWordsAreGermanToo()
    {
        Translations translations;
        QVERIFY(translations.install(QLocale(QLocale::German, QLocale::Germany)));
        QVERIFY2(translations.hasQtTranslation(), "Qt's qtbase_de.qm is missing: install qt6-translations-l10n");
        QDialogButtonBox buttons(QDialogButtonBox::Cancel | QDialogButtonBox::Close);
        QCOMPARE(buttons.button(QDialogButtonBox::Cancel)->text(), u"Abbrechen"_s);
        QCOMPARE(buttons.button(QDialogButtonBox::Close)->text(), u"Schließen"_s);
        QCOMPARE(QKeySequence(Qt::CTRL | Qt::Key_Q).toString(QKeySequence::NativeText), u"Strg+Q"_s);
    }

    void englishPlurals()
    {
        Translations translations;
        QVERIFY(translations.install(QLocale(QLocale::English, QLocale::UnitedStates)));
        test::Dashboard dashboard;
        QVERIFY(dashboard.start());
        QVERIFY(!dashboard.deploy(u"only-one"_s, {{u"index.html"_s, "1"}}).isEmpty());
        QTRY_COMPARE(dashboard.window().findChild<QLabel *>(u"countLabel"_s)->text(), u"1 site"_s);
    }
};

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
