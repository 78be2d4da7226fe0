#include "domain/events/targetcheck.h"

#include <QHostAddress>
#include <QHostInfo>
#include <QTimer>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

QString refusalFor(WebhookTargets::Policy policy, const QList<QHostAddress> &addresses)
{
    if (addresses.isEmpty())
        return u"The webhook's host does not resolve"_s;
    if (!WebhookTargets::allows(policy, addresses))
        return u"The webhook's host resolves to an address this server does not deliver to (webhook targets: %1)"_s.arg(
            WebhookTargets::name(policy));
    return {};
}

} // namespace

void checkWebhookTarget(
    const QUrl &url, WebhookTargets::Policy policy, QObject *context, std::function<void(const QString &refusal)> done)
{
    const QString host = url.host();
    if (QHostAddress literal; literal.setAddress(host)) {
        // Answered from the event loop all the same, so that callers see one order of events.
        QTimer::singleShot(
            0, context, [done = std::move(done), policy, literal] { done(refusalFor(policy, {literal})); });
        return;
    }
    QHostInfo::lookupHost(host, context, [done = std::move(done), policy](const QHostInfo &info) {
        done(refusalFor(policy, info.error() == QHostInfo::NoError ? info.addresses() : QList<QHostAddress>()));
    });
}

} // namespace berth
