#include "domain/common/randomid.h"

#include <QSet>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

class TestRandomId final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void base62Length_data();
    void base62Length();
    void base62Alphabet();
    void base62IsRoughlyUniform();
    void make();
    void uniqueness();
    void tokenShape_data();
    void tokenShape();
};

void TestRandomId::base62Length_data()
{
    QTest::addColumn<int>("length");
    QTest::addColumn<int>("expected");
    QTest::newRow("zero") << 0 << 0;
    QTest::newRow("negative") << -3 << 0;
    QTest::newRow("one") << 1 << 1;
    QTest::newRow("twenty") << 20 << 20;
    QTest::newRow("not a multiple of 5") << 33 << 33;
    QTest::newRow("long") << 1000 << 1000;
}

void TestRandomId::base62Length()
{
    QFETCH(int, length);
    QFETCH(int, expected);
    QCOMPARE(RandomId::base62(length).size(), expected);
}

void TestRandomId::base62Alphabet()
{
    const QString id = RandomId::base62(5000);
    for (const QChar c : id)
        QVERIFY((c >= u'0' && c <= u'9') || (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z'));
}

void TestRandomId::base62IsRoughlyUniform()
{
    // 620,000 draws: 10,000 expected per character; a biased or truncated alphabet falls far outside 9,000..11,000.
    QHash<QChar, int> counts;
    const QString id = RandomId::base62(620000);
    for (const QChar c : id)
        ++counts[c];
    QCOMPARE(counts.size(), 62);
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        QVERIFY2(it.value() > 9000 && it.value() < 11000, qPrintable(QString(it.key())));
}

void TestRandomId::make()
{
    const QString id = RandomId::make(u"dep_");
    QCOMPARE(id.size(), 24);
    QVERIFY(id.startsWith(u"dep_"));
    QCOMPARE(RandomId::make(u"usr_", 8).size(), 12);
    QVERIFY(RandomId::make(u"", 5).size() == 5);
}

void TestRandomId::uniqueness()
{
    QSet<QString> ids;
    QSet<QByteArray> tokens;
    for (int i = 0; i < 20000; ++i) {
        ids.insert(RandomId::make(u"dep_"));
        tokens.insert(RandomId::token());
    }
    QCOMPARE(ids.size(), 20000);
    QCOMPARE(tokens.size(), 20000);
    // Short ids are unique too unless the generator is broken: 62^8 possibilities.
    QSet<QString> shortIds;
    for (int i = 0; i < 5000; ++i)
        shortIds.insert(RandomId::base62(8));
    QCOMPARE(shortIds.size(), 5000);
}

void TestRandomId::tokenShape_data()
{
    QTest::addColumn<int>("bytes");
    QTest::addColumn<int>("length");
    QTest::newRow("default 24") << 24 << 32;
    QTest::newRow("1") << 1 << 2;
    QTest::newRow("2") << 2 << 3;
    QTest::newRow("16") << 16 << 22;
    QTest::newRow("33") << 33 << 44;
    QTest::newRow("0") << 0 << 0;
}

void TestRandomId::tokenShape()
{
    QFETCH(int, bytes);
    QFETCH(int, length);
    const QByteArray token = RandomId::token(bytes);
    QCOMPARE(token.size(), length);
    for (const char c : token)
        QVERIFY((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_');
    const auto decoded = QByteArray::fromBase64Encoding(
        token, QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
    QVERIFY(decoded);
    QCOMPARE(decoded.decoded.size(), bytes);
}

QTEST_APPLESS_MAIN(TestRandomId)
#include "tst_randomid.moc"
