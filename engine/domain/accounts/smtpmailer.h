#pragma once

#include "domain/accounts/mailer.h"

#include <QDateTime>
#include <QThreadPool>

namespace berth {

// Mail through an SMTP server with libcurl (plain, STARTTLS required, or TLS), on a small thread pool of its own.
class SmtpMailer final : public Mailer
{
public:
    static constexpr int kMaxThreads = 2; // mails in flight at once; more wait their turn
    static constexpr long kConnectTimeoutSeconds = 10;
    static constexpr long kTotalTimeoutSeconds = 30; // a stuck server gives up a thread for no longer

    SmtpMailer();
    ~SmtpMailer() override; // waits for the mails in flight
    Q_DISABLE_COPY_MOVE(SmtpMailer)

    QFuture<QString> send(const SmtpConfig &config, const MailMessage &message) override;

    // The message as sent: headers (Date, From, To, Subject, Message-ID, MIME) and the body with CRLF line ends.
    static QByteArray compose(const MailMessage &message, const QDateTime &date, const QString &messageId);
    // smtp://host:port or smtps://host:port (IPv6 literals in brackets).
    static QByteArray url(const SmtpConfig &config);

private:
    static QString deliver(const SmtpConfig &config, const MailMessage &message);

    QThreadPool m_pool;
};

} // namespace berth
