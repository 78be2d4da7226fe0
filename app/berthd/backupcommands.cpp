#include "backupcommands.h"

#include "cli.h"
#include "storage/blobstore.h"
#include "storage/database.h"
#include "storage/deploymentrepository.h"

#include <QCryptographicHash>
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

enum class Copied
{
    Ok,
    Missing,
    Failed
};

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
bool snapshot(const QString &from, const QString &to, QString *error)
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
    if (!ok)
        *error = QString::fromUtf8(sqlite3_errmsg(target ? target : source));
    sqlite3_close(source);
    sqlite3_close(target);
    return ok;
}

// Every blob the database at `path` references.
bool referencedBlobs(const QString &path, QSet<QByteArray> *blobs, QString *error)
{
    Database database(path);
    if (const Result<void> opened = database.open(); !opened) {
        *error = opened.error().message;
        return false;
    }
    const auto referenced = DeploymentRepository(database).referencedBlobs();
    if (!referenced) { // fail closed: a backup that would leave blobs out is no backup
        *error = u"Cannot read which files the database references"_s;
        return false;
    }
    *blobs = referenced.value();
    return true;
}

bool copyFile(const QString &from, const QString &to, const QByteArray &expectedHash, QString *error)
{
    QFile source(from);
    if (!source.open(QIODevice::ReadOnly)) {
        *error = source.errorString();
        return false;
    }
    QDir().mkpath(QFileInfo(to).absolutePath());
    QSaveFile target(to);
    if (!target.open(QIODevice::WriteOnly)) {
        *error = target.errorString();
        return false;
    }
    QCryptographicHash hash(QCryptographicHash::Sha256);
    while (!source.atEnd()) {
        const QByteArray chunk = source.read(1 << 20);
        hash.addData(chunk);
        if (target.write(chunk) != chunk.size()) {
            *error = target.errorString();
            return false;
        }
    }
    if (!expectedHash.isEmpty() && hash.result().toHex() != expectedHash) {
        *error = u"blob %1 does not match its digest"_s.arg(QString::fromLatin1(expectedHash));
        return false;
    }
    return target.commit() || (*error = target.errorString(), false);
}

// The blob and its precompressed variants (<hash>.gz, ...) from one store to the other, the blob checked by digest.
Copied copyBlob(const BlobStore &from, const BlobStore &to, const QByteArray &hash, qint64 *bytes, QString *error)
{
    const QString source = from.pathOf(hash);
    if (source.isEmpty() || !QFileInfo::exists(source))
        return Copied::Missing;
    const QString target = QDir(to.rootDir()).filePath(QDir(from.rootDir()).relativeFilePath(source));
    if (!copyFile(source, target, hash, error))
        return Copied::Failed;
    *bytes += QFileInfo(source).size();
    const QFileInfo info(source);
    for (const QFileInfo &variant :
        info.dir().entryInfoList({info.fileName() + u".*"_s}, QDir::Files | QDir::NoDotAndDotDot)) {
        if (!BlobStore::isValidSuffix(variant.suffix().toLatin1()))
            continue; // a temporary file of a write in progress
        if (!copyFile(variant.absoluteFilePath(), QFileInfo(target).dir().filePath(variant.fileName()), {}, error))
            return Copied::Failed;
    }
    return Copied::Ok;
}

