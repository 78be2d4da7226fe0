#include "storage/database.h"
#include "storage/deploymentrepository.h"
#include "storage/userrepository.h"

#include <QCryptographicHash>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {

// What a write came to, in the terms the assertions below were written in.
enum class Outcome
{
    Ok,
    SlugTaken,
    NotFound,
    Full,
    Failed
};

Outcome outcome(const Result<void> &result)
{
    if (result.ok())
        return Outcome::Ok;
    if (result.error().code == Error::Code::SlugTaken)
        return Outcome::SlugTaken;
    switch (result.error().kind) {
    case Error::Kind::NotFound:
        return Outcome::NotFound;
    case Error::Kind::InsufficientStorage:
        return Outcome::Full;
    default:
        return Outcome::Failed;
    }
}

const QDateTime T0(QDate(2024, 5, 1), QTime(9, 0, 0, 125), Qt::UTC);

StoredFile file(const QString &path, const QByteArray &content)
{
    return {path, QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex(), content.size(),
        QByteArrayLiteral("text/html; charset=utf-8")};
}

Deployment deployment(
    const QString &id, const QString &slug, const QString &userId = u"usr_a"_s, const QDateTime &when = T0)
{
    Deployment d;
    d.id = id;
    d.userId = userId;
    d.slug = slug;
    d.storageType = u"files"_s;
    d.title = u"Title of "_s + slug;
    d.favicon = u"/favicon.ico"_s;
    d.ogImage = u""_s;
    d.createdAt = when;
    d.updatedAt = when;
    return d;
}

bool sameFiles(const QList<StoredFile> &a, const QList<StoredFile> &b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (a[i].path != b[i].path || a[i].blob != b[i].blob || a[i].size != b[i].size
            || a[i].contentType != b[i].contentType)
            return false;
    }
    return true;
}

void compareRows(const Deployment &actual, const Deployment &expected)
{
    QCOMPARE(actual.id, expected.id);
    QCOMPARE(actual.userId, expected.userId);
    QCOMPARE(actual.slug, expected.slug);
    QCOMPARE(actual.storageType, expected.storageType);
    QCOMPARE(actual.isSpa, expected.isSpa);
    QCOMPARE(actual.title, expected.title);
    QCOMPARE(actual.description, expected.description);
    QCOMPARE(actual.description.isNull(), expected.description.isNull());
    QCOMPARE(actual.favicon, expected.favicon);
    QCOMPARE(actual.ogImage, expected.ogImage);
    QCOMPARE(actual.isProtected, expected.isProtected);
    QCOMPARE(actual.passwordHash, expected.passwordHash);
    QCOMPARE(actual.shareToken, expected.shareToken);
    QCOMPARE(actual.createdAt, expected.createdAt);
    QCOMPARE(actual.updatedAt, expected.updatedAt);
    QCOMPARE(actual.versionId, expected.versionId);
}

} // namespace

