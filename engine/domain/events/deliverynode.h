#pragma once

#include <QString>

namespace berth {

// Who sends webhook deliveries, as their leases name it: one run of one server. A server is a data folder on a machine
// (one process at a time holds a data folder), so its name stays the same across restarts and no two live servers
// share it; a run adds a random part, which tells what this process claimed from what an earlier run of the same
// server left when it died.
struct DeliveryNode
{
    QString name; // a digest of the machine's host name and the data folder's path: no path in the database
    QString run; // name + '/' + a random part

    static DeliveryNode forDataFolder(const QString &dataDir);
};

} // namespace berth
