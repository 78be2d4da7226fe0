// A signed-in user's own API keys over real HTTP: create (shown once), list (never a secret), revoke; and what is
// 401 - a revoked, expired, unknown or malformed key, or none. Time is a ManualClock.
#include "domain/accounts/accountservice.h"
#include "enginefixture.h"
#include "signinsteps.h"

#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::TestReply;
namespace SignInSteps = berth::test::SignInSteps;

namespace {
const QDateTime kStart(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);
const QJsonObject kUnauthorized {{u"error"_s, u"Unauthorized"_s}};
} // namespace

class TestAuthKeys : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;
    QByteArray m_ann;

    TestReply keys(const QByteArray &key) { return m_fixture->client().api("GET", u"/auth/keys"_s, key); }
    TestReply create(const QByteArray &key, const QJsonObject &body)
    {
        return m_fixture->client().api("POST", u"/auth/keys"_s, key, body);
    }
    int deploysStatus(const QByteArray &key) { return m_fixture->client().api("GET", u"/deploys"_s, key).status; }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->startWithClock(kStart));
        m_ann = SignInSteps::signedInKey(*m_fixture, u"ann@example.com"_s);
        QVERIFY(!m_ann.isEmpty());
    }
    void cleanup() { m_fixture.reset(); }

    void createListRevoke()
    {
        m_fixture->clock().advance(1000);
        const TestReply created = create(m_ann, {{u"label"_s, u"ci"_s}});
        QCOMPARE(created.status, 200);
        const QJsonObject json = created.json();
        const QByteArray secret = json.value(u"api_key"_s).toString().toLatin1();
        const QString id = json.value(u"id"_s).toString();
        QVERIFY(secret.startsWith("bk_") && secret.size() == 43);
        QVERIFY(id.startsWith(u"key_"_s));
        QCOMPARE(json.value(u"label"_s).toString(), u"ci"_s);
        QCOMPARE(json.value(u"created_at"_s).toString(), u"2026-11-21T06:00:01Z"_s);
        QVERIFY(json.value(u"expires_at"_s).isNull());
        QVERIFY(json.value(u"revoked_at"_s).isNull());
        QCOMPARE(deploysStatus(secret), 200);

        // Listed newest first, with no secret and no hash.
        const TestReply listed = keys(secret);
        QCOMPARE(listed.status, 200);
        const QJsonArray all = listed.json().value(u"keys"_s).toArray();
        QCOMPARE(all.size(), 2);
        QCOMPARE(all.at(0).toObject().value(u"id"_s).toString(), id);
        QCOMPARE(all.at(1).toObject().value(u"label"_s).toString(), u"sign-in"_s);
        QCOMPARE(all.at(1).toObject().keys(),
            (QStringList {u"created_at"_s, u"expires_at"_s, u"id"_s, u"label"_s, u"last_used_at"_s, u"revoked_at"_s}));
        QVERIFY(!listed.body.contains(secret) && !listed.body.contains(m_ann));
        QVERIFY(!listed.body.contains(berth::AccountService::hashSecret(secret)));
        QCOMPARE(all.at(0).toObject().value(u"last_used_at"_s).toString(), u"2026-11-21T06:00:01Z"_s);

        // Revoked: 401 at once, and listed as revoked.
        const TestReply revoked = m_fixture->client().api("DELETE", u"/auth/keys/"_s + id, m_ann);
        QCOMPARE(revoked.status, 200);
        QCOMPARE(revoked.json(), (QJsonObject {{u"id"_s, id}, {u"message"_s, u"API key revoked"_s}}));
        const TestReply refused = m_fixture->client().api("GET", u"/deploys"_s, secret);
        QCOMPARE(refused.status, 401);
        QCOMPARE(refused.json(), kUnauthorized);
        QCOMPARE(keys(secret).status, 401);
        QCOMPARE(keys(m_ann).json().value(u"keys"_s).toArray().at(0).toObject().value(u"revoked_at"_s).toString(),
            u"2026-11-21T06:00:01Z"_s);
        QCOMPARE(deploysStatus(m_ann), 200); // the other key is untouched
    }

    void keysMayExpire()
    {
        const TestReply created = create(m_ann, {{u"label"_s, u"tomorrow"_s}, {u"expires_in_days"_s, 1}});
        QCOMPARE(created.status, 200);
        QCOMPARE(created.json().value(u"expires_at"_s).toString(), u"2026-11-22T06:00:00Z"_s);
        const QByteArray secret = created.json().value(u"api_key"_s).toString().toLatin1();
        m_fixture->clock().advance(24 * 3600 * 1000 - 1);
        QCOMPARE(deploysStatus(secret), 200);
        m_fixture->clock().advance(1);
        const TestReply expired = m_fixture->client().api("GET", u"/deploys"_s, secret);
        QCOMPARE(expired.status, 401);
        QCOMPARE(expired.json(), kUnauthorized);
    }

    void keysMadeWithAnExpiringKeyExpireNoLater()
    {
        const auto secretOf
            = [](const TestReply &reply) { return reply.json().value(u"api_key"_s).toString().toLatin1(); };
        const auto expiryOf = [](const TestReply &reply) { return reply.json().value(u"expires_at"_s).toString(); };
        const TestReply fiveDays = create(m_ann, {{u"label"_s, u"script"_s}, {u"expires_in_days"_s, 5}});
        QCOMPARE(expiryOf(fiveDays), u"2026-11-26T06:00:00Z"_s);
        const QByteArray script = secretOf(fiveDays);

        m_fixture->clock().advance(1000);
        const TestReply unbounded = create(script, {{u"label"_s, u"unbounded"_s}});
        QCOMPARE(unbounded.status, 200);
        QCOMPARE(expiryOf(unbounded), u"2026-11-26T06:00:00Z"_s); // not "never"
        QCOMPARE(expiryOf(create(script, {{u"expires_in_days"_s, 30}})), u"2026-11-26T06:00:00Z"_s);
        QCOMPARE(expiryOf(create(script, {{u"expires_in_days"_s, 1}})), u"2026-11-22T06:00:01Z"_s); // shorter stays
        // Listed with the same expiry, and a key made by that key is bounded in turn.
        const QString unboundedId = unbounded.json().value(u"id"_s).toString();
        bool listed = false;
        for (const QJsonValue key : keys(m_ann).json().value(u"keys"_s).toArray()) {
            if (key.toObject().value(u"id"_s).toString() != unboundedId)
                continue;
            listed = true;
            QCOMPARE(key.toObject().value(u"expires_at"_s).toString(), u"2026-11-26T06:00:00Z"_s);
        }
        QVERIFY(listed);
        QCOMPARE(expiryOf(create(secretOf(unbounded), {})), u"2026-11-26T06:00:00Z"_s);

        m_fixture->clock().advance(5 * 24 * 3600 * 1000LL);
        QCOMPARE(deploysStatus(secretOf(unbounded)), 401);
        QCOMPARE(deploysStatus(m_ann), 200); // a key that never expires makes keys that never expire
        QVERIFY(create(m_ann, {}).json().value(u"expires_at"_s).isNull());
    }

    void liveKeysPerUserAreCapped()
    {
        const int cap = berth::AccountService::kMaxLiveKeysPerUser;
        QCOMPARE(cap, 50);
        QString shortLived;
        for (int i = 1; i < cap; ++i) { // the sign-in key is the first
            const TestReply created = create(m_ann, i == 1 ? QJsonObject {{u"expires_in_days"_s, 1}} : QJsonObject {});
            QCOMPARE(created.status, 200);
            if (i == 1)
                shortLived = created.json().value(u"id"_s).toString();
        }
        const TestReply refused = create(m_ann, {});
        QCOMPARE(refused.status, 409);
        QCOMPARE(refused.json(),
            (QJsonObject {{u"error"_s,
                u"You already have 50 live API keys, the most allowed: revoke one first "
                "(DELETE /auth/keys/:id)"_s}}));
        QCOMPARE(keys(m_ann).json().value(u"keys"_s).toArray().size(), cap);

        // An expired key no longer counts, nor does a revoked one.
        m_fixture->clock().advance(24 * 3600 * 1000LL);
        QCOMPARE(create(m_ann, {}).status, 200);
        QCOMPARE(create(m_ann, {}).status, 409);
        const QString last = keys(m_ann).json().value(u"keys"_s).toArray().at(0).toObject().value(u"id"_s).toString();
        QCOMPARE(m_fixture->client().api("DELETE", u"/auth/keys/"_s + last, m_ann).status, 200);
        QCOMPARE(create(m_ann, {}).status, 200);
        QVERIFY(!shortLived.isEmpty());
    }

    void signingInAtTheCapRetiresTheIdlestKey()
    {
        const int cap = berth::AccountService::kMaxLiveKeysPerUser;
        QList<QByteArray> secrets;
        for (int i = 1; i < cap; ++i) {
            m_fixture->clock().advance(60'000);
            secrets.append(create(m_ann, {}).json().value(u"api_key"_s).toString().toLatin1());
        }
        // Every key but secrets[0] is used after it; the sign-in key (m_ann) was used to make them all.
        for (qsizetype i = 1; i < secrets.size(); ++i)
            QCOMPARE(deploysStatus(secrets.at(i)), 200);
        const QByteArray fresh = SignInSteps::signedInKey(*m_fixture, u"ann@example.com"_s);
        QVERIFY(!fresh.isEmpty());
        QCOMPARE(deploysStatus(fresh), 200);
        QCOMPARE(deploysStatus(secrets.at(0)), 401); // the idlest is revoked
        QCOMPARE(deploysStatus(secrets.at(1)), 200);
        QCOMPARE(deploysStatus(m_ann), 200);
    }

    void onlyYourOwnKeys()
    {
        const QByteArray bob = SignInSteps::signedInKey(*m_fixture, u"bob@example.com"_s);
        const QJsonArray annKeys = keys(m_ann).json().value(u"keys"_s).toArray();
        const QString annKeyId = annKeys.at(0).toObject().value(u"id"_s).toString();
        const TestReply other = m_fixture->client().api("DELETE", u"/auth/keys/"_s + annKeyId, bob);
        QCOMPARE(other.status, 404);
        QCOMPARE(other.json(), (QJsonObject {{u"error"_s, u"Key not found"_s}}));
        QCOMPARE(m_fixture->client().api("DELETE", u"/auth/keys/key_missing"_s, bob).status, 404);
        QCOMPARE(deploysStatus(m_ann), 200);
        QCOMPARE(keys(bob).json().value(u"keys"_s).toArray().size(), 1); // bob sees only his

        // The owner may revoke anyone's key (dashboard, berthd).
        const auto revoked = m_fixture->engine().accounts().revokeAnyKey(annKeyId);
        QVERIFY(revoked);
        QCOMPARE(deploysStatus(m_ann), 401);
        QCOMPARE(
            m_fixture->engine().accounts().revokeAnyKey(u"key_missing"_s).error().kind, berth::Error::Kind::NotFound);
    }

    void newKeyRequests_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("error");
        QTest::newRow("empty body") << QByteArray() << 200 << QString();
        QTest::newRow("no label") << QByteArray("{}") << 200 << QString();
        QTest::newRow("label not a string")
            << QByteArray(R"({"label": 5})") << 400 << u"label must be a string of at most 100 characters"_s;
        QTest::newRow("label too long") << QByteArray(R"({"label": ")") + QByteArray(101, 'x') + "\"}" << 400
                                        << u"label must be a string of at most 100 characters"_s;
        QTest::newRow("expiry zero") << QByteArray(R"({"expires_in_days": 0})") << 400
                                     << u"expires_in_days must be a whole number from 1 to 3650"_s;
        QTest::newRow("expiry fraction") << QByteArray(R"({"expires_in_days": 1.5})") << 400
                                         << u"expires_in_days must be a whole number from 1 to 3650"_s;
        QTest::newRow("expiry text") << QByteArray(R"({"expires_in_days": "7"})") << 400
                                     << u"expires_in_days must be a whole number from 1 to 3650"_s;
        QTest::newRow("malformed") << QByteArray("{label") << 400 << QString();
        QTest::newRow("not an object") << QByteArray("[]") << 400 << u"Request body must be a JSON object"_s;
    }
    void newKeyRequests()
    {
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QString, error);
        const TestReply reply = m_fixture->client().api("POST", u"/auth/keys"_s, m_ann, body);
        QCOMPARE(reply.status, status);
        if (status == 200)
            QCOMPARE(reply.json().value(u"label"_s).toString(), u"api"_s);
        else if (!error.isEmpty())
            QCOMPARE(reply.json(), (QJsonObject {{u"error"_s, error}}));
        else
            QCOMPARE(reply.json().keys(), QStringList {u"error"_s});
    }

    void everyMissingOrBadKeyIs401_data()
    {
        QTest::addColumn<QByteArray>("authorization");
        QTest::newRow("none") << QByteArray();
        QTest::newRow("other scheme") << QByteArray("Basic YW5uOnNlY3JldA==");
        QTest::newRow("no key") << QByteArray("Bearer");
        QTest::newRow("not a Berth key") << QByteArray("Bearer abc");
        QTest::newRow("unknown key") << QByteArray("Bearer bk_0000000000000000000000000000000000000000");
        QTest::newRow("overlong") << "Bearer bk_" + QByteArray(300, 'a');
    }
    void everyMissingOrBadKeyIs401()
    {
        QFETCH(QByteArray, authorization);
        QList<QPair<QByteArray, QByteArray>> headers;
        if (!authorization.isEmpty())
            headers.append({"Authorization", authorization});
        for (const QByteArray &method : {QByteArray("GET"), QByteArray("POST")}) {
            const TestReply reply
                = m_fixture->client().request(method, m_fixture->client().apiHost(), u"/auth/keys"_s, "{}", headers);
            QCOMPARE(reply.status, 401);
            QCOMPARE(reply.json(), kUnauthorized);
        }
    }
};

QTEST_GUILESS_MAIN(TestAuthKeys)
#include "tst_authkeys.moc"