// Copies the blobs `database` references; Missing when one is not (or no longer) in `from`.
Copied copyBlobs(
    const QString &database, const QString &from, const QString &to, int *count, qint64 *bytes, QString *error)
{
    QSet<QByteArray> blobs;
    if (!referencedBlobs(database, &blobs, error))
        return Copied::Failed;
    const BlobStore source(from);
    const BlobStore target(to);
    *count = 0;
    *bytes = 0;
    for (const QByteArray &hash : std::as_const(blobs)) {
        const Copied copied = copyBlob(source, target, hash, bytes, error);
        if (copied == Copied::Missing)
            *error = u"blob %1 is missing"_s.arg(QString::fromLatin1(hash));
        if (copied != Copied::Ok)
            return copied;
        ++*count;
    }
    return Copied::Ok;
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
        "the database as one consistent snapshot, and every file it references, checked."_s,
        1, 1};
    QCommandLineParser parser;
    if (const auto exit = Cli::parse(parser, arguments, command))
        return *exit;
    const QString dataDir = dataDirOf(parser);
    const QString dest = parser.positionalArguments().constFirst();
    const QString database = QDir(dataDir).filePath(QLatin1String(kDatabaseName));
    if (!QFileInfo::exists(database))
        return Cli::failure(u"no Berth instance at %1"_s.arg(dataDir));
    if (!isEmptyOrAbsent(dest))
        return Cli::usageError(u"%1 is not empty: back up into a new or empty folder"_s.arg(dest), command.name);
    if (!QDir().mkpath(dest))
        return Cli::failure(u"cannot create %1"_s.arg(dest));

    const QString copy = QDir(dest).filePath(QLatin1String(kDatabaseName));
    QString error;
    int count = 0;
    qint64 bytes = 0;
    for (int attempt = 1; attempt <= kSnapshotAttempts; ++attempt) {
        QDir(dest).removeRecursively();
        QDir().mkpath(dest);
        if (!snapshot(database, copy, &error))
            return Cli::failure(u"cannot read the database: "_s + error);
        const Copied copied = copyBlobs(
            copy, QDir(dataDir).filePath(u"blobs"_s), QDir(dest).filePath(u"blobs"_s), &count, &bytes, &error);
        if (copied == Copied::Ok) {
            Cli::out() << "Backed up " << dataDir << " to " << dest << ": " << count << " files, " << megabytes(bytes)
                       << "\n";
            Cli::out().flush();
            return ExitOk;
        }
        if (copied == Copied::Failed)
            break;
    }
    QDir(dest).removeRecursively();
    return Cli::failure(u"backup failed: "_s + error);
}

int restore(const QStringList &arguments)
{
    const Cli::Command command {u"restore"_s, u"SRC"_s,
        u"Bring back a backup made by 'berthd backup' into --data-dir DIR (new or empty).\n"
        "Every file is checked against its digest; nothing is left behind on failure."_s,
        1, 1};
    QCommandLineParser parser;
    if (const auto exit = Cli::parse(parser, arguments, command))
        return *exit;
    if (!parser.isSet(Cli::dataDirOption()))
        return Cli::usageError(u"restore needs --data-dir DIR: the new, empty data folder"_s, command.name);
    const QString dataDir = parser.value(Cli::dataDirOption());
    const QString source = parser.positionalArguments().constFirst();
    const QString database = QDir(source).filePath(QLatin1String(kDatabaseName));
    if (!QFileInfo::exists(database))
        return Cli::usageError(
            u"%1 is not a Berth backup (no %2)"_s.arg(source, QLatin1String(kDatabaseName)), command.name);
    if (!isEmptyOrAbsent(dataDir))
        return Cli::usageError(u"%1 is not empty: restore into a new or empty folder"_s.arg(dataDir), command.name);
    if (!QDir().mkpath(dataDir))
        return Cli::failure(u"cannot create %1"_s.arg(dataDir));

    QString error;
    int count = 0;
    qint64 bytes = 0;
    const QString copy = QDir(dataDir).filePath(QLatin1String(kDatabaseName));
    if (snapshot(database, copy, &error)
        && copyBlobs(
               copy, QDir(source).filePath(u"blobs"_s), QDir(dataDir).filePath(u"blobs"_s), &count, &bytes, &error)
            == Copied::Ok) {
        Cli::out() << "Restored " << source << " into " << dataDir << ": " << count << " files, " << megabytes(bytes)
                   << "\nStart it with: berthd serve --data-dir " << dataDir << "\n";
        Cli::out().flush();
        return ExitOk;
    }
    QDir(dataDir).removeRecursively();
    return Cli::failure(u"restore failed: "_s + error);
}

} // namespace berth::BackupCommands
