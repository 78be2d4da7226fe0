#include "api/analyticscontroller.h"

#include "domain/analytics/analyticsservice.h"
#include "http/formencoding.h"
#include "web/apierror.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

QJsonArray entries(const QList<QPair<QString, qint64>> &list, const QString &nameKey, const QString &countKey)
{
    QJsonArray array;
    for (const auto &[name, count] : list)
        array.append(QJsonObject {{nameKey, name}, {countKey, count}});
    return array;
}

QJsonObject reportJson(const AnalyticsReport &report)
{
    qint64 views = 0, visitors = 0, notFound = 0, bytes = 0;
    QJsonArray days;
    for (const AnalyticsSpan::Day &day : report.span.days) {
        views += day.views;
        visitors += day.visitors;
        notFound += day.notFound;
        bytes += day.bytes;
        days.append(QJsonObject {
            {u"date"_s, day.day.toString(Qt::ISODate)}, {u"views"_s, day.views}, {u"visitors"_s, day.visitors}});
    }
    return {
        {u"id"_s, report.deploymentId},
        {u"slug"_s, report.slug},
        {u"from"_s, report.from.toString(Qt::ISODate)},
        {u"to"_s, report.to.toString(Qt::ISODate)},
        // Visitors are distinct per day only (the salt changes daily): the total is the sum of the days.
        {u"totals"_s,
            QJsonObject {
                {u"views"_s, views}, {u"visitors"_s, visitors}, {u"not_found"_s, notFound}, {u"bytes"_s, bytes}}},
        {u"days"_s, days},
        {u"pages"_s, entries(report.span.pages, u"path"_s, u"views"_s)},
        {u"referrers"_s, entries(report.span.referrers, u"host"_s, u"views"_s)},
        {u"not_found"_s, entries(report.span.notFoundPaths, u"path"_s, u"hits"_s)},
    };
}

} // namespace

AnalyticsController::AnalyticsController(AnalyticsService &service)
    : m_service(service)
{
}

void AnalyticsController::registerRoutes(ApiRouter &router)
{
    using C = AnalyticsController;
    static const ControllerRoute<C> kRoutes[] = {
        {"GET", "/deploy/:id/analytics", &C::show},
    };
    router.addRoutes(this, kRoutes);
}

void AnalyticsController::show(ApiCall &call)
{
    const FormFields fields = parseUrlEncoded(call.request.query);
    const auto report
        = m_service.report(call.user, call.params.at(0), formValue(fields, u"from"_s), formValue(fields, u"to"_s));
    if (!report) {
        call.sink.send(errorResponse(report.error()));
        return;
    }
    call.sink.send(HttpResponse::json(200, reportJson(report.value())));
}

} // namespace berth
