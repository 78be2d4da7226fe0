#include "app/berthd/server/backupcommands.h"

#include "app/berthd/cli.h"
#include "instance/databasemarker.h"
#include "storage/blobstore.h"
#include "storage/contentdigest.h"
#include "storage/database.h"
#include "storage/databaseurl.h"
#include "storage/deploymentrepository.h"

#include <QDir>
#include <QFile>
#include <QSaveFile>
#include <QStandardPaths>
#include <sqlite3.h>

using namespace Qt::StringLiterals;

namespace berth::BackupCommands {

namespace {

constexpr char kDatabaseName[] = "berth.sqlite";
constexpr int kSnapshotAttempts = 3; // a blob collected between the snapshot and its copy: take a new snapshot

// What copyBlobs() copied.
struct CopiedBlobs
{
    int count = 0;
    qint64 bytes = 0;
};

Error failed(const QString &message)
{
    return {Error::Kind::Internal, message};
}

QString dataDirOf(const QCommandLineParser &parser)
{
    const QString dir = parser.value(Cli::dataDirOption());
    return dir.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) : dir;
}

bool isEmptyOrAbsent(const QString &path)
{
    const QFileInfo info(path);
    return !info.exists()
        || (info.isDir() && QDir(path).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden));
}

// SQLite's online backup: the whole database as of one read transaction, while other connections keep writing.
Result<void> snapshot(const QString &from, const QString &to)
{
    sqlite3 *source = nullptr;
    sqlite3 *target = nullptr;
    bool ok = sqlite3_open_v2(QFile::encodeName(from).constData(), &source, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK
        && sqlite3_open_v2(
               QFile::encodeName(to).constData(), &target, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr)
            == SQLITE_OK;
    if (ok) {
        sqlite3_busy_timeout(source, 5000);
        sqlite3_backup *backup = sqlite3_backup_init(target, "main", source, "main");
        ok = backup && sqlite3_backup_step(backup, -1) == SQLITE_DONE;
        if (backup)
            sqlite3_backup_finish(backup);
    }
    const QString reason = ok ? QString() : QString::fromUtf8(sqlite3_errmsg(target ? target : source));
    sqlite3_close(source);
    sqlite3_close(target);
    if (!ok)
        return failed(reason);
    return {};
}

// Every blob the database at `path` references.
Result<QSet<QByteArray>> referencedBlobs(const QString &path)
{
    Database database(path);
    if (const Result<void> opened = database.open(); !opened)
        return opened.error();
    const auto referenced = DeploymentRepository(database).referencedBlobs();
    if (!referenced) // fail closed: a backup that would leave blobs out is no backup
        return failed(u"Cannot read which files the database references"_s);
    return referenced.value();
}

Result<void> copyFile(const QString &from, const QString &to, const QByteArray &expectedHash)
{
    QFile source(from);
    if (!source.open(QIODevice::ReadOnly))
        return failed(source.errorString());
    QDir().mkpath(QFileInfo(to).absolutePath());
    QSaveFile target(to);
    if (!target.open(QIODevice::WriteOnly))
        return failed(target.errorString());
    ContentDigest hash;
    while (!source.atEnd()) {
        const QByteArray chunk = source.read(1 << 20);
        hash.addData(chunk);
        if (target.write(chunk) != chunk.size())
            return failed(target.errorString());
    }
    if (!expectedHash.isEmpty() && hash.hexResult() != expectedHash)
        return failed(u"blob %1 does not match its digest"_s.arg(QString::fromLatin1(expectedHash)));
    if (!target.commit())
        return failed(target.errorString());
    return {};
}

// The blob and its precompressed variants (<hash>.gz, ...) from one store to the other, the blob checked by digest:
// the blob's size, or NotFound when it is not (or no longer) in `from`.
Result<qint64> copyBlob(const BlobStore &from, const BlobStore &to, const QByteArray &hash)
{
    const QString source = from.pathOf(hash);
    if (source.isEmpty() || !QFileInfo::exists(source))
        return Error {Error::Kind::NotFound, u"blob %1 is missing"_s.arg(QString::fromLatin1(hash))};
    const QString target = QDir(to.rootDir()).filePath(QDir(from.rootDir()).relativeFilePath(source));
    if (const Result<void> copied = copyFile(source, target, hash); !copied)
        return copied.error();
    const QFileInfo info(source);
    for (const QFileInfo &variant :
        info.dir().entryInfoList({info.fileName() + u".*"_s}, QDir::Files | QDir::NoDotAndDotDot)) {
        if (!BlobStore::isValidSuffix(variant.suffix().toLatin1()))
            continue; // a temporary file of a write in progress
        const QString variantTarget = QFileInfo(target).dir().filePath(variant.fileName());
        if (const Result<void> copied = copyFile(variant.absoluteFilePath(), variantTarget, {}); !copied)
            return copied.error();
    }
    return info.size();
}

// Copies the blobs `database` references; NotFound when one is not (or no longer) in `from`.
Result<CopiedBlobs> copyBlobs(const QString &database, const QString &from, const QString &to)
{
    const Result<QSet<QByteArray>> blobs = referencedBlobs(database);
    if (!blobs)
        return blobs.error();
    const BlobStore source(from);
    const BlobStore target(to);
    CopiedBlobs copied;
    for (const QByteArray &hash : blobs.value()) {
        const Result<qint64> size = copyBlob(source, target, hash);
        if (!size)
            return size.error();
        ++copied.count;
        copied.bytes += size.value();
    }
    return copied;
}

// What to do instead with PostgreSQL, after the sentence that says why.
QString pgDumpAdvice(const QString &why)
{
    return why
        + u"\nBack it up with pg_dump, which holds everything, records and files:\n"
          "  pg_dump --format=custom --file berth.dump URL\n"
          "and bring it back into an empty database with:\n"
          "  pg_restore --dbname URL berth.dump\n"
          "The data folder is only this server's cache of the database's files: it needs no backup."_s;
}

// With PostgreSQL the records and the sites' files are in the database, and the data folder's SQLite file (if any)
// is an old one: copying it would be a backup of nothing current. That is so when the command is given a database
// (--database or BERTH_DATABASE), or when one of the folders it works on was last served from one (a folder is SQLite
// again once 'berthd serve' has run there without --database). Empty when the instance is on SQLite.
QString postgresqlRefusal(const QCommandLineParser &parser, const QString &command, const QStringList &folders)
{
    if (const QString url = Cli::databaseUrl(parser); !url.isEmpty()) {
        const Result<DatabaseUrl> parsed = DatabaseUrl::parse(url); // named without its password, if at all
        const QString database = parsed ? parsed.value().redacted() : u"a PostgreSQL database"_s;
        return pgDumpAdvice(
            u"'%1' works on SQLite only, and this instance is in %2 (--database or BERTH_DATABASE)."_s.arg(
                command, database));
    }
    for (const QString &folder : folders) {
        if (!folder.isEmpty() && DatabaseMarker::isPostgresql(folder))
            return pgDumpAdvice(u"'%1' works on SQLite only, and %2 belongs to an instance on PostgreSQL "
                                "(berthd serve --database ran there; its berth.sqlite, if any, is an old copy)."_s.arg(
                                    command, folder));
    }
    return {};
}

QString megabytes(qint64 bytes)
{
    return bytes < 1024 * 1024 ? QString::number(double(bytes) / 1024.0, 'f', 1) + u" KB"_s
                               : QString::number(double(bytes) / (1024.0 * 1024.0), 'f', 1) + u" MB"_s;
}

} // namespace

