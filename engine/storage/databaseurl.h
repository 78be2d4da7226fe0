#pragma once

#include "core/error.h"

#include <QString>

namespace berth {

// Where a PostgreSQL database is, read from a URL in libpq's form:
//   postgresql://user:password@host:port/dbname?sslmode=require
// host may instead be a Unix socket folder, given as ?host=/run/postgresql. The password is kept for connecting
// only: redacted() is what logs and error messages show.
struct DatabaseUrl
{
    QString host; // a name, an address or a socket folder; empty: libpq's default socket
    int port = 5432;
    QString user;
    QString password;
    QString name;
    QString connectOptions; // libpq "key=value;..." for QSqlDatabase::setConnectOptions

    // Accepts the schemes postgresql and postgres. The error never contains the password.
    static Result<DatabaseUrl> parse(const QString &url);
    // Whether `text` is meant as a server URL rather than a file (it starts with a known scheme).
    static bool isServerUrl(const QString &text);
    // The URL without its password, for messages.
    QString redacted() const;
};

} // namespace berth
