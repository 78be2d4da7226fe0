#pragma once

#include <QStringList>

namespace berth::MigrateCommands {

// berthd migrate --from-sqlite DIR --database URL: the records of the instance in DIR (its berth.sqlite) copied into
// an empty PostgreSQL database, in one transaction, row counts verified. The files stay in DIR's blob store, which
// the server keeps using: berthd serve --data-dir DIR --database URL.
int migrate(const QStringList &arguments);

} // namespace berth::MigrateCommands
