#pragma once

#include "core/error.h"
#include "domain/deploy/folderfiles.h"
#include "domain/deploy/publishchecks.h"

#include <QByteArray>
#include <QHash>
#include <QString>

namespace berth {

// The SHA-256 digests of one folder's files, and what the pre-publish checks' secret scan found in them, kept between
// publishes so that a redeploy reads only the files that changed. One cache file per folder under the user's cache
// folder, named after the folder's canonical path and holding that path: a cache is never used for another folder. A
// digest is used only for the same relative path with an identical stamp, and only when the file had not been touched
// since the digests were taken (a change in that same clock tick could keep every field of the stamp: git's "racy"
// case), so such a file is read again. A missing, unreadable, oversized or damaged cache file (it ends with a SHA-256
// of its contents) counts as empty. Not thread-safe: one reader of the folder at a time uses it.
class DigestCache final : public PublishChecks::SecretMemory
{
public:
    // A cache of the files of folder (any path to it), kept in cacheFolder; takenAtNs: when this reading of the
    // folder began, by the clock file times come from (coarseNow()).
    static DigestCache load(
        const QString &folder, const QString &cacheFolder = defaultFolder(), qint64 takenAtNs = coarseNow());

    // $XDG_CACHE_HOME/berth/digests (~/.cache/berth/digests).
    static QString defaultFolder();
    // The cache file of a folder (its canonical path) in cacheFolder.
    static QString fileFor(const QString &cacheFolder, const QString &canonicalFolder);
    // The clock the kernel stamps file times with (CLOCK_REALTIME_COARSE), in nanoseconds.
    static qint64 coarseNow();

    // The digest recorded for relativePath with exactly this stamp; empty when there is none to trust.
    QByteArray digestOf(const QString &relativePath, const FileStamp &stamp) const;
    // The digest of relativePath as read now, with the stamp taken before it was read.
    void remember(const QString &relativePath, const FileStamp &stamp, const QByteArray &digest);

    std::optional<Scan> recall(const FolderFile &file) const override;
    void keep(const FolderFile &file, Scan scan) override;

    // Writes what was remembered (files not remembered this time are forgotten), atomically, readable by the user
    // alone, and removes the oldest caches of other folders beyond kMaxFolders. Internal on a write failure.
    Result<void> save() const;

    int size() const { return int(m_remembered.size()); } // files remembered
    QString file() const { return m_file; }

    static constexpr int kMaxFolders = 64; // cache files kept; the least recently written go first
    static constexpr qint64 kMaxFileBytes = 16 * 1024 * 1024; // larger cache files are ignored

private:
    static constexpr qint8 kUnscanned = -2;
    static constexpr qint8 kNoSecret = -1;
    struct Entry
    {
        FileStamp stamp;
        QByteArray digest; // 64 lower-case hex digits; empty until the file is read
        qint8 secret = kUnscanned; // else kNoSecret or a PublishIssue::Finding
    };

    // The loaded entry of relativePath when it may be trusted for a file of this stamp.
    const Entry *trusted(const QString &relativePath, const FileStamp &stamp) const;
    // The entry to record relativePath as of stamp in, emptied when it recorded another stamp.
    Entry &current(const QString &relativePath, const FileStamp &stamp);
    void read();
    void pruneOthers() const;

    QString m_folder; // canonical
    QString m_cacheFolder;
    QString m_file;
    qint64 m_takenAtNs = 0;
    qint64 m_loadedTakenAtNs = 0; // when the digests of the file loaded were taken
    QHash<QString, Entry> m_loaded;
    QHash<QString, Entry> m_remembered;
};

} // namespace berth
