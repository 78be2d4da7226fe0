#pragma once

#include "core/error.h"
#include "domain/acme/acmeconnection.h"

#include <QJsonArray>
#include <QObject>
#include <functional>

namespace berth {

class AcmeChallenges;

struct IssuedCertificate
{
    QByteArray chainPem; // the certificate, then the intermediates
    QByteArray keyPem; // its private key
};

// One certificate for one name, start to finish (RFC 8555 section 7): the account (made or found by its key), the
// order, its HTTP-01 challenges answered from AcmeChallenges, the request (a fresh key), the download. Every step
// waits on the network without blocking; done() comes at most once, and the order may be deleted (later, not inside
// done) from then on. Destroying it abandons it: its requests aborted with its own connection, its tokens withdrawn.
// Nothing of it is kept, so an interrupted order is simply started again.
class AcmeOrder final : public QObject
{
public:
    using Done = std::function<void(Result<IssuedCertificate>)>;
    // TLS-ALPN-01: serve this certificate to acme-tls/1 handshakes for the name; null: stop.
    using TlsChallenge = std::function<void(const QString &name, const IssuedCertificate *certificate)>;

    AcmeOrder(QString name, const AcmeSettings &settings, const AcmeKey &accountKey, AcmeChallenges &challenges,
        Done done, QObject *parent = nullptr);
    ~AcmeOrder() override;
    Q_DISABLE_COPY_MOVE(AcmeOrder)

    void start();
    void setTlsChallenge(TlsChallenge tlsChallenge) { m_tlsChallenge = std::move(tlsChallenge); }

private:
    void createAccount();
    void placeOrder();
    void authorize(int index);
    void answerChallenge(int index, const QJsonObject &authorization);
    bool publishAnswer(const QString &type, const QByteArray &token, const QByteArray &keyAuthorization);
    void pollAuthorization(int index, int pollsLeft);
    void finalize();
    void pollOrder(int pollsLeft);
    void download(const QString &url);
    void fail(const QString &step, const Error &error);
    void finish(Result<IssuedCertificate> result);

    const QString m_name;
    const QString m_email;
    const int m_pollIntervalMs;
    AcmeConnection m_connection; // its own: destroyed with the order, it takes the requests in flight along
    AcmeChallenges &m_challenges;
    Done m_done;
    QString m_orderUrl;
    QString m_finalizeUrl;
    QJsonArray m_authorizations;
    const QString m_challengeType;
    QList<QByteArray> m_tokens; // answered while the order lives
    TlsChallenge m_tlsChallenge;
    bool m_tlsAnswered = false;
    QByteArray m_keyPem;
};

} // namespace berth
