#include "qraddress.h"

#include "domain/siteaddresses.h"
#include "engine.h"
#include "storage/deployment.h"

namespace berth {

QString qrAddress(const Engine &engine, const Deployment &deployment)
{
    const SiteAddresses &addresses = engine.addresses();
    if (deployment.isProtected && !deployment.shareToken.isEmpty())
        return addresses.shareUrl(deployment.slug, deployment.shareToken);
    return addresses.siteUrl(deployment.slug);
}

} // namespace berth
