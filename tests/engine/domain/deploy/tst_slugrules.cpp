#include "domain/deploy/slugrules.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

class TestSlugRules final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void validate_data();
    void validate();
    void validateMessageStatesTheRule();
    void generateIsAlwaysValid();
    void generateVaries();
    void fromName_data();
    void fromName();
    void fromNameFallsBackToGenerated_data();
    void fromNameFallsBackToGenerated();
    void fromNameIsAlwaysValid_data();
    void fromNameIsAlwaysValid();
    void fromNameNeverRepeatsAWord_data();
    void fromNameNeverRepeatsAWord();
};

void TestSlugRules::validate_data()
{
    QTest::addColumn<QString>("slug");
    QTest::addColumn<bool>("valid");

    QTest::newRow("simple") << u"my-site"_s << true;
    QTest::newRow("digits") << u"site-2026"_s << true;
    QTest::newRow("three groups") << u"calm-river-7k2"_s << true;
    QTest::newRow("3 chars") << u"a-b"_s << true;
    QTest::newRow("63 chars") << (u"a-"_s + QString(61, u'x')) << true;
    QTest::newRow("all digits") << u"1-2"_s << true;

    QTest::newRow("empty") << QString() << false;
    QTest::newRow("empty non-null") << u""_s << false;
    QTest::newRow("2 chars") << u"a-"_s << false;
    QTest::newRow("64 chars") << (u"a-"_s + QString(62, u'x')) << false;
    QTest::newRow("single word") << u"portfolio"_s << false;
    QTest::newRow("leading hyphen") << u"-my-site"_s << false;
    QTest::newRow("trailing hyphen") << u"my-site-"_s << false;
    QTest::newRow("double hyphen") << u"my--site"_s << false;
    QTest::newRow("only hyphens") << u"---"_s << false;
    QTest::newRow("uppercase") << u"My-Site"_s << false;
    QTest::newRow("underscore") << u"my_site-x"_s << false;
    QTest::newRow("dot") << u"my.site-x"_s << false;
    QTest::newRow("space") << u"my site-x"_s << false;
    QTest::newRow("unicode") << u"café-site"_s << false;
    QTest::newRow("fullwidth digit") << u"site-\uff11"_s << false;
}

void TestSlugRules::validate()
{
    QFETCH(QString, slug);
    QFETCH(bool, valid);
    QCOMPARE(SlugRules::validate(slug).isEmpty(), valid);
}

void TestSlugRules::validateMessageStatesTheRule()
{
    const QString message = SlugRules::validate(u"Nope"_s);
    QVERIFY(message.contains(u"3 to 63 characters"));
    QVERIFY(message.contains(u"hyphen"));
    QVERIFY(message.contains(u"\"my-site\""));
}

void TestSlugRules::generateIsAlwaysValid()
{
    for (int i = 0; i < 1000; ++i) {
        const QString slug = SlugRules::generate();
        QVERIFY2(SlugRules::validate(slug).isEmpty(), qPrintable(slug));
        // word-word-xxx with a 3-character base36 suffix
        const QStringList parts = slug.split(u'-');
        QCOMPARE(parts.size(), 3);
        QCOMPARE(parts.at(2).size(), 3);
    }
}

void TestSlugRules::generateVaries()
{
    QSet<QString> seen;
    for (int i = 0; i < 200; ++i)
        seen.insert(SlugRules::generate());
    QVERIFY(seen.size() > 190); // 36 * 36 * 46656 combinations: collisions are rare
}

