#include "instance/datadirlock.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
// The engine's rule: an empty setting means the application's data location.
QString resolved(const QString &dataDir)
{
    return dataDir.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) : dataDir;
}

// berth and berthd share an application name (and so their data folder): the lock file's name for the
// holder cannot tell them apart, the kernel's can.
QString programName(qint64 pid, const QString &fallback)
{
    QFile comm(u"/proc/%1/comm"_s.arg(pid));
    if (comm.open(QIODevice::ReadOnly)) {
        const QString name = QString::fromLocal8Bit(comm.readAll()).trimmed();
        if (!name.isEmpty())
            return name;
    }
    return fallback;
}
} // namespace

DataDirLock::DataDirLock(const QString &dataDir)
    : m_dataDir(resolved(dataDir))
    , m_lock(QDir(m_dataDir).filePath(u"berth.lock"_s))
{
    // A running server holds its lock for days: age must never make it look stale. A lock whose
    // process is gone is still recognised as stale (QLockFile checks the pid on this host).
    m_lock.setStaleLockTime(0);
}

DataDirLock::~DataDirLock() = default;

bool DataDirLock::tryLock()
{
    m_holderPid = 0;
    m_holderName.clear();
    m_error.clear();
    if (m_lock.isLocked())
        return true;
    if (!QDir().mkpath(m_dataDir)) {
        m_error = u"Cannot create the data directory %1"_s.arg(m_dataDir);
        return false;
    }
    if (m_lock.tryLock(0))
        return true;
    if (m_lock.error() == QLockFile::LockFailedError) {
        QString host;
        m_lock.getLockInfo(&m_holderPid, &host, &m_holderName);
        if (m_holderPid > 0)
            m_holderName = programName(m_holderPid, m_holderName);
        m_error = m_holderPid > 0 ? u"The data directory %1 is in use by %2 (pid %3)"_s.arg(m_dataDir,
                      m_holderName.isEmpty() ? u"another process"_s : m_holderName, QString::number(m_holderPid))
                                  : u"The data directory %1 is in use by another process"_s.arg(m_dataDir);
    } else {
        m_error = u"Cannot lock the data directory %1"_s.arg(m_dataDir);
    }
    return false;
}

} // namespace berth
