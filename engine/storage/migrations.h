#pragma once

#include <QList>
#include <QStringList>

namespace berth {

// One forward step of the schema. Statements run in order inside one transaction together with the
// schema_version bookkeeping, so a step is applied entirely or not at all.
struct Migration
{
    int version = 0;
    QStringList statements;
};

// The schema of a Berth instance, oldest step first. Append new steps; never edit a released one.
QList<Migration> builtInMigrations();

} // namespace berth
