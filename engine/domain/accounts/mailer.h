#pragma once

#include "domain/accounts/smtpconfig.h"

#include <QFuture>
#include <QString>

namespace berth {

struct MailMessage
{
    QString from;
    QString to;
    QString subject; // ASCII
    QString body; // plain text, UTF-8 on the wire
};

// Sends mail off the calling thread, so that a slow or absent server never holds up a request. An interface so
// that domain tests can watch what would be sent.
class Mailer
{
public:
    virtual ~Mailer() = default;

    // Finishes with an empty string when the server accepted the message, else a description of what failed.
    virtual QFuture<QString> send(const SmtpConfig &config, const MailMessage &message) = 0;
};

} // namespace berth
