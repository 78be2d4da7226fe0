#include "domain/events/eventtypes.h"

namespace berth::EventTypes {

QStringList all()
{
    return {QLatin1String(kDeploymentCreated), QLatin1String(kDeploymentUpdated), QLatin1String(kDeploymentRenamed),
        QLatin1String(kDeploymentDeleted), QLatin1String(kSubmissionCreated), QLatin1String(kPing)};
}

bool isKnown(const QString &type)
{
    return all().contains(type);
}

} // namespace berth::EventTypes
