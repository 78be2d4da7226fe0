#include "api/webhookscontroller.h"

#include "domain/common/clock.h"
#include "domain/events/webhookservice.h"
#include "web/apierror.h"
#include "web/jsonbody.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

QJsonValue timeOrNull(const QDateTime &time)
{
    return time.isValid() ? QJsonValue(isoTimestamp(time)) : QJsonValue(QJsonValue::Null);
}

QJsonValue textOrNull(const QString &text)
{
    return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text);
}

QJsonObject webhookJson(const Webhook &webhook)
{
    return {{u"id"_s, webhook.id}, {u"url"_s, webhook.url}, {u"events"_s, QJsonArray::fromStringList(webhook.events)},
        {u"deployment_id"_s, textOrNull(webhook.deploymentId)}, {u"created_at"_s, timeOrNull(webhook.createdAt)},
        {u"disabled_at"_s, timeOrNull(webhook.disabledAt)}};
}

QJsonObject deliveryJson(const WebhookDelivery &delivery)
{
    return {{u"id"_s, delivery.id}, {u"event_id"_s, delivery.eventId}, {u"type"_s, delivery.type},
        {u"status"_s, delivery.status}, {u"attempts"_s, delivery.attempts},
        {u"response_status"_s, delivery.responseStatus > 0 ? QJsonValue(delivery.responseStatus) : QJsonValue()},
        {u"next_attempt_at"_s, timeOrNull(delivery.nextAttemptAt)},
        {u"delivered_at"_s, timeOrNull(delivery.deliveredAt)}, {u"error"_s, textOrNull(delivery.error)}};
}

Result<WebhookService::NewWebhook> parseNewWebhook(const QByteArray &body)
{
    const auto object = JsonBody::parseObject(body);
    if (!object)
        return object.error();
    WebhookService::NewWebhook request;
    const QJsonValue url = object.value().value(u"url"_s);
    if (!url.isString())
        return Error {Error::Kind::BadRequest, u"url is required"_s};
    request.url = url.toString();
    const QJsonValue events = object.value().value(u"events"_s);
    if (!events.isArray())
        return Error {Error::Kind::BadRequest, u"events must be an array of event types"_s};
    for (const QJsonValue &type : events.toArray()) {
        if (!type.isString())
            return Error {Error::Kind::BadRequest, u"events must be an array of event types"_s};
        request.events.append(type.toString());
    }
    const QJsonValue deployment = object.value().value(u"deployment_id"_s);
    if (!deployment.isUndefined() && !deployment.isNull() && !deployment.isString())
        return Error {Error::Kind::BadRequest, u"deployment_id must be a deployment's id"_s};
    request.deploymentId = deployment.toString();
    return request;
}

} // namespace

WebhooksController::WebhooksController(WebhookService &webhooks)
    : m_webhooks(webhooks)
{
}

void WebhooksController::registerRoutes(ApiRouter &router)
{
    using C = WebhooksController;
    static const ControllerRoute<C> kRoutes[] = {
        {"GET", "/webhooks", &C::list},
        {"POST", "/webhooks", &C::create},
        {"DELETE", "/webhooks/:id", &C::remove},
        {"POST", "/webhooks/:id/ping", &C::ping},
        {"GET", "/webhooks/:id/deliveries", &C::deliveries},
        {"POST", "/webhooks/:id/deliveries/:delivery_id/retry", &C::retry},
        {"POST", "/webhooks/:id/enable", &C::enable},
    };
    router.addRoutes(this, kRoutes);
}

void WebhooksController::list(ApiCall &call)
{
    const auto webhooks = m_webhooks.list(call.user);
    if (!webhooks) {
        call.sink.send(errorResponse(webhooks.error()));
        return;
    }
    QJsonArray items;
    for (const Webhook &webhook : webhooks.value())
        items.append(webhookJson(webhook));
    call.sink.send(HttpResponse::json(200, {{u"webhooks"_s, items}}));
}

void WebhooksController::create(ApiCall &call)
{
    auto request = parseNewWebhook(call.request.body);
    if (!request) {
        call.sink.send(errorResponse(request.error()));
        return;
    }
    m_webhooks.add(call.user, std::move(request).value(), [sink = call.sink](const Result<Webhook> &created) {
        if (!created) {
            sink.send(errorResponse(created.error()));
            return;
        }
        QJsonObject body = webhookJson(created.value());
        body.insert(u"secret"_s, QString::fromLatin1(created.value().secret));
        sink.send(HttpResponse::json(200, body));
    });
}

void WebhooksController::remove(ApiCall &call)
{
    const QString id = call.params.at(0);
    if (Result<void> removed = m_webhooks.remove(call.user, id); !removed) {
        call.sink.send(errorResponse(removed.error()));
        return;
    }
    call.sink.send(HttpResponse::json(200, {{u"id"_s, id}, {u"message"_s, u"Webhook removed"_s}}));
}

void WebhooksController::ping(ApiCall &call)
{
    const auto delivery = m_webhooks.ping(call.user, call.params.at(0));
    call.sink.send(
        delivery ? HttpResponse::json(200, deliveryJson(delivery.value())) : errorResponse(delivery.error()));
}

void WebhooksController::deliveries(ApiCall &call)
{
    const auto deliveries = m_webhooks.deliveries(call.user, call.params.at(0));
    if (!deliveries) {
        call.sink.send(errorResponse(deliveries.error()));
        return;
    }
    QJsonArray items;
    for (const WebhookDelivery &delivery : deliveries.value())
        items.append(deliveryJson(delivery));
    call.sink.send(HttpResponse::json(200, {{u"deliveries"_s, items}}));
}

void WebhooksController::retry(ApiCall &call)
{
    const auto delivery = m_webhooks.retry(call.user, call.params.at(0), call.params.at(1));
    call.sink.send(
        delivery ? HttpResponse::json(200, deliveryJson(delivery.value())) : errorResponse(delivery.error()));
}

void WebhooksController::enable(ApiCall &call)
{
    const auto webhook = m_webhooks.enable(call.user, call.params.at(0));
    call.sink.send(webhook ? HttpResponse::json(200, webhookJson(webhook.value())) : errorResponse(webhook.error()));
}

} // namespace berth
