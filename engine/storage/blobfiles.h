#pragma once

// Private to berth_storage: how BlobStore lays out its files, shared by its two source files.

#include "storage/blobstore.h"

#include <QElapsedTimer>
#include <QFileDevice>
#include <QHash>
#include <QMutex>
#include <QRegularExpression>
#include <QString>
#include <array>
#include <memory>

namespace berth::blobfiles {

// Blobs are the owner's alone (private sites' files among them) and read-only; folders likewise.
constexpr QFileDevice::Permissions ReadOnly = QFileDevice::ReadOwner | QFileDevice::ReadUser;
constexpr QFileDevice::Permissions PrivateFolder = QFileDevice::ReadOwner | QFileDevice::WriteOwner
    | QFileDevice::ExeOwner | QFileDevice::ReadUser | QFileDevice::WriteUser | QFileDevice::ExeUser;

// Inside a shard folder: "<62 hex>" is a blob, "<62 hex>.<suffix>" one of its variants.
const QRegularExpression &storedPattern();
// Makes a directory entry (a renamed-in file, a new folder) durable: fsync of the file alone does not cover it.
bool syncDirectory(const QString &path);

// Writes data as the read-only file `name` in the open folder, named only once whole, so a reader or a crash sees all
// of it or nothing: without flush an unnamed file (O_TMPFILE) linked in, durable after the next syncFileSystem();
// with flush (or where the file system has no unnamed files) a temporary file renamed, its bytes and its name durable
// on return. 0, or the errno of the step that failed.
int writeWhole(int folder, const QByteArray &name, const QByteArray &data, bool flush);
// Makes everything written to the file system that holds path durable: one syncfs(2) for a batch of files instead of
// two flushes per file. 0, or the errno (EIO when an earlier write-back failed).
int syncFileSystem(const QString &path);

// The shard folders of a store, opened (and made, private, when missing) once each and kept open for *at calls: a
// batch of blobs pays one open per folder, not a path walk per file. A new folder is durable at once with
// flushEach, else after the next syncFileSystem().
class ShardFolders final
{
    Q_DISABLE_COPY_MOVE(ShardFolders)
public:
    ShardFolders(const QString &root, bool flushEach);
    ~ShardFolders();
    // The folder of the hash's first two hex characters (a valid hash), or -errno.
    int open(const QByteArray &hash);

private:
    const QString m_root;
    const bool m_flushEach;
    std::array<int, 256> m_fds;
};

} // namespace berth::blobfiles

namespace berth {

// What BlobStore knows of its folder as a cache (with a backend only).
struct BlobStore::Cache
{
    struct Entry
    {
        qint64 size = 0;
        qint64 lastUseMs = -1; // on `clock`; -1: not used since the start
    };
    qint64 limitBytes = 0;
    int recentUseMs = 0;
    QElapsedTimer clock;

    QMutex lock; // guards what follows
    QHash<QString, Entry> entries; // by file path
    qint64 bytes = 0;
    bool scanned = false; // whether entries covers the files that were there before the start too

    QMutex trimming; // one trim at a time; others skip theirs
    // One fetch per file at a time: visitors asking for the same cold file wait for the first fetch rather than each
    // copying it again. Guarded by lock.
    QHash<QString, std::shared_ptr<QMutex>> fetching;
};

} // namespace berth
