#include "http/accesslogfile.h"

#include <QDir>
#include <QFileInfo>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

constexpr qint64 kMsPerDay = 24 * 3600 * 1000;
// Rotated files beyond the number kept (left by a larger keepDays earlier) are removed up to this far.
constexpr int kStaleRotationsChecked = 400;

qint64 dayOf(qint64 ms)
{
    return ms / kMsPerDay;
}

QByteArray numbered(const QString &path, int n)
{
    return QFile::encodeName(path + u'.' + QString::number(n));
}

} // namespace

AccessLogFile::AccessLogFile(QString path, int keepDays)
    : m_path(std::move(path))
    , m_keepDays(qMax(0, keepDays))
{
}

AccessLogFile::~AccessLogFile()
{
    close();
}

Result<void> AccessLogFile::open(qint64 nowMs)
{
    m_day = dayOf(nowMs);
    if (m_path == u"-"_s) {
        m_fd = STDOUT_FILENO;
        return {};
    }
    const QFileInfo info(m_path);
    const QString folder = info.absolutePath();
    if (!QFileInfo::exists(folder)) {
        if (!QDir().mkpath(folder))
            return Error {Error::Kind::Internal, u"Cannot create the folder of the access log %1"_s.arg(m_path)};
        ::chmod(QFile::encodeName(folder).constData(), 0700); // the log names every visitor's address
    }
    if (Result<void> opened = openFile(); !opened)
        return opened;
    struct stat status
    {
    };
    // A file left by an earlier day (the server was stopped over midnight) starts that day's rotation now.
    if (m_rotates && ::fstat(m_fd, &status) == 0 && status.st_size > 0) {
        m_day = dayOf(qint64(status.st_mtime) * 1000);
        return prepare(nowMs);
    }
    return {};
}

Result<void> AccessLogFile::openFile()
{
    const QByteArray name = QFile::encodeName(m_path);
    m_fd = ::open(name.constData(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (m_fd < 0)
        return Error {Error::Kind::Internal,
            u"Cannot open the access log %1: %2"_s.arg(m_path, QString::fromLocal8Bit(std::strerror(errno)))};
    struct stat status
    {
    };
    m_rotates = ::fstat(m_fd, &status) == 0 && S_ISREG(status.st_mode);
    if (m_rotates)
        ::fchmod(m_fd, 0600); // also a file an older version or the user made with wider rights
    return {};
}

Result<void> AccessLogFile::prepare(qint64 nowMs)
{
    if (m_fd < 0) // a rotation could not open the new file: try again
        return openFile();
    const qint64 today = dayOf(nowMs);
    if (today <= m_day || !m_rotates)
        return {};
    m_day = today;
    close();
    rotate();
    return openFile();
}

void AccessLogFile::rotate()
{
    const QByteArray name = QFile::encodeName(m_path);
    for (int n = m_keepDays + 1; n <= m_keepDays + kStaleRotationsChecked; ++n) {
        if (::unlink(numbered(m_path, n).constData()) != 0)
            break;
    }
    if (m_keepDays == 0) {
        ::unlink(name.constData());
        return;
    }
    ::unlink(numbered(m_path, m_keepDays).constData());
    for (int n = m_keepDays - 1; n >= 1; --n)
        ::rename(numbered(m_path, n).constData(), numbered(m_path, n + 1).constData());
    ::rename(name.constData(), numbered(m_path, 1).constData());
}

qint64 AccessLogFile::write(QByteArrayView bytes, int *error)
{
    qint64 written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(m_fd, bytes.data() + written, size_t(bytes.size() - written));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            *error = n < 0 ? errno : EIO;
            return written;
        }
        written += n;
    }
    return written;
}

void AccessLogFile::close()
{
    if (m_fd > STDOUT_FILENO + 1) // never standard output (or error)
        ::close(m_fd);
    m_fd = -1;
}

} // namespace berth