int backup(const QStringList &arguments)
{
    const Cli::Command command {u"backup"_s, u"DEST"_s,
        u"Copy an instance, running or stopped, into the folder DEST (new or empty):\n"
        "the database as one consistent snapshot, and every file it references, checked.\n"
        "SQLite only: an instance on PostgreSQL is backed up with pg_dump --format=custom."_s,
        1, 1};
    QCommandLineParser parser;
    if (const auto exit = Cli::parse(parser, arguments, command))
        return *exit;
    const QString dataDir = dataDirOf(parser);
    const QString dest = parser.positionalArguments().constFirst();
    if (const QString refusal = postgresqlRefusal(parser, command.name, {dataDir}); !refusal.isEmpty())
        return Cli::usageError(refusal, command.name);
    const QString database = QDir(dataDir).filePath(QLatin1String(kDatabaseName));
    if (!QFileInfo::exists(database))
        return Cli::failure(u"no Berth instance at %1"_s.arg(dataDir));
    if (!isEmptyOrAbsent(dest))
        return Cli::usageError(u"%1 is not empty: back up into a new or empty folder"_s.arg(dest), command.name);
    if (!QDir().mkpath(dest))
        return Cli::failure(u"cannot create %1"_s.arg(dest));

    const QString copy = QDir(dest).filePath(QLatin1String(kDatabaseName));
    QString error;
    for (int attempt = 1; attempt <= kSnapshotAttempts; ++attempt) {
        QDir(dest).removeRecursively();
        QDir().mkpath(dest);
        if (const Result<void> taken = snapshot(database, copy); !taken)
            return Cli::failure(u"cannot read the database: "_s + taken.error().message);
        const Result<CopiedBlobs> copied
            = copyBlobs(copy, QDir(dataDir).filePath(u"blobs"_s), QDir(dest).filePath(u"blobs"_s));
        if (copied) {
            Cli::out() << "Backed up " << dataDir << " to " << dest << ": " << copied.value().count << " files, "
                       << megabytes(copied.value().bytes) << "\n";
            Cli::out().flush();
            return ExitOk;
        }
        error = copied.error().message;
        if (copied.error().kind != Error::Kind::NotFound) // a missing blob was collected meanwhile: try again
            break;
    }
    QDir(dest).removeRecursively();
    return Cli::failure(u"backup failed: "_s + error);
}

