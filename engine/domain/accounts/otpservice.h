#pragma once

#include "core/error.h"
#include "domain/accounts/accountservice.h"
#include "storage/signinrequest.h"

#include <QFuture>
#include <QLoggingCategory>
#include <QObject>

namespace berth {

class Clock;
class Database;
class Mailer;
class SignInPolicy;
struct SmtpConfig;
class SignInRequestRepository;

Q_DECLARE_LOGGING_CATEGORY(lcSignIn)

// Sign-in by one-time code (POST /auth/otp, POST /auth/verify). A code is 6 digits, valid 10 minutes, stored as a
// salted hash. An email may hold kMaxLiveCodes codes at once (a new request beyond drops the oldest), so that a code
// asked for by someone else does not replace the one its owner holds. Each code has its own budget of kMaxTries
// wrong tries (a wrong try for an email counts against each of its codes); AuthController also limits the tries one
// client address makes for one email (kTriesPerAddress), so no single address can use a code up. It is mailed through
// SMTP when the owner configured it; otherwise (or when delivery fails) the owner sees it among the pending requests
// and passes it on.
//
// Nothing a requester sees tells whether an email is known or allowed: every well-formed request does the same
// database writes (a refused email gets a row too, with a code nobody is sent) and gets the same answer; mail goes
// out on the mailer's threads after the answer is decided.
class OtpService final : public QObject
{
    Q_OBJECT

public:
    static constexpr int kCodeDigits = 6;
    static constexpr qint64 kCodeLifetimeMs = 10 * 60'000;
    static constexpr int kMaxTries = 30;
    static constexpr int kTriesPerAddress = 10; // per client address and email within kCodeLifetimeMs
    static constexpr int kMaxLiveCodes = 3;

    OtpService(Database &db, SignInRequestRepository &requests, SignInPolicy &policy, AccountService &accounts,
        Mailer &mailer, const Clock &clock, QObject *parent = nullptr);
    Q_DISABLE_COPY_MOVE(OtpService)

    // A new code for this email; the email's earlier codes stay valid (the oldest beyond kMaxLiveCodes drops). Fails
    // only for a malformed email (400) or storage (500), never because of who the email belongs to.
    Result<void> requestCode(const QString &email);

    struct SignedIn
    {
        User user;
        AccountService::NewKey key;
        bool created = false; // a new account (plan free)
    };
    // Any of the email's live codes signs in (creating the user when new) with a fresh API key, and spends them
    // all; anything else is 401 invalidCodeMessage(), and uses up one try of each of the email's codes.
    Result<SignedIn> verify(const QString &email, const QString &code);

    // For the owner: requests not yet expired, newest first. relayCode is set where the owner has to pass the code
    // on (no SMTP, or delivery failed); refused requests show who asked without being allowed.
    QList<SignInRequest> pendingRequests() const;

    // Mails a test message with the current SMTP settings; finishes with "" or what went wrong.
    QFuture<QString> sendTestMessage(const QString &to);

    static QString invalidCodeMessage(); // "Invalid or expired code"

Q_SIGNALS:
    void requestsChanged(); // a request arrived, a code was used, a delivery finished

private:
    void deliver(const SignInRequest &request, const QString &code, const SmtpConfig &smtp);
    static QByteArray hashCode(const QByteArray &salt, const QString &code);

    Database &m_db;
    SignInRequestRepository &m_requests;
    SignInPolicy &m_policy;
    AccountService &m_accounts;
    Mailer &m_mailer;
    const Clock &m_clock;
};

} // namespace berth
