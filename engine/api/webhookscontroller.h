#pragma once

#include "api/apirouter.h"

namespace berth {

class WebhookService;

// A user's webhooks: POST /webhooks (the secret shown once), GET /webhooks (no secrets), DELETE /webhooks/:id,
// POST /webhooks/:id/ping, GET /webhooks/:id/deliveries (the last 100) and POST
// /webhooks/:id/deliveries/:delivery_id/retry, POST /webhooks/:id/enable. Another user's webhook is a 404.
class WebhooksController final
{
public:
    explicit WebhooksController(WebhookService &webhooks);
    Q_DISABLE_COPY_MOVE(WebhooksController)

    void registerRoutes(ApiRouter &router);

private:
    void list(ApiCall &call);
    void create(ApiCall &call);
    void remove(ApiCall &call);
    void ping(ApiCall &call);
    void deliveries(ApiCall &call);
    void retry(ApiCall &call);
    void enable(ApiCall &call);

    WebhookService &m_webhooks;
};

} // namespace berth
