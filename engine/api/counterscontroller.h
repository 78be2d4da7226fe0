#pragma once

#include "api/apirouter.h"

namespace berth {

class CounterService;

// GET /deploy/:id/counters, DELETE /deploy/:id/counters/:name.
class CountersController final
{
public:
    explicit CountersController(CounterService &service);
    Q_DISABLE_COPY_MOVE(CountersController)

    void registerRoutes(ApiRouter &router);

private:
    void list(ApiCall &call);
    void remove(ApiCall &call);

    CounterService &m_service;
};

} // namespace berth
