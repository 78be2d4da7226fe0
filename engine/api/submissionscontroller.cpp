#include "api/submissionscontroller.h"

#include "domain/common/clock.h"
#include "domain/visitors/submissionscsv.h"
#include "domain/visitors/submissionservice.h"
#include "http/formencoding.h"
#include "storage/orderedjson.h"
#include "web/apierror.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

// What the query string asks for, parsed; validation of the values is the service's.
struct ListQuery
{
    std::optional<int> limit; // unset: the default page size (JSON) or everything (CSV)
    QString before;
    bool csv = false;
};

Result<ListQuery> parseListQuery(const QByteArray &query)
{
    const FormFields fields = parseUrlEncoded(query);
    ListQuery parsed;
    if (const QString limit = formValue(fields, u"limit"_s); !limit.isNull()) {
        bool ok = false;
        const int value = limit.toInt(&ok);
        parsed.limit = ok ? value : 0; // 0 is out of range: the service's message names the range
    }
    parsed.before = formValue(fields, u"before"_s);
    const QString format = formValue(fields, u"format"_s);
    if (!format.isNull() && format != u"json"_s && format != u"csv"_s)
        return Error {Error::Kind::BadRequest, u"format must be json or csv"_s};
    parsed.csv = format == u"csv"_s;
    return parsed;
}

// One submission as JSON text with its data's fields in the order the visitor's form sent them (a QJsonObject
// would sort them); the other keys in the order QJsonDocument writes them.
QByteArray submissionJson(const Submission &submission)
{
    return "{\"created_at\":" + OrderedJson::value(isoTimestamp(submission.createdAt))
        + ",\"data\":" + OrderedJson::write(submission.data, submission.fields())
        + ",\"id\":" + OrderedJson::value(submission.id) + '}';
}

} // namespace

SubmissionsController::SubmissionsController(SubmissionService &service)
    : m_service(service)
{
    // Exports are rare and each takes one thread: two at a time, so they never crowd out deploys or serving.
    m_formatters.setMaxThreadCount(2);
}

void SubmissionsController::registerRoutes(ApiRouter &router)
{
    using C = SubmissionsController;
    static const ControllerRoute<C> kRoutes[] = {
        {"GET", "/deploy/:id/submissions", &C::list},
        {"DELETE", "/deploy/:id/submissions/:sid", &C::remove},
    };
    router.addRoutes(this, kRoutes);
}

void SubmissionsController::list(ApiCall &call)
{
    const auto query = parseListQuery(call.request.query);
    if (!query) {
        call.sink.send(errorResponse(query.error()));
        return;
    }
    const QString &deploymentId = call.params.at(0);
    const ListQuery &wanted = query.value();

    if (wanted.csv) {
        // The rows are read here, on the database's thread; formatting runs on the controller's own pool, and the
        // answer is written on the connection's thread.
        SubmissionsCsv::exportAsync(m_service, m_formatters, call.user, deploymentId, wanted.limit, wanted.before)
            .then(call.sink.context(), [sink = call.sink, deploymentId](Result<QByteArray> csv) {
                if (!csv) {
                    sink.send(errorResponse(csv.error()));
                    return;
                }
                HttpResponse response = HttpResponse::bytes(200, "text/csv; charset=utf-8", std::move(csv).value());
                response.setHeader(
                    "Content-Disposition", "attachment; filename=\"submissions-" + deploymentId.toLatin1() + ".csv\"");
                sink.send(std::move(response));
            });
        return;
    }

    const auto page = m_service.list(
        call.user, deploymentId, wanted.limit.value_or(SubmissionService::kDefaultPageSize), wanted.before);
    if (!page) {
        call.sink.send(errorResponse(page.error()));
        return;
    }
    QByteArray submissions = "[";
    for (const Submission &submission : page.value().submissions) {
        if (submissions.size() > 1)
            submissions += ',';
        submissions += submissionJson(submission);
    }
    submissions += ']';
    const QString &next = page.value().nextBefore;
    call.sink.send(HttpResponse::bytes(200, "application/json",
        "{\"next_before\":" + OrderedJson::value(next.isEmpty() ? QJsonValue() : QJsonValue(next))
            + ",\"submissions\":" + submissions + ",\"total\":" + OrderedJson::value(page.value().total) + '}'));
}

void SubmissionsController::remove(ApiCall &call)
{
    const auto removed = m_service.remove(call.user, call.params.at(0), call.params.at(1));
    if (!removed) {
        call.sink.send(errorResponse(removed.error()));
        return;
    }
    call.sink.send(HttpResponse::json(200, {{u"id"_s, removed.value().id}, {u"message"_s, u"Submission deleted"_s}}));
}

} // namespace berth
