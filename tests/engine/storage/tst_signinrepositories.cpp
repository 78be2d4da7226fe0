// Schema version 3 (sign-in): an instance at version 2 is brought forward with its accounts intact; the allow-list,
// sign-in requests and agent claims; and the account queries the owner's controls and claims use.
#include "common/resultassert.h"
#include "sitedatarows.h"
#include "storage/agentclaimrepository.h"
#include "storage/allowlistrepository.h"
#include "storage/apikeyrepository.h"
#include "storage/signinrequestrepository.h"
#include "storage/submissionrepository.h"

#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {

const QDateTime T0 = berth::test::kSiteDataTime;

SignInRequest request(const QString &email, const QByteArray &hash, const QDateTime &expiresAt)
{
    SignInRequest r;
    r.email = email;
    r.allowed = true;
    r.codeHash = hash;
    r.codeSalt = "salt";
    r.relayCode = u"123456"_s;
    r.triesLeft = 5;
    r.delivery = SignInRequest::Delivery::Owner;
    r.requestedAt = T0;
    r.expiresAt = expiresAt;
    return r;
}

ApiKey key(const QString &id, const QString &userId)
{
    ApiKey k;
    k.id = id;
    k.userId = userId;
    k.hash = id.toLatin1() + "-hash";
    k.createdAt = T0;
    return k;
}

} // namespace

