#pragma once

// Private to berth_storage: how BlobStore lays out its files, shared by its two source files.

#include "storage/blobstore.h"

#include <QElapsedTimer>
#include <QFileDevice>
#include <QHash>
#include <QMutex>
#include <QRegularExpression>
#include <QString>
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
