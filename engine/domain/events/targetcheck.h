#pragma once

#include "domain/events/webhooktargets.h"

#include <QString>
#include <functional>

class QObject;
class QUrl;

namespace berth {

// Whether a webhook URL's host may be delivered to under a policy: an IP literal is judged at once, a name once it
// resolved (asynchronously: the thread that asks never waits for DNS). done runs on context's thread with an empty
// text when allowed, else why not.
void checkWebhookTarget(
    const QUrl &url, WebhookTargets::Policy policy, QObject *context, std::function<void(const QString &refusal)> done);

} // namespace berth
