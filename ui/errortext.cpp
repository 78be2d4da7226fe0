#include "errortext.h"

namespace berth {

QString ErrorText::describe(const Error &error)
{
    switch (error.kind) {
    case Error::Kind::Forbidden:
        return tr("Your plan's deployment limit is reached. Delete a deployment first, or raise the limit.");
    case Error::Kind::NotFound:
        return tr("This deployment no longer exists.");
    case Error::Kind::Internal:
    case Error::Kind::Unavailable:
        return tr("Berth could not finish this: %1").arg(error.message);
    default:
        return error.message;
    }
}

} // namespace berth
