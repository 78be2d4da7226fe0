#pragma once

#include "apirouter.h"

namespace berth {

class SubmissionService;

// GET /deploy/:id/submissions (JSON pages or CSV), DELETE /deploy/:id/submissions/:sid.
class SubmissionsController final
{
public:
    explicit SubmissionsController(SubmissionService &service);
    Q_DISABLE_COPY_MOVE(SubmissionsController)

    void registerRoutes(ApiRouter &router);

private:
    void list(ApiCall &call);
    void remove(ApiCall &call);

    SubmissionService &m_service;
};

} // namespace berth
