#pragma once

#include "core/error.h"

#include <QByteArrayView>
#include <QString>

namespace berth {

// Where the access log's lines land: a file private to the user (0600, in a folder made 0700), started afresh
// each UTC day (access.log becomes access.log.1, .1 becomes .2, ... and the ones beyond keepDays go), or standard
// output for "-". Only files are rotated or have their mode set: a device such as /dev/null is written as it is.
// Used by the access log's writer thread alone.
class AccessLogFile final
{
public:
    AccessLogFile(QString path, int keepDays);
    ~AccessLogFile();
    Q_DISABLE_COPY_MOVE(AccessLogFile)

    // Opens (or creates) it; a file left by an earlier day is rotated first. nowMs: UTC.
    Result<void> open(qint64 nowMs);
    // Before each write: on a later UTC day than the file's first line, rotates and opens a new file; opens again
    // a file that could not be opened last time.
    Result<void> prepare(qint64 nowMs);
    // Writes all of bytes, or returns how many went before an error (errno in *error).
    qint64 write(QByteArrayView bytes, int *error);

    bool isOpen() const { return m_fd >= 0; }

private:
    Result<void> openFile();
    void rotate();
    void close();

    const QString m_path;
    const int m_keepDays;
    int m_fd = -1;
    bool m_rotates = false; // a regular file of ours, not standard output or a device
    qint64 m_day = 0; // the UTC day (days since the epoch) of the file's first line
};

} // namespace berth
