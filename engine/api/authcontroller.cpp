#include "api/authcontroller.h"

#include "api/apiorigins.h"
#include "domain/accounts/agentservice.h"
#include "domain/accounts/otpservice.h"
#include "domain/accounts/signinpolicy.h"
#include "domain/common/randomid.h"
#include "domain/ratelimit/ratelimitservice.h"
#include "domain/siterules/siteaddresses.h"
#include "http/clientaddress.h"
#include "http/formencoding.h"
#include "web/apierror.h"
#include "web/builtinpages.h"
#include "web/jsonbody.h"
#include "web/ratelimited.h"

#include <QJsonArray>
#include <QUrlQuery>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

constexpr int kNonceLength = 22; // base62: ~131 bits, for the login page's Content-Security-Policy

// The string fields of a JSON body, required ones first; 400 when the body is not an object, a required field is
// missing or empty, or a field is not a string. Absent optional fields come back null.
Result<QStringList> stringFields(const QByteArray &body, const QStringList &required, const QStringList &optional = {})
{
    const auto object = JsonBody::parseObject(body);
    if (!object)
        return object.error();
    QStringList values;
    const QStringList names = required + optional;
    for (qsizetype i = 0; i < names.size(); ++i) {
        const QJsonValue value = object.value().value(names.at(i));
        const bool isRequired = i < required.size();
        if (isRequired && (value.isUndefined() || value.toString(u"x"_s).isEmpty()))
            return Error {Error::Kind::BadRequest, u"%1 is required"_s.arg(names.at(i))};
        if (!value.isUndefined() && !value.isString())
            return Error {Error::Kind::BadRequest, u"%1 must be a string"_s.arg(names.at(i))};
        values.append(value.toString());
    }
    return values;
}

QJsonObject claimedJson(const AgentService::Claimed &claimed)
{
    return {{u"agent_id"_s, claimed.agentId}, {u"deployments"_s, QJsonArray::fromStringList(claimed.deploymentIds)}};
}

} // namespace

AuthController::AuthController(AgentService &agents, OtpService &otp, SignInPolicy &policy, RateLimitService &limits,
    const SiteAddresses &addresses, const ApiOrigins &origins, QList<QHostAddress> trustedProxies)
    : m_agents(agents)
    , m_otp(otp)
    , m_policy(policy)
    , m_limits(limits)
    , m_addresses(addresses)
    , m_origins(origins)
    , m_trustedProxies(std::move(trustedProxies))
{
}

void AuthController::registerRoutes(ApiRouter &router)
{
    using C = AuthController;
    static const ControllerRoute<C> kRoutes[] = {
        {"POST", "/auth/session", &C::session, RouteAccess::Public, RouteBody::Small, &RateLimits::kAuthSession},
        {"POST", "/auth/otp", &C::otp, RouteAccess::Public, RouteBody::Small, &RateLimits::kAuthOtp},
        {"POST", "/auth/verify", &C::verify, RouteAccess::Public, RouteBody::Small, &RateLimits::kAuthVerify},
        {"GET", "/auth/login", &C::login, RouteAccess::Public, RouteBody::Small, &RateLimits::kAuthLogin},
        {"POST", "/auth/claim", &C::claim},
    };
    router.addRoutes(this, kRoutes);
}

void AuthController::session(ApiCall &call)
{
    if (!m_policy.allowsAgentSessionFrom(clientAddress(call.request, m_trustedProxies))) {
        call.sink.send(HttpResponse::jsonError(403, u"Agent sessions are not available from this address"_s));
        return;
    }
    // A web page the local user opens may post here without asking (no body, no preflight): its Origin tells.
    if (!m_origins.allows(call.request)) {
        call.sink.send(HttpResponse::jsonError(403, u"Origin not allowed"_s));
        return;
    }
    const Result<int> wait = m_agents.secondsUntilNextAgent(m_policy.agentsPerHour());
    if (!wait) {
        call.sink.send(errorResponse(wait.error()));
        return;
    }
    if (wait.value() > 0) {
        call.sink.send(rateLimited({false, wait.value()}, u"Too many new agents on this instance this hour"_s));
        return;
    }
    const auto session = m_agents.createSession();
    if (!session) {
        call.sink.send(errorResponse(session.error()));
        return;
    }
    QUrlQuery query;
    query.addQueryItem(u"claim"_s, session.value().claimToken);
    call.sink.send(HttpResponse::json(200,
        {{u"api_key"_s, session.value().key.secret}, {u"agent_id"_s, session.value().agent.id},
            {u"claim_token"_s, session.value().claimToken},
            {u"claim_url"_s, m_addresses.baseUrl() + u"/auth/login?"_s + query.toString(QUrl::FullyEncoded)}}));
}

