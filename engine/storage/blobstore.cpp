#include "storage/blobstore.h"

#include "storage/blobbackend.h"
#include "storage/blobfiles.h"
#include "storage/contentdigest.h"
#include "storage/sqlhelpers.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

using blobfiles::PrivateFolder;
using blobfiles::ReadOnly;
using blobfiles::storedPattern;

constexpr QFileDevice::Permissions OthersAccess = QFileDevice::ReadGroup | QFileDevice::WriteGroup
    | QFileDevice::ExeGroup | QFileDevice::ReadOther | QFileDevice::WriteOther | QFileDevice::ExeOther;

Error writeFailure(const QString &message, bool noSpace)
{
    qCWarning(lcStorage).noquote() << message;
    return noSpace ? Error::insufficientStorage() : Error {Error::Kind::Internal, message};
}

const QRegularExpression &shardPattern()
{
    static const QRegularExpression pattern(u"^[0-9a-f]{2}$"_s);
    return pattern;
}

// blobfiles::writeWhole writes to "<final name>.XXXXXX" first (as QSaveFile did when it could not use an unnamed
// file); six characters, so never mistaken for a variant suffix, which is at most four.
const QRegularExpression &temporaryPattern()
{
    static const QRegularExpression pattern(u"^[0-9a-f]{62}(?:\\.[a-z0-9]{1,4})?\\.[A-Za-z0-9]{6}$"_s);
    return pattern;
}

// The length check first: a blob's name (62 characters in its shard folder) or a variant's is too short to be a
// temporary one, so the pattern runs only on the rare names that might be (a start with 10,000 blobs checks each).
bool isTemporaryName(const QString &name)
{
    constexpr qsizetype kShortestTemporary = 62 + 7; // the name, '.', six characters
    return name.size() >= kShortestTemporary && temporaryPattern().match(name).hasMatch();
}

QStringList shardFolders(const QString &root)
{
    QStringList folders;
    const QStringList names = QDir(root).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &name : names) {
        if (shardPattern().match(name).hasMatch())
            folders.append(root + u'/' + name);
    }
    return folders;
}

QStringList filesIn(const QString &folder)
{
    return QDir(folder).entryList(QDir::Files | QDir::Hidden | QDir::System);
}

} // namespace

const QRegularExpression &blobfiles::storedPattern()
{
    static const QRegularExpression pattern(u"^([0-9a-f]{62})(?:\\.([a-z0-9]{1,4}))?$"_s);
    return pattern;
}

BlobStore::BlobStore(const QString &rootDir)
    : m_root(QDir::cleanPath(QDir(rootDir).absolutePath()))
{
}

Result<void> BlobStore::init()
{
    if (!QDir().mkpath(m_root))
        return Error {Error::Kind::Internal, u"cannot create the blob folder %1"_s.arg(m_root)};
    QFile::setPermissions(m_root, PrivateFolder);
    for (const QString &folder : shardFolders(m_root)) {
        // A shard folder that is the owner's alone keeps everyone else out of its files whatever their modes, and
        // every file this Berth writes is read-only already: only a folder an older Berth left open to others has
        // its files tightened one by one. So a start with nothing to fix costs one stat per folder (at most 256),
        // not a syscall per blob (a start with 10,000 deployments must take under 300 ms).
        const bool open = (QFile::permissions(folder) & OthersAccess) != 0;
        if (open)
            QFile::setPermissions(folder, PrivateFolder);
        QDirIterator entries(folder, QDir::Files | QDir::Hidden | QDir::System);
        while (entries.hasNext()) {
            const QString path = entries.next();
            if (!isTemporaryName(entries.fileName())) {
                if (open)
                    QFile::setPermissions(path, ReadOnly);
                continue;
            }
            if (QFile::remove(path))
                qCInfo(lcStorage).noquote() << "removed an interrupted write:" << path;
            else
                qCWarning(lcStorage).noquote() << "cannot remove an interrupted write:" << path;
        }
    }
    return {};
}

QByteArray BlobStore::hashOf(const QByteArray &data)
{
    return ContentDigest::hexOf(data);
}

