#pragma once

#include "core/error.h"

#include <QString>

namespace berth::DatabaseMarker {

// Which database the server of a data folder last served from, for the commands that work on the folder alone
// (berthd backup, restore): once a server has run on PostgreSQL, the folder's berth.sqlite (kept after a migrate) is
// an old copy and its blobs only a cache, so copying them would be a backup of nothing current. Engine::start()
// records it: a private file in the folder that names the backend, never the URL or its password; a start on SQLite
// removes it again.
Result<void> record(const QString &dataDir, bool postgresql);
// Whether the folder's last server used PostgreSQL. Any marker file counts, even a damaged one: fail closed.
bool isPostgresql(const QString &dataDir);
QString fileName(); // the marker's name inside the data folder

} // namespace berth::DatabaseMarker