class TestSignInRepositories final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Database> m_db;

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_db = std::make_unique<Database>(m_dir->filePath(u"berth.sqlite"_s));
        QVERIFY(m_db->open());
    }
    void cleanup()
    {
        m_db.reset();
        m_dir.reset();
    }

    void upgradesVersionTwoKeepingAccounts()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"old.sqlite"_s);
        {
            Database v2(path, builtInMigrations().mid(0, 2));
            QVERIFY(v2.open());
            QCOMPARE(v2.schemaVersion(), 2);
            QVERIFY(berth::test::insertDeployment(v2, u"dep_old"_s));
            QVERIFY(ApiKeyRepository(v2).insert(key(u"key_old"_s, u"usr_a"_s)));
        }
        Database db(path);
        BERTH_VERIFY_OK(db.open());
        QVERIFY(Database::latestSchemaVersion() >= 3);
        QCOMPARE(db.schemaVersion(), Database::latestSchemaVersion());
        QVERIFY(ApiKeyRepository(db).find(u"key_old"_s));
        QVERIFY(DeploymentRepository(db).find(u"dep_old"_s));
        AllowListRepository allowList(db);
        QVERIFY(allowList.add(u"ann@example.com"_s, T0));
        QVERIFY(allowList.contains(u"ann@example.com"_s));
    }

    void upgradesVersionThreeKeepingCodes()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"old.sqlite"_s);
        {
            Database v3(path, builtInMigrations().mid(0, 3));
            QVERIFY(v3.open());
            QVERIFY(SignInRequestRepository(v3).replace(request(u"ann@example.com"_s, "h1", T0.addSecs(600)), T0));
        }
        Database db(path);
        BERTH_VERIFY_OK(db.open());
        QCOMPARE(db.schemaVersion(), Database::latestSchemaVersion());
        SignInRequestRepository requests(db);
        QCOMPARE(requests.find(u"ANN@example.com"_s)->codeHash, QByteArray("h1"));
        QCOMPARE(requests.listLive(T0).size(), 1);
    }

    void severalCodesPerEmail()
    {
        SignInRequestRepository requests(*m_db);
        for (int i = 1; i <= 4; ++i) {
            SignInRequest code = request(
                i == 2 ? u"ANN@example.com"_s : u"ann@example.com"_s, "h" + QByteArray::number(i), T0.addSecs(600));
            code.requestedAt = T0.addSecs(i);
            QVERIFY(requests.add(code, T0, 3));
            QVERIFY(requests.add(request(u"bob@example.com"_s, "b" + QByteArray::number(i), T0.addSecs(600)), T0, 3));
        }
        // The newest three, newest first; the oldest dropped off; another email's codes are its own.
        QList<QByteArray> hashes;
        for (const SignInRequest &code : requests.findAll(u"ann@example.com"_s))
            hashes.append(code.codeHash);
        QCOMPARE(hashes, (QList<QByteArray> {"h4", "h3", "h2"}));
        QCOMPARE(requests.find(u"ann@example.com"_s)->codeHash, QByteArray("h4"));
        QCOMPARE(requests.findAll(u"bob@example.com"_s).size(), 3);
        // Each code is addressed on its own.
        QVERIFY(requests.setTriesLeft(u"ann@example.com"_s, "h3", 2));
        QCOMPARE(requests.findAll(u"ann@example.com"_s).at(1).triesLeft, 2);
        QCOMPARE(requests.findAll(u"ann@example.com"_s).at(0).triesLeft, 5);
        QVERIFY(requests.remove(u"ann@example.com"_s, "h4"));
        QCOMPARE(requests.findAll(u"ann@example.com"_s).size(), 2);
        QVERIFY(requests.removeAll(u"Ann@Example.com"_s));
        QVERIFY(requests.findAll(u"ann@example.com"_s).isEmpty());
        QCOMPARE(requests.findAll(u"bob@example.com"_s).size(), 3);
    }

    void allowListIsCaseInsensitiveAndIdempotent()
    {
        AllowListRepository allowList(*m_db);
        QVERIFY(allowList.add(u"ann@example.com"_s, T0));
        QVERIFY(allowList.add(u"ANN@example.com"_s, T0.addSecs(5))); // already there: fine, kept once
        QVERIFY(allowList.add(u"bob@example.com"_s, T0));
        QVERIFY(allowList.contains(u"Ann@Example.COM"_s));
        const QList<AllowedEmail> list = allowList.list();
        QCOMPARE(list.size(), 2);
        QCOMPARE(list.at(0).email, u"ann@example.com"_s);
        QCOMPARE(list.at(0).addedAt, T0); // the first addition's time
        QVERIFY(allowList.remove(u"BOB@example.com"_s));
        QVERIFY(!allowList.remove(u"bob@example.com"_s));
        QVERIFY(!allowList.contains(u"bob@example.com"_s));
    }

    void signInRequestsAreReplacedPerEmailAndSweptWhenExpired()
    {
        SignInRequestRepository requests(*m_db);
        QVERIFY(requests.replace(request(u"ann@example.com"_s, "h1", T0.addSecs(600)), T0));
        QVERIFY(requests.replace(request(u"bob@example.com"_s, "h2", T0.addSecs(60)), T0));
        QCOMPARE(requests.listLive(T0).size(), 2);
        QCOMPARE(requests.listLive(T0.addSecs(60)).size(), 1); // bob's expired at 60 s (listed no more)
        QVERIFY(requests.find(u"bob@example.com"_s)); // but still stored until the next request

        // A new request for Ann replaces hers and sweeps Bob's expired one.
        SignInRequest newer = request(u"ANN@example.com"_s, "h3", T0.addSecs(700));
        newer.relayCode.clear();
        newer.delivery = SignInRequest::Delivery::Sending;
        QVERIFY(requests.replace(newer, T0.addSecs(100)));
        QVERIFY(!requests.find(u"bob@example.com"_s));
        const auto ann = requests.find(u"ann@example.com"_s);
        QVERIFY(ann);
        QCOMPARE(ann->codeHash, QByteArray("h3"));
        QVERIFY(ann->relayCode.isNull());
        QCOMPARE(ann->delivery, SignInRequest::Delivery::Sending);
        QCOMPARE(ann->expiresAt, T0.addSecs(700));
    }

    void changesAddressOneCodeOnly()
    {
        SignInRequestRepository requests(*m_db);
        QVERIFY(requests.replace(request(u"ann@example.com"_s, "current", T0.addSecs(600)), T0));
        // Answers about an older code (a late delivery, a try) leave the current one alone.
        QVERIFY(!requests.setDelivery(u"ann@example.com"_s, "older", SignInRequest::Delivery::Sent, {}, {}));
        QVERIFY(!requests.setTriesLeft(u"ann@example.com"_s, "older", 1));
        QVERIFY(!requests.remove(u"ann@example.com"_s, "older"));
        QCOMPARE(requests.find(u"ann@example.com"_s)->triesLeft, 5);

        QVERIFY(requests.setTriesLeft(u"ann@example.com"_s, "current", 3));
        QVERIFY(requests.setDelivery(
            u"ann@example.com"_s, "current", SignInRequest::Delivery::Failed, u"connection refused"_s, u"654321"_s));
        const auto ann = requests.find(u"ann@example.com"_s);
        QCOMPARE(ann->triesLeft, 3);
        QCOMPARE(ann->delivery, SignInRequest::Delivery::Failed);
        QCOMPARE(ann->deliveryError, u"connection refused"_s);
        QCOMPARE(ann->relayCode, u"654321"_s);
        QVERIFY(requests.setDelivery(u"ann@example.com"_s, "current", SignInRequest::Delivery::Sent, {}, {}));
        QVERIFY(requests.find(u"ann@example.com"_s)->relayCode.isNull()); // the code leaves the database
        QVERIFY(requests.remove(u"ann@example.com"_s, "current"));
        QVERIFY(!requests.find(u"ann@example.com"_s));
    }

    void agentClaimIsSpentOnce()
    {
        UserRepository users(*m_db);
        QVERIFY(users.insert({u"usr_agent"_s, {}, u"agent"_s, false, T0}));
        QVERIFY(users.insert({u"usr_ann"_s, u"ann@example.com"_s, u"free"_s, false, T0}));
        AgentClaimRepository claims(*m_db);
        QVERIFY(claims.insert({u"usr_agent"_s, "tokenhash", T0, {}, {}}));
        QVERIFY(!claims.insert({u"usr_agent"_s, "other", T0, {}, {}})); // one claim per agent
        QCOMPARE(claims.findByTokenHash("tokenhash")->agentId, u"usr_agent"_s);
        QVERIFY(!claims.findByTokenHash("unknown"));
        QVERIFY(!claims.findByTokenHash({}));

        QVERIFY(claims.markClaimed(u"usr_agent"_s, u"usr_ann"_s, T0.addSecs(1)));
        QVERIFY(!claims.markClaimed(u"usr_agent"_s, u"usr_ann"_s, T0.addSecs(2))); // spent
        const auto claim = claims.findByAgent(u"usr_agent"_s);
        QCOMPARE(claim->claimedAt, T0.addSecs(1));
        QCOMPARE(claim->claimedBy, u"usr_ann"_s);
        // Removing the agent removes its claim with it.
        QVERIFY(users.remove(u"usr_agent"_s));
        QVERIFY(!claims.findByTokenHash("tokenhash"));
    }

    void claimMovesDeploymentsAndRevokesKeys()
    {
        QVERIFY(berth::test::insertDeployment(*m_db, u"dep_one"_s)); // owned by usr_a
        QVERIFY(berth::test::insertDeployment(*m_db, u"dep_two"_s));
        UserRepository users(*m_db);
        QVERIFY(users.insert({u"usr_b"_s, u"b@example.com"_s, u"free"_s, false, T0}));
        ApiKeyRepository keys(*m_db);
        QVERIFY(keys.insert(key(u"key_1"_s, u"usr_a"_s)));
        QVERIFY(keys.insert(key(u"key_2"_s, u"usr_a"_s)));
        QVERIFY(keys.revoke(u"key_2"_s, T0));
        QVERIFY(keys.insert(key(u"key_b"_s, u"usr_b"_s)));

        DeploymentRepository deployments(*m_db);
        const auto refused = deployments.reassignAll(u"usr_a"_s, u"usr_b"_s, 1); // past usr_b's limit: nothing moves
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, Error::Code::DeploymentLimitReached);
        QCOMPARE(deployments.countForUser(u"usr_a"_s), 2);
        const auto moved = deployments.reassignAll(u"usr_a"_s, u"usr_b"_s, 2);
        QVERIFY(moved);
        QCOMPARE(
            QSet<QString>(moved.value().cbegin(), moved.value().cend()), (QSet<QString> {u"dep_one"_s, u"dep_two"_s}));
        QCOMPARE(deployments.countForUser(u"usr_a"_s), 0);
        QCOMPARE(deployments.countForUser(u"usr_b"_s), 2);

        QVERIFY(keys.revokeAllForUser(u"usr_a"_s, T0.addSecs(9)));
        QCOMPARE(keys.find(u"key_1"_s)->revokedAt, T0.addSecs(9));
        QCOMPARE(keys.find(u"key_2"_s)->revokedAt, T0); // the first revocation stands
        QVERIFY(keys.find(u"key_b"_s)->revokedAt.isNull());
        QVERIFY(keys.revokeAllForUser(u"usr_nobody"_s, T0)); // nothing to do is no failure
    }

    void usersWithUsage()
    {
        QVERIFY(berth::test::insertDeployment(*m_db, u"dep_one"_s));
        QVERIFY(berth::test::insertDeployment(*m_db, u"dep_two"_s));
        UserRepository users(*m_db);
        QVERIFY(users.insert({u"usr_idle"_s, u"idle@example.com"_s, u"pro"_s, false, T0.addSecs(1)}));
        ApiKeyRepository keys(*m_db);
        ApiKey live = key(u"key_live"_s, u"usr_a"_s);
        live.lastUsedAt = T0.addSecs(30);
        ApiKey expired = key(u"key_expired"_s, u"usr_a"_s);
        expired.expiresAt = T0.addSecs(50);
        expired.lastUsedAt = T0.addSecs(40);
        QVERIFY(keys.insert(live));
        QVERIFY(keys.insert(expired));
        QVERIFY(keys.insert(key(u"key_revoked"_s, u"usr_a"_s)));
        QVERIFY(keys.revoke(u"key_revoked"_s, T0));
        SubmissionRepository submissions(*m_db);
        for (int i = 0; i < 3; ++i)
            BERTH_VERIFY_OK(
                submissions.insert({u"sub_%1"_s.arg(i), u"dep_one"_s, {{u"n"_s, i}}, T0}, u"2026-11-21"_s, 10, 10));

        const QList<UserUsage> usage = users.listWithUsage(T0.addSecs(60));
        QCOMPARE(usage.size(), 2);
        QCOMPARE(usage.at(0).user.id, u"usr_a"_s);
        QCOMPARE(usage.at(0).deployments, 2);
        QCOMPARE(usage.at(0).liveKeys, 1); // neither the expired nor the revoked one
        QCOMPARE(usage.at(0).submissionsStored, 3);
        QCOMPARE(usage.at(0).lastActive, T0.addSecs(40));
        QCOMPARE(usage.at(1).user.email, u"idle@example.com"_s);
        QCOMPARE(usage.at(1).deployments, 0);
        QCOMPARE(usage.at(1).liveKeys, 0);
        QVERIFY(usage.at(1).lastActive.isNull());
        QCOMPARE(users.listWithUsage(T0.addSecs(10)).at(0).liveKeys, 2); // before the expiry
    }
};

QTEST_GUILESS_MAIN(TestSignInRepositories)
#include "tst_signinrepositories.moc"