bool BlobStore::isValidHash(const QByteArray &hash)
{
    if (hash.size() != 64)
        return false;
    for (const char c : hash) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    }
    return true;
}

bool BlobStore::isValidSuffix(const QByteArray &suffix)
{
    if (suffix.isEmpty() || suffix.size() > 4)
        return false;
    for (const char c : suffix) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z')))
            return false;
    }
    return true;
}

Result<QByteArray> BlobStore::put(const QByteArray &data)
{
    const QByteArray hash = hashOf(data);
    // The shared copy first: a blob in the folder is then always one that every node can have.
    if (m_backend) {
        const Result<bool> stored = m_backend->store(hash, {}, data);
        if (!stored) {
            qCWarning(lcStorage).noquote()
                << "cannot store blob" << QLatin1String(hash) << "in the database:" << stored.error().message;
            return stored.error();
        }
        // Written again: a removal took its variants too. Those this folder holds go back with it.
        if (stored.value())
            restoreVariants(hash);
    }
    blobfiles::ShardFolders folders(m_root, true);
    if (const Result<bool> written = storeFile(folders, hash, {}, data, true); !written)
        return written.error();
    return hash;
}

bool BlobStore::contains(const QByteArray &hash) const
{
    const QString path = pathOf(hash);
    if (path.isEmpty())
        return false;
    if (QFileInfo::exists(path))
        return true;
    if (!m_backend)
        return false;
    const Result<bool> stored = m_backend->has(hash, {});
    if (!stored)
        qCWarning(lcStorage).noquote() << "cannot look for a blob in the database:" << stored.error().message;
    return stored && stored.value();
}

QString BlobStore::pathOf(const QByteArray &hash) const
{
    if (!isValidHash(hash))
        return {};
    return m_root + u'/' + QLatin1String(hash.left(2)) + u'/' + QLatin1String(hash.mid(2));
}

