#include "storage/apikeyrepository.h"
#include "storage/database.h"
#include "storage/settingsrepository.h"
#include "storage/userrepository.h"

#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {

const QDateTime T0(QDate(2024, 5, 1), QTime(9, 0, 0, 125), Qt::UTC);

User user(const QString &id, const QString &email, const QDateTime &createdAt = T0, bool isOwner = false)
{
    return {id, email, u"free"_s, isOwner, createdAt};
}

ApiKey key(const QString &id, const QString &userId, const QByteArray &hash, const QDateTime &createdAt)
{
    ApiKey k;
    k.id = id;
    k.userId = userId;
    k.hash = hash;
    k.label = u"laptop"_s;
    k.createdAt = createdAt;
    return k;
}

} // namespace

class TestAccountRepositories final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        m_dir.reset(new QTemporaryDir);
        m_db.reset(new Database(m_dir->filePath(u"berth.db"_s)));
        QVERIFY(m_db->open());
        m_users.reset(new UserRepository(*m_db));
        m_keys.reset(new ApiKeyRepository(*m_db));
    }

    void cleanup()
    {
        m_keys.reset();
        m_users.reset();
        m_db.reset();
    }

    void usersInsertFindAndList()
    {
        QVERIFY(m_users->insert(user(u"usr_owner"_s, {}, T0, true)));
        QVERIFY(m_users->insert(user(u"usr_ann"_s, u"Ann@Example.org"_s, T0.addSecs(1))));
        QVERIFY(m_users->insert(user(u"usr_agent1"_s, {}, T0.addSecs(2))));
        QVERIFY(m_users->insert(user(u"usr_agent2"_s, {}, T0.addSecs(3)))); // many users without an email

        const std::optional<User> ann = m_users->find(u"usr_ann"_s);
        QVERIFY(ann);
        QCOMPARE(ann->email, u"Ann@Example.org"_s);
        QCOMPARE(ann->plan, u"free"_s);
        QVERIFY(!ann->isOwner);
        QCOMPARE(ann->createdAt, T0.addSecs(1));
        QCOMPARE(ann->createdAt.timeSpec(), Qt::UTC);
        QVERIFY(!m_users->find(u"usr_missing"_s));

        QCOMPARE(m_users->findByEmail(u"ann@example.ORG"_s)->id, u"usr_ann"_s);
        QVERIFY(!m_users->findByEmail(u"bob@example.org"_s));
        QVERIFY(!m_users->findByEmail({}));
        QVERIFY(m_users->find(u"usr_agent1"_s)->email.isEmpty());

        QCOMPARE(m_users->owner()->id, u"usr_owner"_s);
        const QList<User> all = m_users->list();
        QCOMPARE(all.size(), 4);
        QCOMPARE(all.first().id, u"usr_owner"_s);
        QCOMPARE(all.last().id, u"usr_agent2"_s);
    }

    void usersRefuseDuplicates()
    {
        QVERIFY(m_users->insert(user(u"usr_1"_s, u"ann@example.org"_s, T0, true)));
        QVERIFY(!m_users->insert(user(u"usr_1"_s, u"other@example.org"_s)));
        QVERIFY(!m_users->insert(user(u"usr_2"_s, u"ANN@example.org"_s))); // same address, other case
        const Result<void> secondOwner = m_users->insert(user(u"usr_3"_s, {}, T0, true));
        QVERIFY(!secondOwner); // a second owner
        QVERIFY(!secondOwner.error().message.isEmpty());
        QCOMPARE(m_users->list().size(), 1);
    }

    void noOwnerUntilOneIsInserted()
    {
        QVERIFY(!m_users->owner());
        QVERIFY(m_users->insert(user(u"usr_1"_s, {})));
        QVERIFY(!m_users->owner());
    }

    void setPlan()
    {
        QVERIFY(m_users->insert(user(u"usr_1"_s, {})));
        QVERIFY(m_users->setPlan(u"usr_1"_s, u"pro"_s));
        QCOMPARE(m_users->find(u"usr_1"_s)->plan, u"pro"_s);
        QVERIFY(!m_users->setPlan(u"usr_missing"_s, u"pro"_s));
    }

    void removingAUserRemovesTheirKeys()
    {
        QVERIFY(m_users->insert(user(u"usr_1"_s, {})));
        QVERIFY(m_users->insert(user(u"usr_2"_s, {})));
        QVERIFY(m_keys->insert(key(u"key_1"_s, u"usr_1"_s, "h1", T0)));
        QVERIFY(m_keys->insert(key(u"key_2"_s, u"usr_2"_s, "h2", T0)));

        QVERIFY(m_users->remove(u"usr_1"_s));
        QVERIFY(!m_users->find(u"usr_1"_s));
        QVERIFY(!m_keys->find(u"key_1"_s));
        QVERIFY(!m_keys->findByHash("h1"));
        QVERIFY(m_keys->find(u"key_2"_s));
        QVERIFY(!m_users->remove(u"usr_1"_s));
    }

    void keysInsertFindAndList()
    {
        QVERIFY(m_users->insert(user(u"usr_1"_s, {})));
        QVERIFY(m_users->insert(user(u"usr_2"_s, {})));
        ApiKey older = key(u"key_old"_s, u"usr_1"_s, "aaaa", T0);
        older.expiresAt = T0.addDays(30);
        QVERIFY(m_keys->insert(older));
        QVERIFY(m_keys->insert(key(u"key_new"_s, u"usr_1"_s, "bbbb", T0.addSecs(10))));
        QVERIFY(m_keys->insert(key(u"key_other"_s, u"usr_2"_s, "cccc", T0.addSecs(5))));

        const std::optional<ApiKey> found = m_keys->findByHash("aaaa");
        QVERIFY(found);
        QCOMPARE(found->id, u"key_old"_s);
        QCOMPARE(found->userId, u"usr_1"_s);
        QCOMPARE(found->hash, QByteArrayLiteral("aaaa"));
        QCOMPARE(found->label, u"laptop"_s);
        QCOMPARE(found->createdAt, T0);
        QCOMPARE(found->expiresAt, T0.addDays(30));
        QVERIFY(found->lastUsedAt.isNull());
        QVERIFY(found->revokedAt.isNull());
        QVERIFY(!m_keys->findByHash("zzzz"));
        QVERIFY(!m_keys->findByHash({}));
        QCOMPARE(m_keys->find(u"key_new"_s)->hash, QByteArrayLiteral("bbbb"));

        const QList<ApiKey> mine = m_keys->listForUser(u"usr_1"_s);
        QCOMPARE(mine.size(), 2);
        QCOMPARE(mine[0].id, u"key_new"_s);
        QCOMPARE(mine[1].id, u"key_old"_s);
        const QList<ApiKey> all = m_keys->listAll();
        QCOMPARE(all.size(), 3);
        QCOMPARE(all[1].id, u"key_other"_s);
    }

    void keysRefuseDuplicateHashesAndUnknownUsers()
    {
        QVERIFY(m_users->insert(user(u"usr_1"_s, {})));
        QVERIFY(m_keys->insert(key(u"key_1"_s, u"usr_1"_s, "same", T0)));
        QVERIFY(!m_keys->insert(key(u"key_2"_s, u"usr_1"_s, "same", T0)));
        QVERIFY(!m_keys->insert(key(u"key_3"_s, u"usr_nobody"_s, "other", T0)));
        QCOMPARE(m_keys->listAll().size(), 1);
    }

    void keysTouchAndRevoke()
    {
        QVERIFY(m_users->insert(user(u"usr_1"_s, {})));
        QVERIFY(m_keys->insert(key(u"key_1"_s, u"usr_1"_s, "h", T0)));

        QVERIFY(m_keys->touch(u"key_1"_s, T0.addSecs(60)));
        QCOMPARE(m_keys->find(u"key_1"_s)->lastUsedAt, T0.addSecs(60));
        QVERIFY(m_keys->touch(u"key_1"_s, T0.addSecs(90)));
        QCOMPARE(m_keys->find(u"key_1"_s)->lastUsedAt, T0.addSecs(90));

        QVERIFY(m_keys->revoke(u"key_1"_s, T0.addSecs(120)));
        QCOMPARE(m_keys->findByHash("h")->revokedAt, T0.addSecs(120));
        QVERIFY(m_keys->revoke(u"key_1"_s, T0.addSecs(500))); // the first revocation time stays
        QCOMPARE(m_keys->find(u"key_1"_s)->revokedAt, T0.addSecs(120));

        QVERIFY(!m_keys->touch(u"key_missing"_s, T0));
        QVERIFY(!m_keys->revoke(u"key_missing"_s, T0));
    }

    void settingsDefaultAndOverwrite()
    {
        SettingsRepository settings(*m_db);
        QVERIFY(settings.value(u"domain"_s).isNull());
        QCOMPARE(settings.value(u"domain"_s, u"localhost"_s), u"localhost"_s);
        QVERIFY(!settings.contains(u"domain"_s));

        QVERIFY(settings.setValue(u"domain"_s, u"example.org"_s));
        QCOMPARE(settings.value(u"domain"_s, u"localhost"_s), u"example.org"_s);
        QVERIFY(settings.setValue(u"domain"_s, u"berth.example.org"_s));
        QCOMPARE(settings.value(u"domain"_s), u"berth.example.org"_s);

        // An empty value is a value, not an absence.
        QVERIFY(settings.setValue(u"banner"_s, QString()));
        QVERIFY(settings.contains(u"banner"_s));
        QCOMPARE(settings.value(u"banner"_s, u"fallback"_s), QString());
        QVERIFY(!settings.value(u"banner"_s, u"fallback"_s).isNull());

        QVERIFY(settings.remove(u"domain"_s));
        QCOMPARE(settings.value(u"domain"_s, u"localhost"_s), u"localhost"_s);
        QVERIFY(!settings.remove(u"domain"_s));
    }

    void settingsSurviveReopening()
    {
        QVERIFY(SettingsRepository(*m_db).setValue(u"k"_s, u"v"_s));
        cleanup();
        Database reopened(m_dir->filePath(u"berth.db"_s));
        QVERIFY(reopened.open());
        QCOMPARE(SettingsRepository(reopened).value(u"k"_s), u"v"_s);
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Database> m_db;
    std::unique_ptr<UserRepository> m_users;
    std::unique_ptr<ApiKeyRepository> m_keys;
};

QTEST_GUILESS_MAIN(TestAccountRepositories)
#include "tst_accountrepositories.moc"
