#include "domain/deploy/filepath.h"

#include <QTest>
#include <algorithm>

using namespace Qt::StringLiterals;
using namespace berth;

class TestFilePath final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void accepted_data();
    void accepted();
    void rejected_data();
    void rejected();
    void errorIsOptional();
    void everyInvisibleCodePoint();
    void visibleNeighbours();
};

void TestFilePath::accepted_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("expected");

    QTest::newRow("file") << u"index.html"_s << u"index.html"_s;
    QTest::newRow("nested") << u"assets/css/site.css"_s << u"assets/css/site.css"_s;
    QTest::newRow("leading ./") << u"./a"_s << u"a"_s;
    QTest::newRow("repeated ./") << u"././a/b"_s << u"a/b"_s;
    QTest::newRow("inner ./") << u"a/./b"_s << u"a/b"_s;
    QTest::newRow("double slash") << u"a//b"_s << u"a/b"_s;
    QTest::newRow("dotfile") << u".well-known/security.txt"_s << u".well-known/security.txt"_s;
    QTest::newRow("dots in name") << u"a..b/c...d"_s << u"a..b/c...d"_s;
    QTest::newRow("spaces and unicode") << u"my photos/été.jpg"_s << u"my photos/été.jpg"_s;
    QTest::newRow("emoji") << u"\U0001F680.txt"_s << u"\U0001F680.txt"_s;
    // One spelling per name: a decomposed "é" (e + U+0301) becomes the composed one (U+00E9).
    QTest::newRow("NFD to NFC") << u"cafe\u0301/e\u0301te\u0301.jpg"_s << u"caf\u00e9/\u00e9t\u00e9.jpg"_s;
    QTest::newRow("NFC kept") << u"caf\u00e9.txt"_s << u"caf\u00e9.txt"_s;
    QTest::newRow("255-byte segment") << QString(255, u'a') << QString(255, u'a');
    QTest::newRow("1024-byte path") << (QString(255, u'a') + u'/' + QString(255, u'b') + u'/' + QString(255, u'c')
        + u'/' + QString(255, u'd'))
                                    << (QString(255, u'a') + u'/' + QString(255, u'b') + u'/' + QString(255, u'c')
                                           + u'/' + QString(255, u'd'));
}

void TestFilePath::accepted()
{
    QFETCH(QString, path);
    QFETCH(QString, expected);
    const Result<QString> result = FilePath::normalise(path);
    QVERIFY2(result.ok(), result.ok() ? "" : qPrintable(result.error().message));
    QCOMPARE(result.value(), expected);
}

void TestFilePath::rejected_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("messagePart");

    QTest::newRow("empty") << QString() << u"must not be empty"_s;
    QTest::newRow("parent") << u"../x"_s << u"\"../x\" must not contain \"..\""_s;
    QTest::newRow("climbs out") << u"a/../../x"_s << u"\"..\""_s;
    QTest::newRow("parent inside") << u"a/../b"_s << u"\"..\""_s;
    QTest::newRow("trailing parent") << u"a/.."_s << u"\"..\""_s;
    QTest::newRow("absolute") << u"/etc/passwd"_s << u"\"/etc/passwd\" must be relative"_s;
    QTest::newRow("backslash") << u"a\\b"_s << u"backslash"_s;
    QTest::newRow("windows traversal") << u"..\\x"_s << u"backslash"_s;
    QTest::newRow("nul") << QString(u"a\u0000b"_s) << u"\"a\\u0000b\" contains a control character"_s;
    QTest::newRow("newline") << u"a\nb"_s << u"control character"_s;
    QTest::newRow("tab") << u"a\tb"_s << u"control character"_s;
    QTest::newRow("del") << u"a\x7f"_s << u"control character"_s;
    QTest::newRow("c1") << u"a\u0085"_s << u"control character"_s;
    QTest::newRow("lone surrogate") << QString(QChar(0xd800)) << u"not valid Unicode"_s;
    QTest::newRow("byte order mark") << u"\ufeffindex.html"_s
                                     << u"\"\\ufeffindex.html\" contains an invisible character (U+FEFF)"_s;
    QTest::newRow("zero-width space") << u"a\u200bb.css"_s << u"invisible character (U+200B)"_s;
    QTest::newRow("zero-width non-joiner") << u"a\u200c.css"_s << u"(U+200C)"_s;
    QTest::newRow("zero-width joiner") << u"a/\u200d.css"_s << u"(U+200D)"_s;
    QTest::newRow("word joiner") << u"\u2060a"_s << u"(U+2060)"_s;
    QTest::newRow("bidi override") << u"gpj.\u202eexe"_s << u"(U+202E)"_s;
    QTest::newRow("dot") << u"."_s << u"names a directory"_s;
    QTest::newRow("dot slash") << u"./"_s << u"names a directory"_s;
    QTest::newRow("trailing slash") << u"a/"_s << u"\"a/\" names a directory"_s;
    QTest::newRow("trailing dot") << u"a/."_s << u"names a directory"_s;
    QTest::newRow("only slashes") << u"//"_s << u"must be relative"_s;
    QTest::newRow("256-byte segment") << (u"x/"_s + QString(256, u'a')) << u"longer than 255 bytes"_s;
    QTest::newRow("multibyte segment") << QString(128, QChar(0xe9)) << u"longer than 255 bytes"_s; // 256 bytes
    QTest::newRow("1025-byte path") << (QString(255, u'a') + u'/' + QString(255, u'b') + u'/' + QString(255, u'c')
        + u'/' + QString(256 - 1, u'd') + u"/e"_s)
                                    << u"longer than 1024 bytes"_s;
}