void TestSlugRules::fromName_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("expected");

    QTest::newRow("single word") << u"Portfolio"_s << u"portfolio-site"_s;
    QTest::newRow("words and punctuation") << u"My Cool Site!"_s << u"my-cool-site"_s;
    QTest::newRow("accents") << u"Café Crème"_s << u"cafe-creme"_s;
    QTest::newRow("underscores and dots") << u"my_site.v2"_s << u"my-site-v2"_s;
    QTest::newRow("html file") << u"landing-page.html"_s << u"landing-page"_s;
    QTest::newRow("html file, one word") << u"Index.HTML"_s << u"index-site"_s;
    QTest::newRow("zip") << u"blog.zip"_s << u"blog-site"_s;
    QTest::newRow("surrounding junk") << u"  --Hello  World--  "_s << u"hello-world"_s;
    QTest::newRow("one letter") << u"a"_s << u"a-site"_s;
    QTest::newRow("non-latin dropped") << u"日本 docs"_s << u"docs-site"_s;
    QTest::newRow("long single word") << QString(80, u'x') << (QString(58, u'x') + u"-site"_s);
    QTest::newRow("long words") << (QString(40, u'a') + u' ' + QString(40, u'b'))
                                << (QString(40, u'a') + u'-' + QString(22, u'b'));
    QTest::newRow("cut at a hyphen") << (QString(62, u'a') + u" bc"_s) << (QString(58, u'a') + u"-site"_s);
    QTest::newRow("a folder named site") << u"site"_s << u"my-site"_s;
    QTest::newRow("Site.html") << u"Site.html"_s << u"my-site"_s;
    QTest::newRow("a word twice") << u"Hello hello world"_s << u"hello-world"_s;
    QTest::newRow("site twice") << u"site-v2-site"_s << u"site-v2"_s;
}

void TestSlugRules::fromName()
{
    QFETCH(QString, name);
    QFETCH(QString, expected);
    const QString slug = SlugRules::fromName(name);
    QCOMPARE(slug, expected);
    QVERIFY(SlugRules::validate(slug).isEmpty());
}

void TestSlugRules::fromNameFallsBackToGenerated_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("empty") << QString();
    QTest::newRow("punctuation") << u"!!!"_s;
    QTest::newRow("only non-latin") << u"日本語"_s;
    QTest::newRow("emoji") << u"\U0001F680"_s;
}

void TestSlugRules::fromNameFallsBackToGenerated()
{
    QFETCH(QString, name);
    const QString slug = SlugRules::fromName(name);
    QVERIFY2(SlugRules::validate(slug).isEmpty(), qPrintable(slug));
    QCOMPARE(slug.split(u'-').size(), 3);
    QVERIFY(!slug.endsWith(u"-site"));
}

void TestSlugRules::fromNameIsAlwaysValid_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("hyphens") << u"-"_s;
    QTest::newRow("digits") << u"42"_s;
    QTest::newRow("mixed") << u"Ünïcödé & Co. (2026)"_s;
    QTest::newRow("ligature") << u"ﬁle"_s;
    QTest::newRow("63 exactly, cut between groups") << (QString(61, u'a') + u"-b-c"_s);
}

void TestSlugRules::fromNameIsAlwaysValid()
{
    QFETCH(QString, name);
    const QString slug = SlugRules::fromName(name);
    QVERIFY2(SlugRules::validate(slug).isEmpty(), qPrintable(slug));
}

void TestSlugRules::fromNameNeverRepeatsAWord_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("site") << u"site"_s;
    QTest::newRow("SITE") << u"SITE"_s;
    QTest::newRow("site site") << u"site site"_s;
    QTest::newRow("my site site") << u"my site site"_s;
    QTest::newRow("blog blog") << u"blog_blog"_s;
    QTest::newRow("my") << u"my"_s;
    QTest::newRow("www site") << u"www.site"_s;
    QTest::newRow("long then repeated") << (QString(40, u'a') + u" b "_s + QString(40, u'a'));
}

void TestSlugRules::fromNameNeverRepeatsAWord()
{
    QFETCH(QString, name);
    const QString slug = SlugRules::fromName(name);
    QVERIFY2(SlugRules::validate(slug).isEmpty(), qPrintable(slug));
    const QStringList words = slug.split(u'-');
    QCOMPARE(QSet<QString>(words.cbegin(), words.cend()).size(), words.size());
}

QTEST_APPLESS_MAIN(TestSlugRules)
#include "tst_slugrules.moc"
