#pragma once

#include "core/error.h"
#include "domain/acme/acmekey.h"
#include "domain/acme/acmesettings.h"

#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QObject>
#include <QSslConfiguration>
#include <functional>
#include <optional>

namespace berth {

struct AcmeReply
{
    int status = 0;
    QByteArray body;
    QJsonObject json; // the body as JSON, when it is
    QString location; // the Location header: an account's or an order's URL
};

// The wire of the ACME protocol on the engine's thread, never waiting: the directory, nonces (each answer's
// Replay-Nonce kept for the next request, a badNonce answered by resending), and signed POSTs under the account
// key. Answers outside 2xx come back as an Error carrying the server's problem detail.
class AcmeConnection final : public QObject
{
public:
    using Done = std::function<void(Result<AcmeReply>)>;

    AcmeConnection(const AcmeSettings &settings, QObject *parent = nullptr);
    Q_DISABLE_COPY_MOVE(AcmeConnection)

    Result<void> loadTrust(); // the --acme-ca file, when given
    void setAccountKey(const AcmeKey &key) { m_key = key; }
    const std::optional<AcmeKey> &accountKey() const { return m_key; }
    // The account's URL; until set, requests carry the key itself (only newAccount does).
    void setAccountUrl(const QString &url) { m_accountUrl = url; }

    // The directory's URL of a resource (newAccount, newOrder, newNonce): read once, then kept.
    void resource(const QString &name, std::function<void(Result<QString>)> done);
    // A signed POST; no payload is a POST-as-GET.
    void post(const QString &url, const std::optional<QJsonObject> &payload, Done done);

private:
    void send(const QString &url, const std::optional<QJsonObject> &payload, int attemptsLeft, Done done);
    void withNonce(std::function<void(Result<QByteArray>)> done);
    QNetworkRequest request(const QString &url) const;
    static Result<AcmeReply> replyOf(QNetworkReply *reply);

    const AcmeSettings m_settings;
    QNetworkAccessManager m_network;
    QSslConfiguration m_tls;
    std::optional<AcmeKey> m_key;
    QString m_accountUrl;
    QJsonObject m_directory;
    QByteArray m_nonce;
};

// The problem document's words for the owner, e.g. "urn:ietf:params:acme:error:connection: ..." without internals
// of Berth's own.
QString acmeProblem(const AcmeReply &reply);

} // namespace berth
