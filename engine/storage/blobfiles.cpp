// How BlobStore writes its files: whole or not at all, flushed one by one or together by one syncfs(2).
#include "storage/blobfiles.h"

#include <QFile>
#include <QRandomGenerator>
#include <atomic>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace berth {

namespace {

// Six characters of [A-Za-z0-9]: what BlobStore::init() takes for a write a crash interrupted.
QByteArray temporaryTag()
{
    static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    QByteArray tag(6, '\0');
    for (char &c : tag)
        c = kAlphabet[QRandomGenerator::global()->bounded(62)];
    return tag;
}

int writeAll(int fd, const QByteArray &data)
{
    qsizetype offset = 0;
    while (offset < data.size()) {
        const ssize_t n = ::write(fd, data.constData() + offset, static_cast<size_t>(data.size() - offset));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? errno : EIO;
        offset += n;
    }
    return 0;
}

int hexValue(char c)
{
    return c <= '9' ? c - '0' : c - 'a' + 10;
}

} // namespace

bool blobfiles::syncDirectory(const QString &path)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = ::fsync(fd) == 0;
    ::close(fd);
    return ok;
}

namespace {

// Writes data as an unnamed file in the folder (O_TMPFILE) and names it once whole: the folder gains one entry where a
// temporary name costs an entry, a rename and a lookup more, and a crash mid-write leaves nothing behind. Durable only
// after the next syncfs(2). 0, the errno of the step that failed, or -1 where the file system or /proc cannot do it.
int writeUnnamed(int folder, const QByteArray &name, const QByteArray &data)
{
    const int fd = ::openat(folder, ".", O_WRONLY | O_TMPFILE | O_CLOEXEC, S_IRUSR);
    if (fd < 0)
        return errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL ? -1 : errno;
    int error = writeAll(fd, data);
    if (error == 0) {
        // Without CAP_DAC_READ_SEARCH only the /proc link can name an unnamed file.
        const QByteArray self = "/proc/self/fd/" + QByteArray::number(fd);
        if (::linkat(AT_FDCWD, self.constData(), folder, name.constData(), AT_SYMLINK_FOLLOW) != 0) {
            // A concurrent put of the same content named its copy first: same bytes.
            error = errno == EEXIST ? 0 : errno == ENOENT ? -1 : errno;
        }
    }
    if (::close(fd) != 0 && error == 0)
        error = errno;
    return error;
}

} // namespace

int blobfiles::writeWhole(int folder, const QByteArray &name, const QByteArray &data, bool flush)
{
    if (!flush) {
        static std::atomic<bool> unnamedWorks {true};
        if (unnamedWorks.load(std::memory_order_relaxed)) {
            const int error = writeUnnamed(folder, name, data);
            if (error >= 0)
                return error;
            unnamedWorks.store(false, std::memory_order_relaxed);
        }
    }
    QByteArray temporary;
    int fd = -1;
    for (int attempt = 0; fd < 0 && attempt < 8; ++attempt) { // another writer's tag: draw again
        temporary = name + '.' + temporaryTag();
        // Read-only from its creation: no chmod afterwards.
        fd = ::openat(folder, temporary.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, S_IRUSR);
        if (fd < 0 && errno != EEXIST)
            return errno;
    }
    if (fd < 0)
        return EEXIST;
    int error = writeAll(fd, data);
    if (error == 0 && flush && ::fdatasync(fd) != 0)
        error = errno;
    if (::close(fd) != 0 && error == 0)
        error = errno;
    // A concurrent put of the same content may have renamed its copy in first: this one replaces it, same bytes.
    if (error == 0 && ::renameat(folder, temporary.constData(), folder, name.constData()) != 0)
        error = errno;
    if (error != 0) {
        ::unlinkat(folder, temporary.constData(), 0);
        return error;
    }
    if (flush && ::fsync(folder) != 0)
        return errno;
    return 0;
}

int blobfiles::syncFileSystem(const QString &path)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    const int error = ::syncfs(fd) == 0 ? 0 : errno;
    ::close(fd);
    return error;
}

blobfiles::ShardFolders::ShardFolders(const QString &root, bool flushEach)
    : m_root(root)
    , m_flushEach(flushEach)
{
    m_fds.fill(-1);
}

blobfiles::ShardFolders::~ShardFolders()
{
    for (const int fd : m_fds) {
        if (fd >= 0)
            ::close(fd);
    }
}

int blobfiles::ShardFolders::open(const QByteArray &hash)
{
    int &fd = m_fds[static_cast<size_t>(hexValue(hash.at(0)) * 16 + hexValue(hash.at(1)))];
    if (fd >= 0)
        return fd;
    const QByteArray path = QFile::encodeName(m_root) + '/' + hash.left(2);
    fd = ::open(path.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0)
        return fd;
    if (errno != ENOENT)
        return -errno;
    // The owner's alone, like the root.
    if (::mkdir(path.constData(), S_IRWXU) != 0 && errno != EEXIST)
        return -errno;
    if (m_flushEach && !syncDirectory(m_root))
        return -errno;
    fd = ::open(path.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    return fd >= 0 ? fd : -errno;
}

} // namespace berth
