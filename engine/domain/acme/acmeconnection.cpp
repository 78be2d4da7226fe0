#include "domain/acme/acmeconnection.h"

#include "domain/acme/acmejws.h"

#include <QFile>
#include <QJsonDocument>
#include <QNetworkReply>
#include <QSslCertificate>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr int kTransferTimeoutMs = 30 * 1000;
constexpr int kNonceAttempts = 5; // a badNonce is answered by sending again with the fresh nonce it carries
const QString kBadNonce = u"urn:ietf:params:acme:error:badNonce"_s;

Error acmeError(const QString &message)
{
    return Error {Error::Kind::Unavailable, message};
}
} // namespace

QString acmeProblem(const AcmeReply &reply)
{
    const QString type = reply.json.value(u"type"_s).toString();
    const QString detail = reply.json.value(u"detail"_s).toString();
    if (type.isEmpty() && detail.isEmpty())
        return u"The ACME server answered %1"_s.arg(reply.status);
    return detail.isEmpty() ? type : u"%1: %2"_s.arg(type, detail);
}

AcmeConnection::AcmeConnection(const AcmeSettings &settings, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_tls(QSslConfiguration::defaultConfiguration())
{
}

Result<void> AcmeConnection::loadTrust()
{
    if (m_settings.caFile.isEmpty())
        return {};
    // The file's path goes to the log only: the error is shown with the name's state.
    QFile file(m_settings.caFile);
    const QList<QSslCertificate> authorities = file.open(QIODevice::ReadOnly)
        ? QSslCertificate::fromData(file.readAll(), QSsl::Pem)
        : QList<QSslCertificate>();
    if (authorities.isEmpty()) {
        qWarning().noquote() << "acme: no PEM certificate read from" << m_settings.caFile;
        return Error {Error::Kind::BadRequest, u"Cannot read the ACME CA file (--acme-ca)"_s};
    }
    m_tls.addCaCertificates(authorities);
    return {};
}

QNetworkRequest AcmeConnection::request(const QString &url) const
{
    QNetworkRequest request {QUrl(url)};
    request.setSslConfiguration(m_tls);
    request.setTransferTimeout(kTransferTimeoutMs);
    request.setHeader(QNetworkRequest::UserAgentHeader, u"Berth"_s);
    return request;
}

Result<AcmeReply> AcmeConnection::replyOf(QNetworkReply *reply)
{
    AcmeReply answer;
    answer.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (answer.status == 0)
        return acmeError(u"Cannot reach the ACME server: %1"_s.arg(reply->errorString()));
    answer.body = reply->readAll();
    answer.json = QJsonDocument::fromJson(answer.body).object();
    answer.location = QString::fromUtf8(reply->rawHeader("Location"));
    return answer;
}

void AcmeConnection::resource(const QString &name, std::function<void(Result<QString>)> done)
{
    if (!m_directory.isEmpty()) {
        const QString url = m_directory.value(name).toString();
        done(url.isEmpty() ? Result<QString>(acmeError(u"The ACME directory has no %1"_s.arg(name))) : url);
        return;
    }
    QNetworkReply *reply = m_network.get(request(m_settings.directoryUrl));
    connect(reply, &QNetworkReply::finished, this, [this, reply, name, done = std::move(done)] {
        reply->deleteLater();
        const Result<AcmeReply> answer = replyOf(reply);
        if (!answer)
            return done(answer.error());
        if (answer.value().status != 200 || answer.value().json.isEmpty())
            return done(acmeError(u"No ACME directory at %1"_s.arg(m_settings.directoryUrl)));
        m_directory = answer.value().json;
        resource(name, std::move(done));
    });
}

void AcmeConnection::withNonce(std::function<void(Result<QByteArray>)> done)
{
    if (!m_nonce.isEmpty())
        return done(std::exchange(m_nonce, {}));
    resource(u"newNonce"_s, [this, done = std::move(done)](Result<QString> url) {
        if (!url)
            return done(url.error());
        QNetworkReply *reply = m_network.head(request(url.value()));
        connect(reply, &QNetworkReply::finished, this, [reply, done] {
            reply->deleteLater();
            const QByteArray nonce = reply->rawHeader("Replay-Nonce");
            if (nonce.isEmpty())
                return done(acmeError(u"The ACME server gave no nonce"_s));
            done(nonce);
        });
    });
}

void AcmeConnection::post(const QString &url, const std::optional<QJsonObject> &payload, Done done)
{
    send(url, payload, kNonceAttempts, std::move(done));
}

void AcmeConnection::send(const QString &url, const std::optional<QJsonObject> &payload, int attemptsLeft, Done done)
{
    if (!m_key)
        return done(acmeError(u"No ACME account key"_s));
    withNonce([this, url, payload, attemptsLeft, done = std::move(done)](Result<QByteArray> nonce) mutable {
        if (!nonce)
            return done(nonce.error());
        const Result<QByteArray> body = acmeJws(*m_key, m_accountUrl, url, nonce.value(), payload);
        if (!body)
            return done(body.error());
        QNetworkRequest signedRequest = request(url);
        signedRequest.setHeader(QNetworkRequest::ContentTypeHeader, u"application/jose+json"_s);
        signedRequest.setRawHeader("Accept", "application/json, application/pem-certificate-chain");
        QNetworkReply *reply = m_network.post(signedRequest, body.value());
        connect(reply, &QNetworkReply::finished, this,
            [this, reply, url, payload, attemptsLeft, done = std::move(done)]() mutable {
                reply->deleteLater();
                if (const QByteArray fresh = reply->rawHeader("Replay-Nonce"); !fresh.isEmpty())
                    m_nonce = fresh;
                Result<AcmeReply> answer = replyOf(reply);
                if (!answer)
                    return done(answer.error());
                const AcmeReply &value = answer.value();
                if (value.status >= 200 && value.status < 300)
                    return done(std::move(answer));
                if (value.json.value(u"type"_s).toString() == kBadNonce && attemptsLeft > 1)
                    return send(url, payload, attemptsLeft - 1, std::move(done));
                done(acmeError(acmeProblem(value)));
            });
    });
}

} // namespace berth
