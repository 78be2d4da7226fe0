// TestDeployRequest: the size limits of a deploy request (HTML, each file, the total, the number of files), at the
// limit and one byte over, counted as UTF-8.
#include "deployrequesttest.h"
#include "domain/deploy/deploymentlimits.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;
using namespace deployrequesttest;
using berth::test::base64File;
using berth::test::textFile;

void TestDeployRequest::htmlSizeBoundary()
{
    QString html(kMaxHtmlBytes, u'a');
    Result<DeployRequest> result = parseDeployRequest(json({{u"html"_s, html}}), Mode::Create);
    QVERIFY(result.ok());
    QCOMPARE(result.value().contentBytes(), kMaxHtmlBytes);

    html.append(u'a');
    result = parseDeployRequest(json({{u"html"_s, html}}), Mode::Update);
    QVERIFY(!result.ok());
    QCOMPARE(result.error().kind, Error::Kind::TooLarge);
    // One byte over never reads as the limit itself.
    QCOMPARE(result.error().message, u"HTML exceeds the 5 MB limit (5.000001 MB)"_s);

    html.resize(kMaxHtmlBytes + kMiB / 2, u'a');
    result = parseDeployRequest(json({{u"html"_s, html}}), Mode::Create);
    QCOMPARE(result.error().message, u"HTML exceeds the 5 MB limit (5.5 MB)"_s);
}

void TestDeployRequest::htmlSizeCountsUtf8()
{
    // 2.5 Mi characters of two bytes each: exactly 5 MiB as UTF-8, then one byte more.
    QString html(kMaxHtmlBytes / 2, QChar(0xe9));
    QVERIFY(parseDeployRequest(json({{u"html"_s, html}}), Mode::Create).ok());
    html.append(u'a');
    const Result<DeployRequest> result = parseDeployRequest(json({{u"html"_s, html}}), Mode::Create);
    QVERIFY(!result.ok());
    QCOMPARE(result.error().kind, Error::Kind::TooLarge);
}

void TestDeployRequest::fileSizeBoundary_data()
{
    QTest::addColumn<bool>("base64");
    QTest::addColumn<qint64>("size");
    QTest::addColumn<bool>("accepted");
    QTest::newRow("text at limit") << false << kMaxFileBytes << true;
    QTest::newRow("text over limit") << false << kMaxFileBytes + 1 << false;
    QTest::newRow("base64 at limit") << true << kMaxFileBytes << true;
    QTest::newRow("base64 over limit") << true << kMaxFileBytes + 1 << false;
    QTest::newRow("base64 far over limit") << true << 3 * kMaxFileBytes << false;
}

void TestDeployRequest::fileSizeBoundary()
{
    QFETCH(bool, base64);
    QFETCH(qint64, size);
    QFETCH(bool, accepted);
    const QJsonObject entry
        = base64 ? base64File(u"big.bin"_s, QByteArray(size, 'z')) : textFile(u"big.txt"_s, QString(size, u'z'));
    const Result<DeployRequest> result
        = parseDeployRequest(json(withFiles({textFile(u"index.html"_s, u"hi"_s), entry})), Mode::Create);
    QCOMPARE(result.ok(), accepted);
    if (accepted) {
        QCOMPARE(result.value().files->at(1).content.size(), size);
        QCOMPARE(result.value().contentBytes(), size + 2);
    } else {
        QCOMPARE(result.error().kind, Error::Kind::TooLarge);
        QCOMPARE(result.error().message,
            u"File \"big.%1\" exceeds the 10 MB per-file limit"_s.arg(base64 ? u"bin"_s : u"txt"_s));
    }
}

void TestDeployRequest::totalSizeBoundary()
{
    // Five files at the per-file limit make exactly the total limit; one more byte anywhere is too much.
    QJsonArray entries;
    for (int i = 0; i < 5; ++i)
        entries.append(textFile(u"part%1.txt"_s.arg(i), QString(kMaxFileBytes, QChar(u'a' + i))));
    Result<DeployRequest> result = parseDeployRequest(json(withFiles(entries)), Mode::Create);
    QVERIFY(result.ok());
    QCOMPARE(result.value().contentBytes(), kMaxTotalBytes);
    result = Result<DeployRequest>(Error {}); // release 50 MB before the next parse

    entries.append(base64File(u"one-more.bin"_s, "!"_ba));
    result = parseDeployRequest(json(withFiles(entries)), Mode::Update);
    QVERIFY(!result.ok());
    QCOMPARE(result.error().kind, Error::Kind::TooLarge);
    QCOMPARE(result.error().message, u"Total deployment size exceeds the 50 MB limit"_s);
}

void TestDeployRequest::tooManyFiles()
{
    QJsonArray entries;
    for (int i = 0; i < kMaxFilesPerDeployment; ++i)
        entries.append(textFile(u"f%1.txt"_s.arg(i), u"x"_s));
    Result<DeployRequest> result = parseDeployRequest(json(withFiles(entries)), Mode::Create);
    QVERIFY(result.ok());
    QCOMPARE(result.value().files->size(), kMaxFilesPerDeployment);

    entries.append(textFile(u"last.txt"_s, u"x"_s));
    result = parseDeployRequest(json(withFiles(entries)), Mode::Create);
    QVERIFY(!result.ok());
    QCOMPARE(result.error().kind, Error::Kind::TooLarge);
    QCOMPARE(result.error().message, u"A deployment can have at most 10000 files"_s);
}

void TestDeployRequest::utf8SizeMatchesToUtf8_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("ascii") << u"hello"_s;
    QTest::newRow("two-byte") << u"Grüße"_s;
    QTest::newRow("three-byte") << u"日本語 €"_s;
    QTest::newRow("four-byte") << u"🚀 \U0001F600"_s;
    QTest::newRow("empty") << QString();
}

void TestDeployRequest::utf8SizeMatchesToUtf8()
{
    QFETCH(QString, text);
    QCOMPARE(utf8Size(text), qint64(text.toUtf8().size()));
}
