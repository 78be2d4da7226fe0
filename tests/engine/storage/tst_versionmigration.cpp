// Schema version 6 (kept versions): an instance at version 5 is brought forward with each deployment's one
// version numbered 1 and carrying the deployment's metadata; later updates keep versions and prune the oldest.
#include "common/resultassert.h"
#include "storage/database.h"
#include "storage/deploymentrepository.h"
#include "storage/versionrepository.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

class TestVersionMigration final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void upgradesVersionFiveKeepingTheServedVersion()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"berth.sqlite"_s);
        {
            Database v5(path, builtInMigrations().mid(0, 5));
            QVERIFY(v5.open());
            QCOMPARE(v5.schemaVersion(), 5);
            QSqlQuery query(v5.connection());
            const QString statements[] = {
                u"INSERT INTO users (id, email, plan, is_owner, created_at) VALUES ('usr_1', 'a@example.com', 'free', "
                "0, '2026-11-01T00:00:00.000Z')"_s,
                u"INSERT INTO deployments (id, user_id, slug, storage_type, is_spa, title, description, favicon, "
                "og_image, protected, version_id, created_at, updated_at, title_is_custom, document_title) VALUES "
                "('dep_old', 'usr_1', 'old-site', 'files', 1, 'Old title', 'desc', 'x', '', 0, NULL, "
                "'2026-11-01T00:00:00.000Z', '2026-11-02T00:00:00.000Z', 1, 'Doc')"_s,
                u"INSERT INTO versions (deployment_id, created_at) VALUES ('dep_old', '2026-11-02T00:00:00.000Z')"_s,
                u"INSERT INTO files (version_id, path, blob, size, content_type) VALUES (last_insert_rowid(), "
                "'index.html', 'aaaa', 42, 'text/html')"_s,
                u"UPDATE deployments SET version_id = (SELECT MAX(id) FROM versions) WHERE id = 'dep_old'"_s,
            };
            for (const QString &statement : statements)
                QVERIFY2(query.exec(statement), qPrintable(query.lastError().text()));
        }
        Database db(path);
        BERTH_VERIFY_OK(db.open());
        QCOMPARE(db.schemaVersion(), Database::latestSchemaVersion());

        DeploymentRepository deployments(db);
        const QList<StoredVersion> versions = deployments.versions().list(u"dep_old"_s);
        QCOMPARE(versions.size(), 1);
        QCOMPARE(versions.first().number, 1);
        QCOMPARE(versions.first().title, u"Old title"_s);
        QCOMPARE(versions.first().documentTitle, u"Doc"_s);
        QCOMPARE(versions.first().description, u"desc"_s);
        QVERIFY(versions.first().isSpa);
        QVERIFY(versions.first().titleIsCustom);
        QCOMPARE(versions.first().fileCount, 1);
        QCOMPARE(versions.first().totalSize, 42);

        // The next content makes version 2 and keeps 1; with two kept, the third drops version 1 and its blob.
        auto deployment = deployments.find(u"dep_old"_s);
        QVERIFY(deployment);
        QList<QByteArray> released;
        BERTH_VERIFY_OK(deployments.update(
            *deployment, QList<StoredFile> {{u"index.html"_s, "bbbb", 7, "text/html"}}, 2, &released));
        QVERIFY(released.isEmpty());
        QCOMPARE(deployments.versions().list(u"dep_old"_s).size(), 2);
        BERTH_VERIFY_OK(deployments.update(
            *deployment, QList<StoredFile> {{u"index.html"_s, "cccc", 7, "text/html"}}, 2, &released));
        QCOMPARE(released, QList<QByteArray> {"aaaa"});
        const QList<StoredVersion> kept = deployments.versions().list(u"dep_old"_s);
        QCOMPARE(kept.size(), 2);
        QCOMPARE(kept.at(0).number, 3);
        QCOMPARE(kept.at(1).number, 2);
        QCOMPARE(deployments.find(u"dep_old"_s)->versionId, kept.at(0).id);
    }
};

QTEST_GUILESS_MAIN(TestVersionMigration)
#include "tst_versionmigration.moc"
