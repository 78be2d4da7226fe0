#include "api/mecontroller.h"

#include "domain/siterules/siteaddresses.h"
#include "domain/visitors/usagereport.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

QJsonObject usedOf(int used, int allowed)
{
    return {{u"used"_s, used}, {u"allowed"_s, allowed}};
}

} // namespace

MeController::MeController(const UsageReport &usage, const SiteAddresses &addresses)
    : m_usage(usage)
    , m_addresses(addresses)
{
}

void MeController::registerRoutes(ApiRouter &router)
{
    static const ControllerRoute<MeController> kRoutes[] = {
        {"GET", "/auth/me", &MeController::me},
    };
    router.addRoutes(this, kRoutes);
}

void MeController::me(ApiCall &call)
{
    const User &user = call.user;
    const UsageReport::Usage usage = m_usage.of(user);
    const PlanLimits &limits = usage.limits;
    QJsonArray sites;
    for (const UsageReport::Site &site : usage.sites) {
        sites.append(
            QJsonObject {{u"id"_s, site.id}, {u"slug"_s, site.slug}, {u"url"_s, m_addresses.siteUrl(site.slug)},
                {u"submissions_today"_s, usedOf(site.submissionsToday, limits.submissionsPerDay)},
                {u"submissions_stored"_s, usedOf(site.submissionsStored, limits.submissionsStored)},
                {u"counters"_s, usedOf(site.counters, limits.countersPerDeployment)}});
    }
    call.sink.send(HttpResponse::json(200,
        {{u"id"_s, user.id}, {u"email"_s, user.email.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(user.email)},
            {u"agent"_s, !user.isOwner && user.email.isEmpty()}, // an agent identity has no email
            {u"owner"_s, user.isOwner}, {u"plan"_s, user.plan},
            {u"limits"_s,
                QJsonObject {{u"deployments"_s, limits.deployments},
                    {u"submissions_per_day"_s, limits.submissionsPerDay},
                    {u"submissions_stored"_s, limits.submissionsStored},
                    {u"counters_per_deployment"_s, limits.countersPerDeployment}}},
            {u"deployments"_s, usedOf(usage.deployments, limits.deployments)}, {u"sites"_s, sites}}));
}

} // namespace berth
