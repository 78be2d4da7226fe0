#pragma once

#include "enginefixture.h"

namespace berth::test {

// Steps of the sign-in flow over real HTTP, shared by the auth tests.
namespace SignInSteps {

// The code waiting for the owner to relay (no SMTP) for this email; empty when there is none.
QString relayedCode(Engine &engine, const QString &email);

// Allow-lists the email, asks for a code (POST /auth/otp), reads it as the owner would and sends it to POST
// /auth/verify (with a claim token when given). Returns the verify reply.
TestReply signIn(EngineFixture &fixture, const QString &email, const QString &claimToken = {});

// signIn()'s API key, or empty when signing in failed.
QByteArray signedInKey(EngineFixture &fixture, const QString &email);

} // namespace SignInSteps
} // namespace berth::test
