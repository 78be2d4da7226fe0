#include "ui/widgets/errortext.h"

using namespace Qt::StringLiterals;

namespace berth {

namespace {
// The slug of `slug "x" is already taken`, the engine's message for SlugTaken.
QString quotedSlug(const QString &message)
{
    const qsizetype open = message.indexOf(u'"');
    const qsizetype close = open < 0 ? -1 : message.indexOf(u'"', open + 1);
    return close < 0 ? QString() : message.mid(open + 1, close - open - 1);
}
} // namespace

ErrorText::Code ErrorText::code(const Error &error)
{
    return error.code;
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
    case Code::PublishCancelled:
        return tr("Publishing was cancelled; nothing was changed.");
    case Code::Other:
        break;
    }
    // No code of its own: a few kinds are worded by the kind, the rest keep the engine's text.
    switch (error.kind) {
    case Error::Kind::RateLimited:
        return tr("Too many requests at once. Try again in a minute.");
    case Error::Kind::Internal:
    case Error::Kind::Unavailable:
        return tr("Berth could not finish this: %1").arg(error.message);
    default:
        return error.message;
    }
}

} // namespace berth
