#include "api/counterscontroller.h"

#include "domain/common/clock.h"
#include "domain/visitors/counterservice.h"
#include "web/apierror.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace berth {

CountersController::CountersController(CounterService &service)
    : m_service(service)
{
}

void CountersController::registerRoutes(ApiRouter &router)
{
    using C = CountersController;
    static const ControllerRoute<C> kRoutes[] = {
        {"GET", "/deploy/:id/counters", &C::list},
        {"DELETE", "/deploy/:id/counters/:name", &C::remove},
    };
    router.addRoutes(this, kRoutes);
}

void CountersController::list(ApiCall &call)
{
    const auto counters = m_service.list(call.user, call.params.at(0));
    if (!counters) {
        call.sink.send(errorResponse(counters.error()));
        return;
    }
    QJsonArray array;
    for (const Counter &counter : counters.value())
        array.append(QJsonObject {{u"name"_s, counter.name}, {u"value"_s, counter.value},
            {u"updated_at"_s, isoTimestamp(counter.updatedAt)}});
    call.sink.send(HttpResponse::json(200, {{u"counters"_s, array}}));
}

void CountersController::remove(ApiCall &call)
{
    const auto removed = m_service.remove(call.user, call.params.at(0), call.params.at(1));
    if (!removed) {
        call.sink.send(errorResponse(removed.error()));
        return;
    }
    call.sink.send(HttpResponse::json(200, {{u"name"_s, removed.value().name}, {u"message"_s, u"Counter deleted"_s}}));
}

} // namespace berth
