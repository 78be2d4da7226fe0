#include "domain/accounts/otpservice.h"

#include "domain/accounts/emailaddress.h"
#include "domain/accounts/mailer.h"
#include "domain/accounts/signinpolicy.h"
#include "domain/common/clock.h"
#include "domain/common/randomid.h"
#include "storage/database.h"
#include "storage/signinrequestrepository.h"

#include <QCryptographicHash>
#include <QRandomGenerator>
#include <sodium.h>

using namespace Qt::StringLiterals;

namespace berth {

Q_LOGGING_CATEGORY(lcSignIn, "berth.signin")

namespace {

constexpr int kSaltLength = 16;
constexpr quint32 kCodeSpace = 1'000'000; // 10^kCodeDigits

Error invalidCode()
{
    return {Error::Kind::Unauthorized, OtpService::invalidCodeMessage()};
}

// Compares every byte whatever the first difference, so the time taken says nothing about the code.
bool sameBytes(const QByteArray &a, const QByteArray &b)
{
    return a.size() == b.size() && sodium_memcmp(a.constData(), b.constData(), size_t(a.size())) == 0;
}

bool isWellFormedCode(const QString &code)
{
    if (code.size() != OtpService::kCodeDigits)
        return false;
    return std::all_of(code.cbegin(), code.cend(), [](QChar c) { return c >= u'0' && c <= u'9'; });
}

MailMessage codeMessage(const QString &from, const QString &to, const QString &code)
{
    return {from, to, u"Your Berth sign-in code"_s,
        u"Your Berth sign-in code is %1\n\n"
        "It is valid for %2 minutes. Enter it on the sign-in page, or send it with POST /auth/verify.\n"
        "If you did not ask to sign in, you can ignore this message.\n"_s.arg(code)
            .arg(OtpService::kCodeLifetimeMs / 60'000)};
}

} // namespace

OtpService::OtpService(Database &db, SignInRequestRepository &requests, SignInPolicy &policy, AccountService &accounts,
    Mailer &mailer, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_db(db)
    , m_requests(requests)
    , m_policy(policy)
    , m_accounts(accounts)
    , m_mailer(mailer)
    , m_clock(clock)
{
}

QString OtpService::invalidCodeMessage()
{
    return u"Invalid or expired code"_s;
}

QByteArray OtpService::hashCode(const QByteArray &salt, const QString &code)
{
    return QCryptographicHash::hash(salt + ':' + code.toLatin1(), QCryptographicHash::Sha256).toHex();
}

Result<void> OtpService::requestCode(const QString &email)
{
    const auto address = EmailAddress::normalised(email);
    if (!address)
        return Error {Error::Kind::BadRequest, u"A valid email address is required"_s};
    const QDateTime now = m_clock.now();
    const quint32 number = QRandomGenerator::system()->bounded(kCodeSpace);
    const QString code = u"%1"_s.arg(qulonglong(number), kCodeDigits, 10, QChar(u'0'));
    const SmtpConfig smtp = m_policy.smtp();

    SignInRequest request;
    request.email = *address;
    request.allowed = m_policy.maySignIn(*address);
    request.codeSalt = RandomId::base62(kSaltLength).toLatin1();
    request.codeHash = hashCode(request.codeSalt, code);
    request.triesLeft = kMaxTries;
    request.requestedAt = now;
    request.expiresAt = now.addMSecs(kCodeLifetimeMs);
    if (!request.allowed) {
        request.delivery = SignInRequest::Delivery::Refused;
    } else if (smtp.isConfigured()) {
        request.delivery = SignInRequest::Delivery::Sending; // the code stays in memory until the mail is out
    } else {
        request.delivery = SignInRequest::Delivery::Owner;
        request.relayCode = code;
    }
    if (const Result<void> added = m_requests.add(request, now, kMaxLiveCodes); !added) {
        qCWarning(lcSignIn).noquote() << "could not store a sign-in request:" << added.error().message;
        return Error {Error::Kind::Internal, u"Could not process the request"_s};
    }
    if (request.delivery == SignInRequest::Delivery::Sending)
        deliver(request, code, smtp);
    else if (request.delivery == SignInRequest::Delivery::Owner)
        qCInfo(lcSignIn).noquote() << "sign-in code for" << request.email
                                   << "waits for the owner to relay it (berthd signin-requests)";
    Q_EMIT requestsChanged();
    return {};
}

void OtpService::deliver(const SignInRequest &request, const QString &code, const SmtpConfig &smtp)
{
    m_mailer.send(smtp, codeMessage(smtp.from, request.email, code))
        .then(this, [this, email = request.email, hash = request.codeHash, code](const QString &error) {
            m_policy.recordSmtpResult(error);
            if (error.isEmpty()) {
                m_requests.setDelivery(email, hash, SignInRequest::Delivery::Sent, {}, {});
            } else {
                // Only the owner learns of it: the requester was answered already, the same as everyone.
                qCWarning(lcSignIn).noquote() << "could not mail the sign-in code to" << email << "-" << error;
                m_requests.setDelivery(email, hash, SignInRequest::Delivery::Failed, error, code);
            }
            Q_EMIT requestsChanged();
        });
}

Result<OtpService::SignedIn> OtpService::verify(const QString &email, const QString &code)
{
    const QString address = EmailAddress::normalised(email).value_or(QString());
    QList<SignInRequest> live = address.isEmpty() ? QList<SignInRequest>() : m_requests.findAll(address);
    const QDateTime now = m_clock.now();
    for (const SignInRequest &request : std::as_const(live)) {
        if (request.expiresAt <= now)
            m_requests.remove(address, request.codeHash);
    }
    live.removeIf([&](const SignInRequest &request) { return request.expiresAt <= now; });
    if (live.isEmpty())
        return invalidCode();

    // Every check is made whatever the outcome of the others: a refused email costs what an allowed one does, and
    // every live code is compared.
    const SignInRequest *match = nullptr;
    for (const SignInRequest &request : std::as_const(live)) {
        if (sameBytes(hashCode(request.codeSalt, code), request.codeHash) && !match)
            match = &request;
    }
    const bool allowed = match && match->allowed && m_policy.maySignIn(address);
    if (!match || !allowed || !isWellFormedCode(code)) {
        for (const SignInRequest &request : std::as_const(live)) {
            if (request.triesLeft <= 1)
                m_requests.remove(address, request.codeHash);
            else
                m_requests.setTriesLeft(address, request.codeHash, request.triesLeft - 1);
        }
        return invalidCode();
    }

    // The codes are spent, the account exists and is a member (it stays allowed after sign-ups close), and the key
    // is issued: all or nothing.
    Transaction transaction(m_db.connection());
    if (!transaction.isActive() || !m_requests.remove(address, match->codeHash) || !m_requests.removeAll(address))
        return Error {Error::Kind::Internal, u"Could not sign in"_s};
    const bool created = !m_accounts.findUserByEmail(address);
    const auto user = m_accounts.ensureUser(address, u"free"_s);
    if (!user)
        return user.error();
    if (!m_policy.isAllowListed(address) && !m_policy.allow(address))
        return Error {Error::Kind::Internal, u"Could not sign in"_s};
    const auto key = m_accounts.createSignInKey(user.value().id);
    if (!key)
        return key.error();
    if (!transaction.commit())
        return Error {Error::Kind::Internal, u"Could not sign in"_s};
    qCInfo(lcSignIn).noquote() << (created ? "new account" : "signed in:") << address;
    Q_EMIT requestsChanged();
    return SignedIn {user.value(), key.value(), created};
}

QList<SignInRequest> OtpService::pendingRequests() const
{
    return m_requests.listLive(m_clock.now());
}

QFuture<QString> OtpService::sendTestMessage(const QString &to)
{
    const SmtpConfig smtp = m_policy.smtp();
    if (!smtp.isConfigured())
        return QtFuture::makeReadyFuture(u"SMTP is not configured"_s);
    const auto address = EmailAddress::normalised(to);
    if (!address)
        return QtFuture::makeReadyFuture(u"A valid email address is required"_s);
    return m_mailer.send(smtp,
        {smtp.from, *address, u"Berth test message"_s,
            u"Berth can send mail through %1:%2.\n"_s.arg(smtp.host).arg(smtp.port)});
}

} // namespace berth
