#pragma once

// This process's resident memory, for tests that bound what a server keeps while it streams (the engine runs in the
// test's own process).
#include <QByteArray>
#include <QFile>
#include <QString>

namespace berth::test {

// Resident memory of this process in KiB, from /proc/self/status; -1 when it cannot be read.
inline qint64 residentKiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    }
    return -1;
}

} // namespace berth::test
