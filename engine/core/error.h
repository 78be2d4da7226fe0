#pragma once

#include <QString>
#include <QStringList>
#include <optional>
#include <utility>

namespace berth {

// Why something could not be done, typed so that each front end maps it once: the API and the sites to an HTTP
// status (web/apierror.cpp), the dashboard to words (ui/errortext.cpp). Every layer returns its failures this way,
// storage included: as a Result<T>.
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
    // What exactly was refused, for a front end that words refusals itself (the dashboard, in the user's
    // language) instead of showing the message. Stable across wording changes of the message; the API's JSON
    // does not carry it. Other: no code of its own, the kind and the message say it all.
    enum class Code
    {
        Other,
        DeploymentLimitReached,
        CounterLimitReached,
        SubmissionLimitReached,
        SlugTaken,
        SlugInvalid,
        DeploymentNotFound,
        CounterNotFound,
        SubmissionNotFound,
        KeyNotFound,
        UserNotFound,
        PublishCancelled,
    };
    Kind kind = Kind::Internal;
    QString message;
    Code code = Code::Other;
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

// Success with nothing to return, or the Error that prevented it.
template<>
class Result<void>
{
public:
    Result() = default; // success
    Result(Error error)
        : m_error(std::move(error))
    {
    }

    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const Error &error() const { return *m_error; }

private:
    std::optional<Error> m_error;
};

} // namespace berth
