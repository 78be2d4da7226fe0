// GET /deploy/:id/submissions?format=csv on a site whose visitors used 2,000 distinct field names: the
// export finishes, is capped at 500 field columns, and the server answers other requests meanwhile.
#include "domain/siterules/sitetable.h"
#include "domain/visitors/submissionscsv.h"
#include "domain/visitors/submissionservice.h"
#include "enginefixture.h"

#include <QNetworkReply>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;

class TestSubmissionsExport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void manyFieldsExportIsCappedAndOthersAreServed()
    {
        EngineFixture fixture;
        QVERIFY(fixture.start());
        const QByteArray key = fixture.ownerKey();
        const QString id = fixture.deploySite(key, u"wide-form"_s);
        QVERIFY(!id.isEmpty());
        const auto site = fixture.engine().sites().find(u"wide-form"_s);
        QVERIFY(site);
        // 250 submissions of 8 new fields each, stored as /_submit would store them.
        for (int s = 0; s < 250; ++s) {
            QJsonObject data;
            for (int f = 0; f < 8; ++f)
                data.insert(u"f%1"_s.arg(s * 8 + f), u"=1+%1"_s.arg(f));
            QVERIFY(fixture.engine().submissions().receive(site->deployment, data));
        }

        // The export and a page request in flight together: both are answered.
        QNetworkAccessManager manager;
        const auto request = [&](const QString &host, const QString &path) {
            QNetworkRequest r(QUrl(u"http://127.0.0.1:%1%2"_s.arg(fixture.client().port()).arg(path)));
            r.setRawHeader("Host", host.toLatin1());
            r.setRawHeader("Authorization", "Bearer " + key);
            return manager.get(r);
        };
        std::unique_ptr<QNetworkReply> csv(
            request(fixture.client().apiHost(), u"/deploy/%1/submissions?format=csv"_s.arg(id)));
        std::unique_ptr<QNetworkReply> page(request(fixture.siteHost(u"wide-form"_s), u"/"_s));
        std::unique_ptr<QNetworkReply> api(request(fixture.client().apiHost(), u"/deploys"_s));
        QTRY_VERIFY_WITH_TIMEOUT(csv->isFinished() && page->isFinished() && api->isFinished(), 60000);
        QCOMPARE(page->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        QCOMPARE(api->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        QCOMPARE(csv->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);

        const QByteArray body = csv->readAll();
        const QList<QByteArray> lines = body.split('\n');
        QCOMPARE(lines.size(), 1 + 250 + 1); // header, rows, the empty rest after the last CRLF
        const QList<QByteArray> header = lines.first().trimmed().split(',');
        QCOMPARE(header.size(), 2 + berth::SubmissionsCsv::kMaxFieldColumns + 1);
        QCOMPARE(header.last(), QByteArray("omitted_fields"));
        QVERIFY(!body.contains(",=1+")); // every formula-like cell is made text
        QVERIFY(body.contains(",'=1+0,"));
    }
};

QTEST_GUILESS_MAIN(TestSubmissionsExport)
#include "tst_submissionsexport.moc"
