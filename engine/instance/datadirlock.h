#pragma once

#include <QLockFile>
#include <QString>

namespace berth {

// One data folder belongs to one process: berth and berthd take this lock before they open the
// database, so that two servers never drift apart over the same files. The lock lives as long as
// the object; a lock left by a process that died is taken over.
class DataDirLock final
{
public:
    // An empty dataDir means the engine's default (the application's data location).
    explicit DataDirLock(const QString &dataDir);
    ~DataDirLock();
    Q_DISABLE_COPY_MOVE(DataDirLock)

    // Creates the folder if needed. False when another process holds the lock (or the folder is unusable:
    // then holderPid() is 0 and error() says why).
    bool tryLock();
    bool isLocked() const { return m_lock.isLocked(); }
    QString dataDir() const { return m_dataDir; }

    // The process that holds the lock, when tryLock() failed because of it: its pid (0 when unknown)
    // and program name.
    qint64 holderPid() const { return m_holderPid; }
    QString holderName() const { return m_holderName; }
    // Why tryLock() failed, in a sentence that names the holder or the folder.
    QString error() const { return m_error; }

private:
    QString m_dataDir;
    QLockFile m_lock;
    qint64 m_holderPid = 0;
    QString m_holderName;
    QString m_error;
};

} // namespace berth
