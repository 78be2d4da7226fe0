// The deploy rules applied to requests built in-process (the dashboard), not parsed from JSON.
#include "common/deployfiles.h"
#include "domain/deploy/deploymentlimits.h"
#include "domain/deploy/deployrequest.h"

#include <QTest>

using namespace Qt::StringLiterals;
using berth::DeployRequest;
using berth::Error;
using berth::FileUpload;
using berth::validateDeployRequest;
using berth::test::textUpload;

Q_DECLARE_METATYPE(DeployRequest)

class TestDeployValidation : public QObject
{
    Q_OBJECT

    static DeployRequest withFiles(QList<FileUpload> files)
    {
        DeployRequest request;
        request.files = std::move(files);
        return request;
    }

private Q_SLOTS:
    void aValidRequestPasses()
    {
        QVERIFY(
            validateDeployRequest(withFiles({textUpload(u"index.html"_s, "xxxx"), textUpload(u"css/a.css"_s, "xxxx")}))
                .ok());
        DeployRequest html;
        html.html = u"<h1>x</h1>"_s;
        html.slug = u"fine-slug"_s;
        QVERIFY(validateDeployRequest(html).ok());
    }

    void refusals_data()
    {
        QTest::addColumn<DeployRequest>("request");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("message");
        const int bad = int(Error::Kind::BadRequest);
        const int large = int(Error::Kind::TooLarge);
        QTest::newRow("traversal") << withFiles({textUpload(u"../x"_s, "xxxx")}) << bad << QString();
        QTest::newRow("not normalised") << withFiles({textUpload(u"a//b.html"_s, "xxxx")}) << bad << QString();
        QTest::newRow("duplicate") << withFiles({textUpload(u"a.html"_s, "xxxx"), textUpload(u"a.html"_s, "xxxx")})
                                   << bad << u"duplicate file path \"a.html\""_s;
        QTest::newRow("empty") << withFiles({}) << bad << u"files must not be empty"_s;
        const FileUpload tooLarge = textUpload(u"big.bin"_s, QByteArray(berth::kMaxFileBytes + 1, 'x'));
        QTest::newRow("file too large") << withFiles({tooLarge}) << large
                                        << u"File \"big.bin\" exceeds the 10 MB per-file limit"_s;
        QList<FileUpload> many;
        for (int i = 0; i < 6; ++i)
            many.append(textUpload(u"part%1.bin"_s.arg(i), QByteArray(9 * berth::kMiB, 'x')));
        QTest::newRow("total too large") << withFiles(many) << large
                                         << u"Total deployment size exceeds the 50 MB limit"_s;
        DeployRequest html;
        html.html = QString(int(5.5 * berth::kMiB), u'a');
        QTest::newRow("html too large") << html << large << u"HTML exceeds the 5 MB limit (5.5 MB)"_s;
        DeployRequest slug;
        slug.html = u"x"_s;
        slug.slug = u"single"_s;
        QTest::newRow("bad slug") << slug << bad << QString();
        DeployRequest image;
        image.html = u"x"_s;
        image.ogImage = u"javascript:alert(1)"_s;
        QTest::newRow("bad og_image") << image << bad << QString();
    }
    void refusals()
    {
        QFETCH(DeployRequest, request);
        QFETCH(int, kind);
        QFETCH(QString, message);
        const berth::Result<void> checked = validateDeployRequest(request);
        QVERIFY(!checked.ok());
        const berth::Error *error = &checked.error();
        QCOMPARE(int(error->kind), kind);
        if (!message.isEmpty())
            QCOMPARE(error->message, message);
        else
            QVERIFY(!error->message.isEmpty());
    }
};

QTEST_APPLESS_MAIN(TestDeployValidation)
#include "tst_deployvalidation.moc"
