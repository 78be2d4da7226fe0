#pragma once

#include "api/apirouter.h"

#include <QThreadPool>

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
    QThreadPool m_formatters; // CSV formatting, off the thread that reads the database and answers
};

} // namespace berth
