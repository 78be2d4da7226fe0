#include "domain/visitors/storagefailure.h"

#include <QDebug>

namespace berth {

Error storageFailure(const Error &error, const QString &message)
{
    if (error.kind != Error::Kind::Internal)
        return error;
    qWarning().noquote() << message << "-" << error.message;
    return {Error::Kind::Internal, message};
}

} // namespace berth
