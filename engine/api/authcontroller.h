#pragma once

#include "api/apirouter.h"
#include "domain/ratelimit/ratelimits.h"

#include <QHostAddress>
#include <QList>

namespace berth {

class AgentService;
class ApiOrigins;
class OtpService;
class RateLimitService;
class SignInPolicy;
class SiteAddresses;

// The sign-in endpoints: POST /auth/session (an agent identity), POST /auth/otp (mail a code), POST /auth/verify
// (a code for a key), GET /auth/login (the sign-in page), all public and limited per client IP before anything
// else, so that every request counts; and POST /auth/claim (a signed-in user takes over an agent's deployments).
// POST /auth/session also refuses a browser page of another origin than the API's own, and makes at most the
// owner's number of agents an hour for the whole instance.
class AuthController final
{
public:
    AuthController(AgentService &agents, OtpService &otp, SignInPolicy &policy, RateLimitService &limits,
        const SiteAddresses &addresses, const ApiOrigins &origins, QList<QHostAddress> trustedProxies);
    Q_DISABLE_COPY_MOVE(AuthController)

    void registerRoutes(ApiRouter &router);

private:
    void session(ApiCall &call);
    void otp(ApiCall &call);
    void verify(ApiCall &call);
    void login(ApiCall &call);
    void claim(ApiCall &call);

    AgentService &m_agents;
    OtpService &m_otp;
    SignInPolicy &m_policy;
    RateLimitService &m_limits;
    const SiteAddresses &m_addresses;
    const ApiOrigins &m_origins;
    const QList<QHostAddress> m_trustedProxies;
};

} // namespace berth
