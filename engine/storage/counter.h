#pragma once

#include <QDateTime>
#include <QString>

namespace berth {

// A named integer of a site, created by its first increment.
struct Counter
{
    QString name;
    qint64 value = 0;
    QDateTime createdAt; // UTC
    QDateTime updatedAt; // UTC
};

} // namespace berth
