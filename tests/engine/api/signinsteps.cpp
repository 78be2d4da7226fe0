#include "signinsteps.h"

#include "domain/accounts/otpservice.h"
#include "domain/accounts/signinpolicy.h"

using namespace Qt::StringLiterals;

namespace berth::test::SignInSteps {

QString relayedCode(Engine &engine, const QString &email)
{
    for (const SignInRequest &request : engine.signIns().pendingRequests()) {
        if (request.email == email)
            return request.relayCode;
    }
    return {};
}

TestReply signIn(EngineFixture &fixture, const QString &email, const QString &claimToken)
{
    if (!fixture.engine().signInPolicy().allow(email))
        return {};
    const TestReply sent = fixture.client().api("POST", u"/auth/otp"_s, {}, QJsonObject {{u"email"_s, email}});
    if (sent.status != 200)
        return sent;
    QJsonObject verify {{u"email"_s, email}, {u"code"_s, relayedCode(fixture.engine(), email)}};
    if (!claimToken.isEmpty())
        verify.insert(u"claim_token"_s, claimToken);
    return fixture.client().api("POST", u"/auth/verify"_s, {}, verify);
}

QByteArray signedInKey(EngineFixture &fixture, const QString &email)
{
    const TestReply reply = signIn(fixture, email);
    return reply.status == 200 ? reply.json().value(u"api_key"_s).toString().toLatin1() : QByteArray();
}

} // namespace berth::test::SignInSteps
