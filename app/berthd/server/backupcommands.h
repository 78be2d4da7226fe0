#pragma once

#include <QStringList>

namespace berth::BackupCommands {

// berthd backup DEST [--data-dir DIR]: a consistent copy of an instance, running or stopped: the database through
// SQLite's online backup API (one snapshot, while the server keeps writing), then every blob that snapshot
// references, each checked against its SHA-256 name, with its precompressed variants.
int backup(const QStringList &arguments);

// berthd restore SRC --data-dir DIR: a backup brought back into an empty data folder, every blob checked again.
int restore(const QStringList &arguments);

} // namespace berth::BackupCommands
