#include "ui/widgets/qraddress.h"

#include "domain/siterules/siteaddresses.h"
#include "instance/engine.h"
#include "lan/lanservice.h"
#include "storage/deployment.h"

using namespace Qt::StringLiterals;

namespace berth {

QString qrAddress(const Engine &engine, const Deployment &deployment)
{
    // A QR code is for another device: while the site is shared on the local network, its best LAN address (its
    // own port, else its .local name); otherwise the address this machine uses.
    QString site = engine.lan().bestSiteUrl(deployment.id);
    if (site.isEmpty())
        site = engine.addresses().siteUrl(deployment.slug);
    if (site.endsWith(u'/'))
        site.chop(1);
    if (deployment.isProtected && !deployment.shareToken.isEmpty())
        return site + u"/?_token="_s + QString::fromLatin1(deployment.shareToken);
    return site;
}

} // namespace berth
