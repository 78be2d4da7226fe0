#include "domain/acme/acmeorder.h"

#include "domain/acme/acmechallenges.h"
#include "domain/acme/certificaterequest.h"
#include "domain/acme/tlsalpnchallenge.h"

#include <QTimer>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr int kMaxPolls = 120; // while the server validates or issues: at the poll interval, then given up
const QString kHttp01 = u"http-01"_s;
const QString kTlsAlpn01 = u"tls-alpn-01"_s;

QString problemOf(const QJsonObject &object)
{
    const QJsonObject problem = object.value(u"error"_s).toObject();
    const QString detail = problem.value(u"detail"_s).toString();
    return detail.isEmpty() ? problem.value(u"type"_s).toString() : detail;
}
} // namespace

AcmeOrder::AcmeOrder(QString name, const AcmeSettings &settings, const AcmeKey &accountKey, AcmeChallenges &challenges,
    Done done, QObject *parent)
    : QObject(parent)
    , m_name(std::move(name))
    , m_email(settings.email)
    , m_pollIntervalMs(settings.pollIntervalMs)
    , m_connection(settings)
    , m_challenges(challenges)
    , m_done(std::move(done))
    , m_challengeType(settings.challenge)
{
    m_connection.setAccountKey(accountKey);
}

AcmeOrder::~AcmeOrder()
{
    for (const QByteArray &token : std::as_const(m_tokens))
        m_challenges.remove(token);
    if (m_tlsAnswered && m_tlsChallenge)
        m_tlsChallenge(m_name, nullptr);
}

void AcmeOrder::start()
{
    if (const Result<void> trusted = m_connection.loadTrust(); !trusted)
        return fail(u"connection"_s, trusted.error());
    createAccount(); // newAccount with a known key answers the existing account
}

void AcmeOrder::createAccount()
{
    m_connection.resource(u"newAccount"_s, [this](Result<QString> url) {
        if (!url)
            return fail(u"directory"_s, url.error());
        QJsonObject account {{u"termsOfServiceAgreed"_s, true}};
        if (!m_email.isEmpty())
            account.insert(u"contact"_s, QJsonArray {u"mailto:"_s + m_email});
        m_connection.post(url.value(), account, [this](Result<AcmeReply> reply) {
            if (!reply)
                return fail(u"account"_s, reply.error());
            if (reply.value().location.isEmpty())
                return fail(u"account"_s, Error {Error::Kind::Unavailable, u"No account URL"_s});
            m_connection.setAccountUrl(reply.value().location);
            placeOrder();
        });
    });
}

void AcmeOrder::placeOrder()
{
    m_connection.resource(u"newOrder"_s, [this](Result<QString> url) {
        if (!url)
            return fail(u"directory"_s, url.error());
        const QJsonObject identifier {{u"type"_s, u"dns"_s}, {u"value"_s, m_name}};
        m_connection.post(
            url.value(), QJsonObject {{u"identifiers"_s, QJsonArray {identifier}}}, [this](Result<AcmeReply> reply) {
                if (!reply)
                    return fail(u"order"_s, reply.error());
                m_orderUrl = reply.value().location;
                m_finalizeUrl = reply.value().json.value(u"finalize"_s).toString();
                m_authorizations = reply.value().json.value(u"authorizations"_s).toArray();
                authorize(0);
            });
    });
}

void AcmeOrder::authorize(int index)
{
    if (index >= m_authorizations.size())
        return finalize();
    m_connection.post(m_authorizations.at(index).toString(), std::nullopt, [this, index](Result<AcmeReply> reply) {
        if (!reply)
            return fail(u"authorization"_s, reply.error());
        const QString status = reply.value().json.value(u"status"_s).toString();
        if (status == u"valid"_s) // authorized before, e.g. by the last order for the name
            return authorize(index + 1);
        if (status != u"pending"_s)
            return fail(u"authorization"_s, Error {Error::Kind::Unavailable, u"Authorization is %1"_s.arg(status)});
        answerChallenge(index, reply.value().json);
    });
}