void TestFilePath::rejected()
{
    QFETCH(QString, path);
    QFETCH(QString, messagePart);
    const Result<QString> result = FilePath::normalise(path);
    QVERIFY(!result.ok());
    QCOMPARE(result.error().kind, Error::Kind::BadRequest);
    const QString error = result.error().message;
    QVERIFY2(error.contains(messagePart), qPrintable(error));
    QVERIFY2(error.startsWith(u"file path"), qPrintable(error));
    for (const QChar c : error) {
        QVERIFY(c.category() != QChar::Other_Control); // messages are safe to show and log
        QVERIFY(c != QChar(0xfeff) && c != QChar(0x200b) && c != QChar(0x202e)); // and show what is hidden
    }
}

void TestFilePath::errorIsOptional()
{
    QVERIFY(!FilePath::normalise(u"../x"_s));
    QCOMPARE(FilePath::normalise(u"./x"_s).value(), u"x"_s);
}

namespace {

// Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt), and the line and paragraph separators.
constexpr std::pair<char32_t, char32_t> kInvisibleRanges[] = {{0xAD, 0xAD}, {0x34F, 0x34F}, {0x61C, 0x61C},
    {0x115F, 0x1160}, {0x17B4, 0x17B5}, {0x180B, 0x180F}, {0x200B, 0x200F}, {0x2028, 0x2029}, {0x202A, 0x202E},
    {0x2060, 0x206F}, {0x3164, 0x3164}, {0xFE00, 0xFE0F}, {0xFEFF, 0xFEFF}, {0xFFA0, 0xFFA0}, {0xFFF0, 0xFFF8},
    {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0000, 0xE0FFF}};

QString withCodePoint(char32_t u)
{
    return u"a"_s + QStringView(QChar::fromUcs4(u)).toString() + u"b.html"_s; // QString::fromUcs4 drops a BOM
}

} // namespace

void TestFilePath::everyInvisibleCodePoint()
{
    int checked = 0;
    for (const auto &[first, last] : kInvisibleRanges) {
        for (char32_t u = first; u <= last; ++u) {
            const Result<QString> result = FilePath::normalise(withCodePoint(u));
            const QString expected = u"(U+%1)"_s.arg(QString::number(u, 16).toUpper().rightJustified(4, u'0'));
            QVERIFY2(!result.ok() && result.error().message.contains(expected), qPrintable(expected));
            QVERIFY(!result.error().message.contains(QStringView(QChar::fromUcs4(u)))); // shown escaped
            ++checked;
        }
    }
    QCOMPARE(checked, 4174 + 2); // Default_Ignorable_Code_Point has 4,174
}

void TestFilePath::visibleNeighbours()
{
    for (const auto &[first, last] : kInvisibleRanges) {
        for (const char32_t u : {first - 1, last + 1}) {
            const bool inAnother = std::any_of(std::begin(kInvisibleRanges), std::end(kInvisibleRanges),
                [u = u](const auto &range) { return u >= range.first && u <= range.second; });
            if (inAnother || QChar::category(u) == QChar::Other_Control
                || QChar::category(u) == QChar::Other_NotAssigned)
                continue;
            const Result<QString> result = FilePath::normalise(withCodePoint(u));
            QVERIFY2(result.ok(), qPrintable(result.error().message));
        }
    }
}

QTEST_APPLESS_MAIN(TestFilePath)
#include "tst_filepath.moc"