QByteArray BlobStore::read(const QByteArray &hash) const
{
    const QString path = pathOf(hash);
    if (path.isEmpty())
        return {};
    if (m_backend && !QFileInfo::exists(path) && !fetch(hash))
        return {};
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

Result<void> BlobStore::putVariant(const QByteArray &hash, const QByteArray &suffix, const QByteArray &data)
{
    if (!isValidSuffix(suffix))
        return Error {Error::Kind::Internal, u"invalid variant suffix"_s};
    if (!contains(hash))
        return Error {
            Error::Kind::Internal, u"no blob %1 to add a variant to"_s.arg(QString::fromLatin1(hash.left(64)))};
    if (m_backend) {
        if (const Result<bool> stored = m_backend->store(hash, suffix, data); !stored)
            return stored.error();
    }
    blobfiles::ShardFolders folders(m_root, true);
    if (const Result<bool> written = storeFile(folders, hash, suffix, data, true); !written)
        return written.error();
    return {};
}

QString BlobStore::variantPathOf(const QByteArray &hash, const QByteArray &suffix) const
{
    if (!isValidHash(hash) || !isValidSuffix(suffix))
        return {};
    const QString path = pathOf(hash) + u'.' + QLatin1String(suffix);
    return QFileInfo::exists(path) ? path : QString();
}

QList<QByteArray> BlobStore::variantsOf(const QByteArray &hash) const
{
    const QString path = pathOf(hash);
    if (path.isEmpty())
        return {};
    const QFileInfo blob(path);
    QList<QByteArray> suffixes;
    const QStringList names = blob.dir().entryList({blob.fileName() + u".*"_s}, QDir::Files | QDir::Hidden);
    for (const QString &name : names) {
        const QRegularExpressionMatch match = storedPattern().match(name);
        if (match.hasMatch() && !match.captured(2).isEmpty())
            suffixes.append(match.captured(2).toLatin1());
    }
    return suffixes;
}

int BlobStore::collectGarbage(const QSet<QByteArray> &keep)
{
    int removed = 0;
    for (const QString &folder : shardFolders(m_root)) {
        const QByteArray prefix = QFileInfo(folder).fileName().toLatin1();
        for (const QString &name : filesIn(folder)) {
            const QRegularExpressionMatch match = storedPattern().match(name);
            if (!match.hasMatch())
                continue; // temporary files may belong to a put() in progress; init() clears crash leftovers
            if (keep.contains(prefix + match.captured(1).toLatin1()))
                continue;
            const bool isBlob = match.captured(2).isEmpty();
            const QString path = folder + u'/' + name;
            if (!QFile::remove(path)) {
                qCWarning(lcStorage).noquote() << "cannot remove unreferenced blob file" << path;
                continue;
            }
            forget(path);
            if (isBlob)
                ++removed;
        }
    }
    if (m_backend) {
        // Only blobs stored a while ago: another node may be between storing and committing a deploy.
        const Result<int> shared = m_backend->removeAllExcept(keep);
        if (!shared)
            qCWarning(lcStorage).noquote() << "cannot sweep the database's blobs:" << shared.error().message;
        else if (shared.value() > 0)
            qCInfo(lcStorage).noquote() << "removed" << shared.value() << "unreferenced blobs from the database";
    }
    return removed;
}

BlobStore::Removal BlobStore::remove(const QByteArray &hash, const QList<QByteArray> &variantSuffixes)
{
    const QString path = pathOf(hash);
    if (path.isEmpty())
        return Removal::Failed;
    Removal result = Removal::Removed;
    // Each file by its name: reading the shard folder (about 1/256 of the store) for each of a site's thousands of
    // blobs made a removal cost the store's size.
    const auto removeFile = [&](const QString &file) {
        const int error = ::unlink(QFile::encodeName(file).constData()) == 0 ? 0 : errno;
        if (error != 0 && error != ENOENT) {
            qCWarning(lcStorage).noquote() << "cannot remove unreferenced blob file" << file << qt_error_string(error);
            result = Removal::Failed;
        }
        forget(file);
    };
    for (const QByteArray &suffix : variantSuffixes) {
        if (isValidSuffix(suffix))
            removeFile(path + u'.' + QLatin1String(suffix));
    }
    removeFile(path);
    // The folder is only a cache of what the backend keeps: it comes back from there if a site uses it again.
    if (m_backend) {
        const Result<bool> removed = m_backend->remove(hash);
        if (!removed) {
            qCWarning(lcStorage).noquote() << "cannot remove a blob from the database:" << removed.error().message;
            return Removal::Failed;
        }
        if (!removed.value() && result == Removal::Removed)
            result = Removal::Kept;
    }
    return result;
}

QString BlobStore::rootDir() const
{
    return m_root;
}

Result<bool> BlobStore::storeFile(blobfiles::ShardFolders &folders, const QByteArray &hash, const QByteArray &suffix,
    const QByteArray &data, bool flush) const
{
    const QByteArray name = suffix.isEmpty() ? hash.mid(2) : hash.mid(2) + '.' + suffix;
    const auto path = [&] { return m_root + u'/' + QLatin1String(hash.left(2)) + u'/' + QLatin1String(name); };
    const auto failed = [&](const QString &step, int code) {
        return writeFailure(
            u"cannot %1 %2: %3"_s.arg(step, path(), qt_error_string(code)), code == ENOSPC || code == EDQUOT);
    };
    if (m_writeFault) {
        if (const int code = m_writeFault(path()); code != 0)
            return failed(u"write"_s, code);
    }
    const int folder = folders.open(hash);
    if (folder < 0)
        return failed(u"open the folder of"_s, -folder);
    // A file at its final name is always whole (it got there by rename), so same size means same bytes. One stat,
    // the only call a blob that is there already costs.
    struct stat existing = {};
    if (::fstatat(folder, name.constData(), &existing, 0) == 0) {
        if (existing.st_size == data.size())
            return false;
        // A blob of the wrong size is damaged; a variant's bytes depend on the compressor: the newest write wins.
        if (suffix.isEmpty())
            qCWarning(lcStorage).noquote() << "replacing a damaged blob" << path();
        ::unlinkat(folder, name.constData(), 0);
    }
    if (const int code = blobfiles::writeWhole(folder, name, data, flush); code != 0)
        return failed(u"write"_s, code);
    if (m_backend) {
        noteUse(path(), data.size());
        trimCache(path());
    }
    return true;
}

} // namespace berth
