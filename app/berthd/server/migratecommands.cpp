#include "app/berthd/server/migratecommands.h"

#include "app/berthd/cli.h"
#include "instance/datadirlock.h"
#include "storage/blobstore.h"
#include "storage/database.h"
#include "storage/databasecopy.h"
#include "storage/databaseurl.h"
#include "storage/deploymentrepository.h"
#include "storage/postgresblobbackend.h"

#include <QDir>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace berth::MigrateCommands {

int migrate(const QStringList &arguments)
{
    const Cli::Command command {u"migrate"_s, QString(),
        u"Copy the records of the instance in --from-sqlite DIR (accounts, keys, sites, versions, submissions, "
        "counters, settings) into an empty PostgreSQL database (--database URL, or $BERTH_DATABASE), in one "
        "transaction, row counts verified; first every file the sites use, each read back and checked by its "
        "digest. Serve with --database URL (DIR's files then serve as that node's cache)."_s,
        0, 0};
    const QCommandLineOption fromSqlite(
        u"from-sqlite"_s, u"The data folder of the instance to copy (stopped)."_s, u"DIR"_s);
    QCommandLineParser parser;
    if (const auto exit = Cli::parse(parser, arguments, command, {fromSqlite}))
        return *exit;
    if (!parser.isSet(fromSqlite))
        return Cli::usageError(u"migrate needs --from-sqlite DIR"_s, command.name);
    const QString url = Cli::databaseUrl(parser);
    if (url.isEmpty())
        return Cli::usageError(u"migrate needs --database URL (or BERTH_DATABASE)"_s, command.name);
    const Result<DatabaseUrl> parsed = DatabaseUrl::parse(url); // its errors never repeat the password
    if (!parsed)
        return Cli::usageError(u"--database: "_s + parsed.error().message, command.name);
    const QString dataDir = parser.value(fromSqlite);
    const QString file = QDir(dataDir).filePath(u"berth.sqlite"_s);
    if (!QFileInfo::exists(file))
        return Cli::usageError(u"%1 holds no Berth instance (no berth.sqlite)"_s.arg(dataDir), command.name);

    // A server still writing to the SQLite file would leave rows behind.
    DataDirLock lock(dataDir);
    if (!lock.tryLock())
        return Cli::failure(lock.error());
    Database from(file);
    if (const Result<void> opened = from.open(); !opened)
        return Cli::failure(opened.error().message);
    Database to(QString(), url);
    if (const Result<void> opened = to.open(); !opened)
        return Cli::failure(opened.error().message);

    // The files before the records: until the records arrive, nothing refers to them, and copying them again (after
    // a failure) stores nothing twice.
    const Result<QSet<QByteArray>> referenced = DeploymentRepository(from).referencedBlobs();
    if (!referenced)
        return Cli::failure(u"cannot read which files the sites use: "_s + referenced.error().message);
    const BlobStore sourceBlobs(QDir(dataDir).filePath(u"blobs"_s));
    PostgresBlobBackend targetBlobs(url);
    const Result<CopiedBlobs> blobs = copyBlobs(sourceBlobs, targetBlobs, referenced.value());
    if (!blobs)
        return Cli::failure(u"migrate failed, no records were written: "_s + blobs.error().message);

    const Result<QList<CopiedTable>> copied = copyDatabase(from, to);
    if (!copied)
        return Cli::failure(u"migrate failed, no records were written: "_s + copied.error().message);
    Cli::out() << "Copied " << dataDir << " into " << parsed.value().redacted() << ":\n";
    for (const CopiedTable &table : copied.value())
        Cli::out() << "  " << table.table << ": " << table.rows << " rows\n";
    Cli::out() << "  files: " << blobs.value().blobs << " (and " << blobs.value().variants << " compressed variants), "
               << blobs.value().bytes << " bytes, digests verified\n";
    Cli::out() << "Serve it with: berthd serve --data-dir " << dataDir << " --database URL\n";
    Cli::out().flush();
    return ExitOk;
}

} // namespace berth::MigrateCommands