void AuthController::otp(ApiCall &call)
{
    const auto fields = stringFields(call.request.body, {u"email"_s});
    if (!fields) {
        call.sink.send(errorResponse(fields.error()));
        return;
    }
    if (const Result<void> requested = m_otp.requestCode(fields.value().at(0)); !requested) {
        call.sink.send(errorResponse(requested.error()));
        return;
    }
    call.sink.send(HttpResponse::json(200, {{u"sent"_s, true}}));
}

void AuthController::verify(ApiCall &call)
{
    const auto fields = stringFields(call.request.body, {u"email"_s, u"code"_s}, {u"claim_token"_s});
    if (!fields) {
        call.sink.send(errorResponse(fields.error()));
        return;
    }
    // One address gets a few tries per email and code lifetime, so a stranger cannot use up the codes its owner
    // holds; more tries need more addresses (and each code still has its own budget of OtpService::kMaxTries).
    const QString triesKey = u"auth-verify-email:"_s + clientAddress(call.request, m_trustedProxies).toString() + u'|'
        + fields.value().at(0).trimmed().toLower();
    if (const RateDecision decision
        = m_limits.hit(triesKey, RateRule {OtpService::kTriesPerAddress, OtpService::kCodeLifetimeMs});
        !decision.allowed) {
        call.sink.send(rateLimited(decision, u"Too many tries for this email from this address"_s));
        return;
    }
    const auto signedIn = m_otp.verify(fields.value().at(0), fields.value().at(1));
    if (!signedIn) {
        call.sink.send(errorResponse(signedIn.error()));
        return;
    }
    const User &user = signedIn.value().user;
    QJsonObject body {{u"api_key"_s, signedIn.value().key.secret},
        {u"user"_s, QJsonObject {{u"email"_s, user.email}, {u"plan"_s, user.plan}}}};
    // The sign-in stands whatever becomes of the claim; a refused claim can be retried with POST /auth/claim.
    if (const QString claimToken = fields.value().at(2); !claimToken.isEmpty()) {
        const auto claimed = m_agents.claim(user, claimToken);
        if (claimed)
            body.insert(u"claimed"_s, claimedJson(claimed.value()));
        else
            body.insert(u"claim_error"_s, claimed.error().message);
    }
    call.sink.send(HttpResponse::json(200, body));
}

void AuthController::login(ApiCall &call)
{
    QString claim = formValue(parseUrlEncoded(call.request.query), u"claim"_s);
    if (!AgentService::looksLikeClaimToken(claim))
        claim.clear();
    const QString nonce = RandomId::base62(kNonceLength);
    // Without SMTP no code is mailed: the page says so and points to the owner (a key, or the code relayed).
    const QString mail = m_policy.smtp().isConfigured() ? u"on"_s : u"off"_s;
    HttpResponse response = BuiltinPages::response(200, u"login"_s,
        {{u"claim"_s, claim}, {u"base_url"_s, m_addresses.baseUrl()}, {u"nonce"_s, nonce}, {u"mail"_s, mail}});
    // Inline script and style run only with this response's nonce; the page talks to this origin alone and may not
    // be framed. No referrer: the claim token is in the address.
    response.setHeader("Content-Security-Policy",
        "default-src 'none'; script-src 'nonce-" + nonce.toLatin1() + "'; style-src 'nonce-" + nonce.toLatin1()
            + "'; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; "
              "frame-ancestors 'none'");
    response.setHeader("Referrer-Policy", "no-referrer");
    response.setHeader("X-Content-Type-Options", "nosniff");
    response.setHeader("X-Frame-Options", "DENY");
    call.sink.send(std::move(response));
}

void AuthController::claim(ApiCall &call)
{
    const auto fields = stringFields(call.request.body, {u"claim_token"_s});
    if (!fields) {
        call.sink.send(errorResponse(fields.error()));
        return;
    }
    const auto claimed = m_agents.claim(call.user, fields.value().at(0));
    call.sink.send(claimed ? HttpResponse::json(200, claimedJson(claimed.value())) : errorResponse(claimed.error()));
}

} // namespace berth