class TestDeploymentRepository final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Schema 4 adds the title's source: rows from before it read as the owner's title and are listed for
    // DeploymentService to resolve; rows written since carry their source.
    void schemaFourKeepsOlderRowsAndMarksTheirTitleSourceUnknown()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"old.sqlite"_s);
        {
            Database v3(path, builtInMigrations().mid(0, 3));
            QVERIFY(v3.open());
            QSqlQuery query(v3.connection());
            QVERIFY(query.exec(u"INSERT INTO users (id, plan, created_at) VALUES ('usr_a', 'free', 'x')"_s));
            QVERIFY(
                query.exec(u"INSERT INTO deployments (id, user_id, slug, storage_type, is_spa, title, favicon, "
                           "og_image, protected, created_at, updated_at) VALUES ('dep_old', 'usr_a', 'old-site', "
                           "'html', 0, 'Kept', '', '', 0, '2024-05-01T09:00:00.000Z', '2024-05-01T09:00:00.000Z')"_s));
        }
        Database db(path);
        QVERIFY(db.open());
        QVERIFY(db.schemaVersion() >= 4);
        DeploymentRepository repo(db);
        const auto old = repo.find(u"dep_old"_s);
        QVERIFY(old);
        QCOMPARE(old->title, u"Kept"_s);
        QVERIFY(old->titleIsCustom);
        QCOMPARE(repo.idsWithUnknownTitleSource(), QStringList {u"dep_old"_s});

        Deployment fresh = deployment(u"dep_new"_s, u"new-site"_s);
        fresh.documentTitle = u"From the page"_s;
        QCOMPARE(outcome(repo.insert(fresh, {})), Outcome::Ok);
        QCOMPARE(repo.find(u"dep_new"_s)->titleIsCustom, false);
        QCOMPARE(repo.find(u"dep_new"_s)->documentTitle, u"From the page"_s);
        Deployment resolved = *old;
        resolved.titleIsCustom = false;
        QCOMPARE(outcome(repo.update(resolved, std::nullopt)), Outcome::Ok);
        QVERIFY(repo.idsWithUnknownTitleSource().isEmpty());
    }

    void init()
    {
        m_dir.reset(new QTemporaryDir);
        m_db.reset(new Database(m_dir->filePath(u"berth.db"_s)));
        QVERIFY(m_db->open());
        m_repo.reset(new DeploymentRepository(*m_db));
        UserRepository users(*m_db);
        for (const QString &id : {u"usr_a"_s, u"usr_b"_s})
            QVERIFY(users.insert({id, {}, u"free"_s, false, T0}));
    }

    void cleanup()
    {
        m_repo.reset();
        m_db.reset();
    }

    void insertsAndFinds()
    {
        Deployment d = deployment(u"dep_1"_s, u"hello"_s);
        d.isSpa = true;
        d.description = u"A site"_s;
        d.isProtected = true;
        d.passwordHash = "$argon2id$v=19$hash";
        d.shareToken = "tok123";
        const QList<StoredFile> files {
            file(u"index.html"_s, "<h1>"), file(u"css/a.css"_s, "a{}"), file(u"about/index.html"_s, "about")};
        QCOMPARE(outcome(m_repo->insert(d, files)), Outcome::Ok);
        QVERIFY(d.versionId > 0);

        const std::optional<Deployment> found = m_repo->find(u"dep_1"_s);
        QVERIFY(found);
        compareRows(*found, d);
        QVERIFY(m_repo->findBySlug(u"hello"_s));
        QCOMPARE(m_repo->findBySlug(u"hello"_s)->id, u"dep_1"_s);
        QVERIFY(!m_repo->find(u"dep_missing"_s));
        QVERIFY(!m_repo->findBySlug(u"missing"_s));

        const QList<StoredFile> stored = m_repo->files(d.versionId);
        QCOMPARE(stored.size(), 3);
        QCOMPARE(stored[0].path, u"about/index.html"_s); // ordered by path
        QCOMPARE(stored[1].path, u"css/a.css"_s);
        QCOMPARE(stored[2].path, u"index.html"_s);
        QVERIFY(sameFiles(stored, {files[2], files[1], files[0]}));
    }

    void listsNewestFirstAndCounts()
    {
        Deployment a = deployment(u"dep_a"_s, u"a"_s, u"usr_a"_s, T0);
        Deployment b = deployment(u"dep_b"_s, u"b"_s, u"usr_a"_s, T0.addSecs(60));
        Deployment c = deployment(u"dep_c"_s, u"c"_s, u"usr_a"_s, T0.addMSecs(1));
        Deployment other = deployment(u"dep_o"_s, u"o"_s, u"usr_b"_s, T0.addDays(1));
        for (Deployment *d : {&a, &b, &c, &other})
            QCOMPARE(outcome(m_repo->insert(*d, {})), Outcome::Ok);

        const QList<Deployment> mine = m_repo->listForUser(u"usr_a"_s);
        QCOMPARE(mine.size(), 3);
        QCOMPARE(mine[0].id, u"dep_b"_s);
        QCOMPARE(mine[1].id, u"dep_c"_s);
        QCOMPARE(mine[2].id, u"dep_a"_s);
        QCOMPARE(m_repo->listAll().size(), 4);
        QCOMPARE(m_repo->listAll().first().id, u"dep_o"_s);
        QCOMPARE(m_repo->countForUser(u"usr_a"_s), 3);
        QCOMPARE(m_repo->countForUser(u"usr_b"_s), 1);
        QCOMPARE(m_repo->countForUser(u"usr_none"_s), 0);
        QVERIFY(m_repo->listForUser(u"usr_none"_s).isEmpty());
        QVERIFY(m_repo->listForUser(QString()).isEmpty()); // never "everyone's"
    }

    void takenSlugWritesNothing()
    {
        Deployment first = deployment(u"dep_1"_s, u"taken"_s);
        QCOMPARE(outcome(m_repo->insert(first, {file(u"index.html"_s, "1")})), Outcome::Ok);
        const int versions = count(u"versions"_s);
        const int files = count(u"files"_s);

        Deployment second = deployment(u"dep_2"_s, u"taken"_s);
        const Result<void> taken = m_repo->insert(second, {file(u"index.html"_s, "2")});
        QCOMPARE(outcome(taken), Outcome::SlugTaken);
        QCOMPARE(taken.error().kind, Error::Kind::Conflict);
        QVERIFY(!taken.error().message.isEmpty());
        QCOMPARE(second.versionId, 0);
        QVERIFY(!m_repo->find(u"dep_2"_s));
        QCOMPARE(count(u"versions"_s), versions);
        QCOMPARE(count(u"files"_s), files);
    }

    void updateWithFilesSwapsToANewVersion()
    {
        Deployment d = deployment(u"dep_1"_s, u"site"_s);
        QCOMPARE(outcome(m_repo->insert(d, {file(u"index.html"_s, "old"), file(u"old.css"_s, "x")})), Outcome::Ok);
        const qint64 oldVersion = d.versionId;

        d.title = u"New title"_s;
        d.updatedAt = T0.addSecs(30);
        const QList<StoredFile> next {file(u"index.html"_s, "new"), file(u"new.js"_s, "y")};
        QCOMPARE(outcome(m_repo->update(d, next)), Outcome::Ok);
        QVERIFY(d.versionId != oldVersion);

        const std::optional<Deployment> found = m_repo->find(u"dep_1"_s);
        QVERIFY(found);
        compareRows(*found, d);
        QVERIFY(sameFiles(m_repo->files(d.versionId), next));
        QVERIFY(m_repo->files(oldVersion).isEmpty());
        QCOMPARE(count(u"versions"_s), 1);
        QCOMPARE(count(u"files"_s), 2);
    }

    void updateWithoutFilesKeepsTheVersion()
    {
        Deployment d = deployment(u"dep_1"_s, u"site"_s);
        const QList<StoredFile> files {file(u"index.html"_s, "same")};
        QCOMPARE(outcome(m_repo->insert(d, files)), Outcome::Ok);
        const qint64 version = d.versionId;

        d.title = u"Renamed"_s;
        d.isSpa = true;
        d.versionId = 999; // stale or wrong values in the struct must not repoint the row
        QCOMPARE(outcome(m_repo->update(d, std::nullopt)), Outcome::Ok);
        QCOMPARE(d.versionId, version);
        const std::optional<Deployment> found = m_repo->find(u"dep_1"_s);
        QVERIFY(found);
        QCOMPARE(found->title, u"Renamed"_s);
        QVERIFY(found->isSpa);
        QCOMPARE(found->versionId, version);
        QVERIFY(sameFiles(m_repo->files(version), files));
    }

    void failedUpdateLeavesEverythingIntact()
    {
        Deployment d = deployment(u"dep_1"_s, u"site"_s);
        const QList<StoredFile> files {file(u"index.html"_s, "v1"), file(u"a.css"_s, "a")};
        QCOMPARE(outcome(m_repo->insert(d, files)), Outcome::Ok);
        const Deployment before = *m_repo->find(u"dep_1"_s);

        Deployment changed = before;
        changed.title = u"Should not stick"_s;
        changed.updatedAt = T0.addDays(1);
        const QList<StoredFile> duplicate {file(u"index.html"_s, "v2"), file(u"index.html"_s, "v2 again")};
        const Result<void> failed = m_repo->update(changed, duplicate);
        QCOMPARE(outcome(failed), Outcome::Failed);
        QVERIFY(!failed.error().message.isEmpty());
        QCOMPARE(changed.versionId, before.versionId);

        compareRows(*m_repo->find(u"dep_1"_s), before);
        QVERIFY(sameFiles(m_repo->files(before.versionId), {files[1], files[0]}));
        QCOMPARE(count(u"versions"_s), 1);
        QCOMPARE(count(u"files"_s), 2);
    }

    void updateToATakenSlugOrAMissingRowFails()
    {
        Deployment a = deployment(u"dep_a"_s, u"a"_s);
        Deployment b = deployment(u"dep_b"_s, u"b"_s);
        QCOMPARE(outcome(m_repo->insert(a, {})), Outcome::Ok);
        QCOMPARE(outcome(m_repo->insert(b, {})), Outcome::Ok);

        Deployment clash = b;
        clash.slug = u"a"_s;
        QCOMPARE(outcome(m_repo->update(clash, QList<StoredFile> {file(u"x.html"_s, "x")})), Outcome::SlugTaken);
        compareRows(*m_repo->find(u"dep_b"_s), b);
        QCOMPARE(count(u"versions"_s), 2);

        Deployment ghost = deployment(u"dep_ghost"_s, u"ghost"_s);
        QCOMPARE(outcome(m_repo->update(ghost, QList<StoredFile> {})), Outcome::NotFound);
        QCOMPARE(count(u"versions"_s), 2);
    }

    void renames()
    {
        Deployment a = deployment(u"dep_a"_s, u"a"_s);
        Deployment b = deployment(u"dep_b"_s, u"b"_s);
        QCOMPARE(outcome(m_repo->insert(a, {})), Outcome::Ok);
        QCOMPARE(outcome(m_repo->insert(b, {})), Outcome::Ok);

        const QDateTime later = T0.addSecs(5);
        QCOMPARE(outcome(m_repo->rename(u"dep_a"_s, u"a2"_s, later)), Outcome::Ok);
        QVERIFY(!m_repo->findBySlug(u"a"_s));
        QCOMPARE(m_repo->findBySlug(u"a2"_s)->id, u"dep_a"_s);
        QCOMPARE(m_repo->find(u"dep_a"_s)->updatedAt, later);
        QCOMPARE(m_repo->find(u"dep_a"_s)->versionId, a.versionId);

        QCOMPARE(outcome(m_repo->rename(u"dep_a"_s, u"b"_s, later)), Outcome::SlugTaken);
        QCOMPARE(m_repo->find(u"dep_a"_s)->slug, u"a2"_s);
        QCOMPARE(outcome(m_repo->rename(u"dep_missing"_s, u"c"_s, later)), Outcome::NotFound);
    }

    void removeCascadesToVersionsAndFiles()
    {
        Deployment d = deployment(u"dep_1"_s, u"gone"_s);
        Deployment kept = deployment(u"dep_2"_s, u"kept"_s);
        QCOMPARE(outcome(m_repo->insert(d, {file(u"index.html"_s, "1"), file(u"b.html"_s, "2")})), Outcome::Ok);
        QCOMPARE(outcome(m_repo->insert(kept, {file(u"index.html"_s, "3")})), Outcome::Ok);

        QCOMPARE(outcome(m_repo->remove(u"dep_1"_s)), Outcome::Ok);
        QVERIFY(!m_repo->find(u"dep_1"_s));
        QVERIFY(!m_repo->findBySlug(u"gone"_s));
        QVERIFY(m_repo->files(d.versionId).isEmpty());
        QCOMPARE(count(u"versions"_s), 1);
        QCOMPARE(count(u"files"_s), 1);
        QCOMPARE(outcome(m_repo->remove(u"dep_1"_s)), Outcome::NotFound);
    }

    void removingAUserRemovesTheirDeployments()
    {
        Deployment d = deployment(u"dep_1"_s, u"mine"_s, u"usr_b"_s);
        QCOMPARE(outcome(m_repo->insert(d, {file(u"index.html"_s, "1")})), Outcome::Ok);
        QVERIFY(UserRepository(*m_db).remove(u"usr_b"_s));
        QVERIFY(!m_repo->find(u"dep_1"_s));
        QCOMPARE(count(u"versions"_s), 0);
        QCOMPARE(count(u"files"_s), 0);
    }

    void insertForAnUnknownUserFails()
    {
        Deployment d = deployment(u"dep_1"_s, u"orphan"_s, u"usr_nobody"_s);
        QCOMPARE(outcome(m_repo->insert(d, {})), Outcome::Failed);
        QCOMPARE(count(u"deployments"_s), 0);
    }

    void referencedBlobsAreDistinctAndCurrent()
    {
        Deployment a = deployment(u"dep_a"_s, u"a"_s);
        Deployment b = deployment(u"dep_b"_s, u"b"_s);
        const StoredFile shared = file(u"index.html"_s, "shared");
        const StoredFile onlyA = file(u"a.html"_s, "a");
        const StoredFile onlyB = file(u"b.html"_s, "b");
        QCOMPARE(outcome(m_repo->insert(a, {shared, onlyA})), Outcome::Ok);
        QCOMPARE(outcome(m_repo->insert(b, {shared, onlyB})), Outcome::Ok);
        QCOMPARE(m_repo->referencedBlobs().value(), (QSet<QByteArray> {shared.blob, onlyA.blob, onlyB.blob}));

        QCOMPARE(outcome(m_repo->update(a, QList<StoredFile> {onlyA})), Outcome::Ok);
        QCOMPARE(outcome(m_repo->remove(u"dep_b"_s)), Outcome::Ok);
        QCOMPARE(m_repo->referencedBlobs().value(), (QSet<QByteArray> {onlyA.blob}));
    }

    void descriptionDistinguishesNullFromEmpty()
    {
        Deployment unset = deployment(u"dep_1"_s, u"unset"_s);
        Deployment empty = deployment(u"dep_2"_s, u"empty"_s);
        empty.description = u""_s;
        QVERIFY(unset.description.isNull());
        QVERIFY(!empty.description.isNull());
        QCOMPARE(outcome(m_repo->insert(unset, {})), Outcome::Ok);
        QCOMPARE(outcome(m_repo->insert(empty, {})), Outcome::Ok);

        QVERIFY(m_repo->find(u"dep_1"_s)->description.isNull());
        const QString stored = m_repo->find(u"dep_2"_s)->description;
        QVERIFY(!stored.isNull());
        QVERIFY(stored.isEmpty());
        QCOMPARE(text(u"SELECT COUNT(*) FROM deployments WHERE description IS NULL"_s), u"1"_s);
        // Unset secrets are NULL too, not ''.
        QCOMPARE(
            text(u"SELECT COUNT(*) FROM deployments WHERE password_hash IS NULL AND share_token IS NULL"_s), u"2"_s);
    }

    void timestampsRoundTripInUtc()
    {
        Deployment d = deployment(u"dep_1"_s, u"time"_s);
        d.createdAt = QDateTime(QDate(2024, 3, 10), QTime(12, 34, 56, 789), Qt::OffsetFromUTC, 2 * 3600);
        d.updatedAt = QDateTime(QDate(2024, 3, 10), QTime(23, 30, 0, 1), Qt::OffsetFromUTC, -5 * 3600);
        QCOMPARE(outcome(m_repo->insert(d, {})), Outcome::Ok);

        const Deployment found = *m_repo->find(u"dep_1"_s);
        QCOMPARE(found.createdAt, d.createdAt);
        QCOMPARE(found.updatedAt, d.updatedAt);
        QCOMPARE(found.createdAt.timeSpec(), Qt::UTC);
        QCOMPARE(found.updatedAt.timeSpec(), Qt::UTC);
        QCOMPARE(text(u"SELECT created_at FROM deployments"_s), u"2024-03-10T10:34:56.789Z"_s);
        QCOMPARE(text(u"SELECT updated_at FROM deployments"_s), u"2024-03-11T04:30:00.001Z"_s);
    }

private:
    int count(const QString &table) const { return text(u"SELECT COUNT(*) FROM "_s + table).toInt(); }

    QString text(const QString &statement) const
    {
        QSqlQuery query(m_db->connection());
        return query.exec(statement) && query.next() ? query.value(0).toString() : QString();
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Database> m_db;
    std::unique_ptr<DeploymentRepository> m_repo;
};

QTEST_GUILESS_MAIN(TestDeploymentRepository)
#include "tst_deploymentrepository.moc"
