#pragma once

// TestSubmissions: POST /_submit (docs/api.md) and the owner's GET|DELETE /deploy/:id/submissions, over real HTTP. Time
// is a ManualClock: days pass without waiting. What visitors send is tested in tst_submissions.cpp; what the owner
// lists, exports and deletes in submissionsowner.cpp.
#include "domain/common/clock.h"
#include "enginefixture.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPair>
#include <QTest>
#include <memory>

namespace submissionstest {

inline const QDateTime kStart(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);
constexpr qint64 kSubmitSpacingMs = 6'000; // 10 a minute: the per-IP limit, never reached by these tests
inline const QByteArray kJson = "application/json";
inline const QByteArray kForm = "application/x-www-form-urlencoded";
using Headers = QList<QPair<QByteArray, QByteArray>>;

} // namespace submissionstest

class TestSubmissions : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<berth::test::EngineFixture> m_fixture;
    QByteArray m_key;
    QString m_id;
    QString m_slug;

    berth::test::HttpTestClient &client() { return m_fixture->client(); }
    berth::ManualClock &clock() { return m_fixture->clock(); }
    QString siteHost(const QString &slug) const { return m_fixture->siteHost(slug); }
    QString deploySite(const QByteArray &key, const QString &slug) { return m_fixture->deploySite(key, slug); }
    berth::test::TestReply submit(const QByteArray &body, const QByteArray &contentType = submissionstest::kJson,
        submissionstest::Headers headers = {}, const QString &slug = {})
    {
        clock().advance(submissionstest::kSubmitSpacingMs);
        headers.append({"Content-Type", contentType});
        return client().request(
            "POST", siteHost(slug.isEmpty() ? m_slug : slug), QStringLiteral("/_submit"), body, headers);
    }
    QJsonObject listing(const QString &query = {}, const QString &id = {})
    {
        const berth::test::TestReply reply = client().api(
            "GET", QStringLiteral("/deploy/%1/submissions%2").arg(id.isEmpty() ? m_id : id, query), m_key);
        return reply.status == 200 ? reply.json() : QJsonObject {{QStringLiteral("status"), reply.status}};
    }
    int total() { return listing()[QStringLiteral("total")].toInt(-1); }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<berth::test::EngineFixture>();
        QVERIFY(m_fixture->startWithClock(submissionstest::kStart));
        m_key = m_fixture->ownerKey();
        m_slug = QStringLiteral("form-site");
        m_id = deploySite(m_key, m_slug);
        QVERIFY(!m_id.isEmpty());
    }

    void cleanup() { m_fixture.reset(); }

    // What visitors send: tst_submissions.cpp.
    void jsonSubmissionIsStored();
    void formPostRedirectsToNextOnTheSameSite();
    void formPostWithoutUsableNextShowsThankYouPage_data();
    void formPostWithoutUsableNextShowsThankYouPage();
    void formPostAskingForJsonGetsJson();
    void multipartTextFieldsAreStored();
    void rejectionsStoreNothing_data();
    void rejectionsStoreNothing();
    void payloadOver10KBIs413();
    void dailyLimitOfTheOwnersPlan();
    void oldestIsPrunedAtTheStoredMaximum();
    // What the owner lists, exports and deletes: submissionsowner.cpp.
    void ownerPagesNewestFirst();
    void ownerQueryValidation_data();
    void ownerQueryValidation();
    void onlyTheOwnerReadsOrDeletes();
    void ownerDeletesOne();
    void fieldsKeepTheFormsOrder();
    void csvExportParsesBack();
    void deletingTheDeploymentDeletesSubmissionsAndCounters();
};
