#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QString>

namespace berth {

// The latest sign-in code request for one email (refused ones included, see migration 3).
struct SignInRequest
{
    // What became of the code. Owner: no SMTP, the owner relays it; Sending: handed to the mailer; Sent: the SMTP
    // server took it; Failed: delivery failed, the owner may relay it; Refused: the email may not sign in, nothing
    // was sent.
    enum class Delivery
    {
        Owner,
        Sending,
        Sent,
        Failed,
        Refused
    };

    QString email;
    bool allowed = false;
    QByteArray codeHash; // hex SHA-256 of salt + code
    QByteArray codeSalt;
    QString relayCode; // the plain code, only while the owner has to pass it on; null otherwise
    int triesLeft = 0;
    Delivery delivery = Delivery::Refused;
    QString deliveryError;
    QDateTime requestedAt;
    QDateTime expiresAt;

    static QString deliveryName(Delivery delivery); // "owner", "sending", "sent", "failed", "refused"
    static Delivery deliveryFromName(const QString &name); // Refused for an unknown name
};

} // namespace berth