int restore(const QStringList &arguments)
{
    const Cli::Command command {u"restore"_s, u"SRC"_s,
        u"Bring back a backup made by 'berthd backup' into --data-dir DIR (new or empty).\n"
        "Every file is checked against its digest; nothing is left behind on failure.\n"
        "SQLite only: a PostgreSQL dump is restored with pg_restore."_s,
        1, 1};
    QCommandLineParser parser;
    if (const auto exit = Cli::parse(parser, arguments, command))
        return *exit;
    const QString dataDir = parser.value(Cli::dataDirOption());
    const QString source = parser.positionalArguments().constFirst();
    if (const QString refusal = postgresqlRefusal(parser, command.name, {source, dataDir}); !refusal.isEmpty())
        return Cli::usageError(refusal, command.name);
    if (!parser.isSet(Cli::dataDirOption()))
        return Cli::usageError(u"restore needs --data-dir DIR: the new, empty data folder"_s, command.name);
    const QString database = QDir(source).filePath(QLatin1String(kDatabaseName));
    if (!QFileInfo::exists(database))
        return Cli::usageError(
            u"%1 is not a Berth backup (no %2)"_s.arg(source, QLatin1String(kDatabaseName)), command.name);
    if (!isEmptyOrAbsent(dataDir))
        return Cli::usageError(u"%1 is not empty: restore into a new or empty folder"_s.arg(dataDir), command.name);
    if (!QDir().mkpath(dataDir))
        return Cli::failure(u"cannot create %1"_s.arg(dataDir));

    const QString copy = QDir(dataDir).filePath(QLatin1String(kDatabaseName));
    const Result<void> taken = snapshot(database, copy);
    const Result<CopiedBlobs> copied = taken
        ? copyBlobs(copy, QDir(source).filePath(u"blobs"_s), QDir(dataDir).filePath(u"blobs"_s))
        : Result<CopiedBlobs>(taken.error());
    if (copied) {
        Cli::out() << "Restored " << source << " into " << dataDir << ": " << copied.value().count << " files, "
                   << megabytes(copied.value().bytes) << "\nStart it with: berthd serve --data-dir " << dataDir << "\n";
        Cli::out().flush();
        return ExitOk;
    }
    QDir(dataDir).removeRecursively();
    return Cli::failure(u"restore failed: "_s + copied.error().message);
}

} // namespace berth::BackupCommands
