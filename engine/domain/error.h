#pragma once

#include <QString>
#include <QStringList>
#include <optional>
#include <utility>

namespace berth {

// A refusal of the domain, typed so that each front end maps it once: the API to an HTTP status
// (api/apierror.cpp), the dashboard to a message box.
struct Error
{
    enum class Kind
    {
        BadRequest, // 400: missing or invalid field, malformed JSON, invalid slug
        Unauthorized, // 401
        Forbidden, // 403: plan limit reached, not allowed
        NotFound, // 404: missing, or owned by someone else
        Conflict, // 409: slug taken
        TooLarge, // 413
        RateLimited, // 429
        Unavailable, // 503
        InsufficientStorage, // 507: the disk or the database is full (message says only that)
        Internal, // 500: storage failure
    };
    Kind kind = Kind::Internal;
    QString message;
    // A 409 "Missing file contents" (an upload that named content by sha256 the server does not hold for this user):
    // the paths whose content the client has to send.
    QStringList missing = {};

    static QString insufficientStorageMessage() { return QStringLiteral("Not enough storage space on the server"); }
    static Error insufficientStorage() { return {Kind::InsufficientStorage, insufficientStorageMessage()}; }
};

// A value or the Error that prevented it.
template<typename T>
class Result
{
public:
    Result()
        : m_error {Error::Kind::Internal, QStringLiteral("No result")}
    {
    } // for QFuture's sake
    Result(T value)
        : m_value(std::move(value))
    {
    }
    Result(Error error)
        : m_error(std::move(error))
    {
    }

    bool ok() const { return m_value.has_value(); }
    explicit operator bool() const { return ok(); }
    const T &value() const & { return *m_value; }
    T &value() & { return *m_value; }
    T &&value() && { return std::move(*m_value); }
    const Error &error() const { return m_error; }

private:
    std::optional<T> m_value;
    Error m_error;
};

} // namespace berth
