// GET /deploys' body is written without QJsonObject: it must be the very text QJsonDocument writes for the same
// entries, whatever the titles hold.
#include "api/deploymentjson.h"
#include "domain/common/clock.h"
#include "domain/siterules/siteaddresses.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace Qt::StringLiterals;
using berth::DeploymentListing;

class TestDeploymentJson : public QObject
{
    Q_OBJECT

private:
    berth::SiteAddresses m_addresses {u"http://localhost:8080"_s, u"localhost:8080"_s};

    QByteArray viaQJsonDocument(const QList<DeploymentListing> &deployments) const
    {
        QJsonArray entries;
        for (const DeploymentListing &deployment : deployments) {
            entries.append(QJsonObject {{u"id"_s, deployment.id}, {u"slug"_s, deployment.slug},
                {u"url"_s, m_addresses.siteUrl(deployment.slug)}, {u"title"_s, deployment.title},
                {u"updated_at"_s, berth::isoTimestamp(deployment.updatedAt)},
                {u"expires_at"_s,
                    deployment.expiresAt.isValid() ? QJsonValue(berth::isoTimestamp(deployment.expiresAt))
                                                   : QJsonValue(QJsonValue::Null)}});
        }
        return QJsonDocument(QJsonObject {{u"deployments"_s, entries}}).toJson(QJsonDocument::Compact);
    }

private Q_SLOTS:
    void anEmptyListing()
    {
        QCOMPARE(berth::DeploymentJson::listBody({}, m_addresses), QByteArray(R"({"deployments":[]})"));
        QCOMPARE(berth::DeploymentJson::listBody({}, m_addresses), viaQJsonDocument({}));
    }

    void theSameTextAsQJsonDocument_data()
    {
        QTest::addColumn<QString>("title");
        QTest::newRow("plain") << u"My site"_s;
        QTest::newRow("empty") << QString();
        QTest::newRow("quotes and backslashes") << u"say \"hi\" \\ bye \\\""_s;
        QTest::newRow("control characters") << u"a\nb\tc\rd\be\ff\x01g\x1fh\x7fi"_s;
        QTest::newRow("non-ASCII") << u"Café ☕ 日本 😀 </script>"_s;
        QTest::newRow("only escapes") << u"\"\"\n"_s;
    }
    void theSameTextAsQJsonDocument()
    {
        QFETCH(QString, title);
        const QDateTime updated(QDate(2026, 11, 23), QTime(21, 5, 9, 123), Qt::UTC);
        const QList<DeploymentListing> listing {{u"dep_abc"_s, u"my-site"_s, title, updated, updated.addDays(7)},
            {u"dep_2"_s, u"other-site"_s, u"second"_s, QDateTime()}};
        const QByteArray body = berth::DeploymentJson::listBody(listing, m_addresses);
        QCOMPARE(body, viaQJsonDocument(listing));
        QCOMPARE(QJsonDocument::fromJson(body)[u"deployments"_s][0][u"title"_s].toString(), title);
    }
};

QTEST_APPLESS_MAIN(TestDeploymentJson)
#include "tst_deploymentjson.moc"