void AcmeOrder::answerChallenge(int index, const QJsonObject &authorization)
{
    QHash<QString, QJsonObject> offered;
    for (const QJsonValue &challenge : authorization.value(u"challenges"_s).toArray())
        offered.insert(challenge.toObject().value(u"type"_s).toString(), challenge.toObject());
    const bool tlsUsable = bool(m_tlsChallenge);
    QString type = m_challengeType == kTlsAlpn01 && tlsUsable ? kTlsAlpn01 : kHttp01;
    if (!offered.contains(type))
        type = type == kHttp01 && tlsUsable ? kTlsAlpn01 : kHttp01;
    const QJsonObject challenge = offered.value(type);
    const QByteArray token = challenge.value(u"token"_s).toString().toLatin1();
    if (token.isEmpty() || token.contains('/'))
        return fail(u"authorization"_s, Error {Error::Kind::Unavailable, u"No usable challenge offered"_s});
    if (!publishAnswer(type, token, token + '.' + m_connection.accountKey()->thumbprint()))
        return fail(u"challenge"_s, Error {Error::Kind::Internal, u"Cannot make the challenge's answer"_s});
    m_connection.post(challenge.value(u"url"_s).toString(), QJsonObject {}, [this, index](Result<AcmeReply> reply) {
        if (!reply)
            return fail(u"challenge"_s, reply.error());
        pollAuthorization(index, kMaxPolls);
    });
}

bool AcmeOrder::publishAnswer(const QString &type, const QByteArray &token, const QByteArray &keyAuthorization)
{
    if (type == kHttp01) {
        m_tokens.append(token);
        m_challenges.add(token, keyAuthorization);
        return true;
    }
    const Result<IssuedCertificate> certificate = tlsAlpnChallengeCertificate(m_name, keyAuthorization);
    if (!certificate)
        return false;
    m_tlsAnswered = true;
    m_tlsChallenge(m_name, &certificate.value());
    return true;
}

void AcmeOrder::pollAuthorization(int index, int pollsLeft)
{
    m_connection.post(
        m_authorizations.at(index).toString(), std::nullopt, [this, index, pollsLeft](Result<AcmeReply> reply) {
            if (!reply)
                return fail(u"authorization"_s, reply.error());
            const QJsonObject authorization = reply.value().json;
            const QString status = authorization.value(u"status"_s).toString();
            if (status == u"valid"_s)
                return authorize(index + 1);
            if (status == u"pending"_s && pollsLeft > 1) {
                QTimer::singleShot(
                    m_pollIntervalMs, this, [this, index, pollsLeft] { pollAuthorization(index, pollsLeft - 1); });
                return;
            }
            QString why = u"Authorization is %1"_s.arg(status);
            for (const QJsonValue &challenge : authorization.value(u"challenges"_s).toArray()) {
                if (const QString problem = problemOf(challenge.toObject()); !problem.isEmpty())
                    why = problem;
            }
            fail(u"validation"_s, Error {Error::Kind::Unavailable, why});
        });
}

void AcmeOrder::finalize()
{
    const Result<AcmeKey> key = AcmeKey::generate();
    const Result<QByteArray> request = key ? certificateRequest(key.value(), m_name) : Result<QByteArray>(key.error());
    if (!request)
        return fail(u"request"_s, request.error());
    m_keyPem = key.value().privatePem();
    const QJsonObject csr {{u"csr"_s, QString::fromLatin1(base64Url(request.value()))}};
    m_connection.post(m_finalizeUrl, csr, [this](Result<AcmeReply> reply) {
        if (!reply)
            return fail(u"finalization"_s, reply.error());
        pollOrder(kMaxPolls);
    });
}

void AcmeOrder::pollOrder(int pollsLeft)
{
    m_connection.post(m_orderUrl, std::nullopt, [this, pollsLeft](Result<AcmeReply> reply) {
        if (!reply)
            return fail(u"order"_s, reply.error());
        const QString status = reply.value().json.value(u"status"_s).toString();
        if (status == u"valid"_s)
            return download(reply.value().json.value(u"certificate"_s).toString());
        if ((status == u"processing"_s || status == u"ready"_s) && pollsLeft > 1) {
            QTimer::singleShot(m_pollIntervalMs, this, [this, pollsLeft] { pollOrder(pollsLeft - 1); });
            return;
        }
        fail(u"order"_s, Error {Error::Kind::Unavailable, u"Order is %1"_s.arg(status)});
    });
}

void AcmeOrder::download(const QString &url)
{
    m_connection.post(url, std::nullopt, [this](Result<AcmeReply> reply) {
        if (!reply)
            return fail(u"download"_s, reply.error());
        if (!reply.value().body.contains("-----BEGIN CERTIFICATE-----"))
            return fail(u"download"_s, Error {Error::Kind::Unavailable, u"Not a PEM certificate chain"_s});
        finish(IssuedCertificate {reply.value().body, m_keyPem});
    });
}

void AcmeOrder::fail(const QString &step, const Error &error)
{
    finish(Error {error.kind, u"ACME %1 failed: %2"_s.arg(step, error.message)});
}

void AcmeOrder::finish(Result<IssuedCertificate> result)
{
    if (m_done)
        std::exchange(m_done, {})(std::move(result));
}

} // namespace berth
