#include "errortext.h"

#include "domain/deploymentservice.h"
#include "domain/submissionservice.h"

using namespace Qt::StringLiterals;

namespace berth {

namespace {
// The slug of `slug "x" is already taken`, the engine's Conflict for a taken slug.
QString quotedSlug(const QString &message)
{
    const qsizetype open = message.indexOf(u'"');
    const qsizetype close = open < 0 ? -1 : message.indexOf(u'"', open + 1);
    return close < 0 ? QString() : message.mid(open + 1, close - open - 1);
}
} // namespace

ErrorText::Code ErrorText::code(const Error &error)
{
    const QString &message = error.message;
    switch (error.kind) {
    case Error::Kind::Forbidden:
        if (message == DeploymentService::limitReachedMessage())
            return Code::DeploymentLimitReached;
        if (message == u"Counter limit reached"_s)
            return Code::CounterLimitReached;
        return Code::Other;
    case Error::Kind::NotFound:
        if (message == DeploymentService::notFoundMessage())
            return Code::DeploymentNotFound;
        if (message == u"Counter not found"_s)
            return Code::CounterNotFound;
        if (message == u"Submission not found"_s)
            return Code::SubmissionNotFound;
        if (message == u"Key not found"_s)
            return Code::KeyNotFound;
        if (message == u"User not found"_s)
            return Code::UserNotFound;
        return Code::Other;
    case Error::Kind::Conflict:
        return message.startsWith(u"slug \""_s) && message.endsWith(u"already taken"_s) ? Code::SlugTaken : Code::Other;
    case Error::Kind::BadRequest:
        return message.startsWith(u"slug must be"_s) ? Code::SlugInvalid : Code::Other;
    case Error::Kind::RateLimited:
        return message == SubmissionService::dailyLimitMessage() ? Code::SubmissionLimitReached : Code::RateLimited;
    case Error::Kind::Internal:
    case Error::Kind::Unavailable:
        return Code::ServerFailure;
    case Error::Kind::Unauthorized:
    case Error::Kind::TooLarge:
    case Error::Kind::InsufficientStorage: // the engine's own words say what is wrong
        return Code::Other;
    }
    return Code::Other;
}

QString ErrorText::describe(const Error &error)
{
    switch (code(error)) {
    case Code::DeploymentLimitReached:
        return tr("Your plan's deployment limit is reached. Delete a deployment first, or raise the limit.");
    case Code::CounterLimitReached:
        return tr("This site has as many counters as its plan allows. Reset one first, or raise the limit.");
    case Code::SubmissionLimitReached:
        return tr("This site has received as many form submissions today as its plan allows.");
    case Code::SlugTaken:
        return tr("The address “%1” is already taken by another site. Choose another slug.")
            .arg(quotedSlug(error.message));
    case Code::SlugInvalid:
        return tr("A slug is 3 to 63 characters: lowercase letters and digits in groups joined by single hyphens, "
                  "with at least one hyphen (e.g. “my-site”).");
    case Code::DeploymentNotFound:
        return tr("This deployment no longer exists.");
    case Code::CounterNotFound:
        return tr("This counter no longer exists.");
    case Code::SubmissionNotFound:
        return tr("This submission no longer exists.");
    case Code::KeyNotFound:
        return tr("This key no longer exists.");
    case Code::UserNotFound:
        return tr("This user no longer exists.");
    case Code::RateLimited:
        return tr("Too many requests at once. Try again in a minute.");
    case Code::ServerFailure:
        return tr("Berth could not finish this: %1").arg(error.message);
    case Code::Other:
        break;
    }
    return error.message;
}

} // namespace berth
