// Sign-in codes: 6 digits, 10 minutes, 30 tries, stored hashed; mailed (the plain code kept only in memory while the
// mail is out) or relayed by the owner; refused emails cost the same and are told the same. Time is a ManualClock;
// the mailer is a stand-in that the test answers.
#include "domain/accounts/accountservice.h"
#include "domain/accounts/mailer.h"
#include "domain/accounts/otpservice.h"
#include "domain/accounts/signinpolicy.h"
#include "domain/common/clock.h"
#include "storage/allowlistrepository.h"
#include "storage/apikeyrepository.h"
#include "storage/database.h"
#include "storage/settingsrepository.h"
#include "storage/signinrequestrepository.h"
#include "storage/userrepository.h"

#include <QPromise>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {

const QDateTime kStart(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);
const QString kAnn = u"ann@example.com"_s;

// Keeps what would be sent; the test finishes each mail with success or an error.
class RecordingMailer final : public Mailer
{
public:
    struct Sent
    {
        SmtpConfig config;
        MailMessage message;
        std::shared_ptr<QPromise<QString>> promise;
    };

    QFuture<QString> send(const SmtpConfig &config, const MailMessage &message) override
    {
        auto promise = std::make_shared<QPromise<QString>>();
        promise->start();
        sent.append({config, message, promise});
        return promise->future();
    }
    static void finish(const Sent &mail, const QString &error)
    {
        mail.promise->addResult(error);
        mail.promise->finish();
    }

    QList<Sent> sent;
};

QString codeIn(const MailMessage &message)
{
    return QRegularExpression(u"\\b(\\d{6})\\b"_s).match(message.body).captured(1);
}

} // namespace

class TestOtpService final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<ManualClock> m_clock;
    std::unique_ptr<Database> m_db;
    std::unique_ptr<UserRepository> m_users;
    std::unique_ptr<ApiKeyRepository> m_keys;
    std::unique_ptr<SettingsRepository> m_settings;
    std::unique_ptr<AllowListRepository> m_allowList;
    std::unique_ptr<SignInRequestRepository> m_requests;
    std::unique_ptr<AccountService> m_accounts;
    std::unique_ptr<SignInPolicy> m_policy;
    std::unique_ptr<RecordingMailer> m_mailer;
    std::unique_ptr<OtpService> m_otp;

    void useSmtp()
    {
        SmtpConfig smtp;
        smtp.host = u"mail.example.com"_s;
        smtp.from = u"berth@example.com"_s;
        QVERIFY(m_policy->setSmtp(smtp));
    }
    // The code of the one request relayed by the owner.
    QString relayedCode(const QString &email)
    {
        for (const SignInRequest &request : m_otp->pendingRequests()) {
            if (request.email == email)
                return request.relayCode;
        }
        return {};
    }
    int rows(const QString &sql)
    {
        QSqlQuery query(m_db->connection());
        return query.exec(sql) && query.next() ? query.value(0).toInt() : -1;
    }
    static QString wrong(const QString &code) { return code == u"000000" ? u"000001"_s : u"000000"_s; }

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_clock = std::make_unique<ManualClock>(kStart);
        m_db = std::make_unique<Database>(m_dir->filePath(u"berth.sqlite"_s));
        QVERIFY(m_db->open());
        m_users = std::make_unique<UserRepository>(*m_db);
        m_keys = std::make_unique<ApiKeyRepository>(*m_db);
        m_settings = std::make_unique<SettingsRepository>(*m_db);
        m_allowList = std::make_unique<AllowListRepository>(*m_db);
        m_requests = std::make_unique<SignInRequestRepository>(*m_db);
        m_accounts = std::make_unique<AccountService>(*m_users, *m_keys, *m_clock);
        m_policy = std::make_unique<SignInPolicy>(*m_settings, *m_allowList, *m_clock);
        m_mailer = std::make_unique<RecordingMailer>();
        m_otp = std::make_unique<OtpService>(*m_db, *m_requests, *m_policy, *m_accounts, *m_mailer, *m_clock);
        QVERIFY(m_policy->allow(kAnn));
    }
    void cleanup()
    {
        m_otp.reset();
        m_mailer.reset();
        m_policy.reset();
        m_accounts.reset();
        m_requests.reset();
        m_allowList.reset();
        m_settings.reset();
        m_keys.reset();
        m_users.reset();
        m_db.reset();
        m_clock.reset();
        m_dir.reset();
    }

    void mailedCodeSignsInAndNeverRestsInTheDatabase()
    {
        useSmtp();
        QSignalSpy changed(m_otp.get(), &OtpService::requestsChanged);
        QVERIFY(m_otp->requestCode(u"  Ann@Example.com "_s));
        QCOMPARE(m_mailer->sent.size(), 1);
        const MailMessage message = m_mailer->sent.at(0).message;
        QCOMPARE(message.to, kAnn);
        QCOMPARE(message.from, u"berth@example.com"_s);
        const QString code = codeIn(message);
        QCOMPARE(code.size(), 6);
        QVERIFY(message.body.contains(u"10 minutes"_s));

        // While the mail is out the code exists only in memory: the row holds a salted hash.
        QCOMPARE(m_otp->pendingRequests().at(0).delivery, SignInRequest::Delivery::Sending);
        QVERIFY(m_otp->pendingRequests().at(0).relayCode.isNull());
        QCOMPARE(
            rows(u"SELECT COUNT(*) FROM signin_requests WHERE relay_code IS NOT NULL OR code_hash LIKE '%%1%'"_s.arg(
                code)),
            0);
        RecordingMailer::finish(m_mailer->sent.at(0), {});
        QTRY_COMPARE(m_otp->pendingRequests().at(0).delivery, SignInRequest::Delivery::Sent);
        QVERIFY(m_otp->pendingRequests().at(0).relayCode.isNull());
        QCOMPARE(changed.size(), 2); // the request, then its delivery

        const auto signedIn = m_otp->verify(kAnn, code);
        QVERIFY2(signedIn, qPrintable(signedIn.error().message));
        QVERIFY(signedIn.value().created);
        QCOMPARE(signedIn.value().user.email, kAnn);
        QCOMPARE(signedIn.value().user.plan, u"free"_s);
        QVERIFY(signedIn.value().key.secret.startsWith(u"bk_"_s));
        QVERIFY(m_accounts->authenticate("Bearer " + signedIn.value().key.secret.toLatin1()));
        QVERIFY(m_otp->pendingRequests().isEmpty()); // spent
        QCOMPARE(m_otp->verify(kAnn, code).error().kind, Error::Kind::Unauthorized); // once only

        // A second sign-in is the same account with another key.
        QVERIFY(m_otp->requestCode(kAnn));
        RecordingMailer::finish(m_mailer->sent.at(1), {});
        const auto again = m_otp->verify(kAnn, codeIn(m_mailer->sent.at(1).message));
        QVERIFY(again);
        QVERIFY(!again.value().created);
        QCOMPARE(again.value().user.id, signedIn.value().user.id);
        QVERIFY(again.value().key.secret != signedIn.value().key.secret);
    }

    void failedDeliveryIsTheOwnersToRelay()
    {
        useSmtp();
        QVERIFY(m_otp->requestCode(kAnn)); // the requester's answer does not wait for, or depend on, the mail
        RecordingMailer::finish(m_mailer->sent.at(0), u"Couldn't connect to server"_s);
        QTRY_COMPARE(m_otp->pendingRequests().at(0).delivery, SignInRequest::Delivery::Failed);
        const SignInRequest request = m_otp->pendingRequests().at(0);
        QCOMPARE(request.deliveryError, u"Couldn't connect to server"_s);
        QCOMPARE(request.relayCode, codeIn(m_mailer->sent.at(0).message));
        QDateTime when;
        QCOMPARE(m_policy->smtpLastError(&when), u"Couldn't connect to server"_s);
        QCOMPARE(when, kStart);
        QVERIFY(m_otp->verify(kAnn, request.relayCode));
        QCOMPARE(rows(u"SELECT COUNT(*) FROM signin_requests"_s), 0); // used: the relayed code is gone

        // A later success clears the owner's warning.
        QVERIFY(m_otp->requestCode(kAnn));
        RecordingMailer::finish(m_mailer->sent.at(1), {});
        QTRY_VERIFY(m_policy->smtpLastError().isEmpty());
    }

    void withoutSmtpTheOwnerRelaysTheCode()
    {
        QVERIFY(m_otp->requestCode(kAnn));
        QVERIFY(m_mailer->sent.isEmpty());
        const SignInRequest request = m_otp->pendingRequests().at(0);
        QCOMPARE(request.delivery, SignInRequest::Delivery::Owner);
        QVERIFY(QRegularExpression(u"^\\d{6}$"_s).match(request.relayCode).hasMatch());
        QCOMPARE(request.expiresAt, kStart.addSecs(600));
        QVERIFY(m_otp->verify(kAnn, request.relayCode));
    }

    void lateDeliveryOfAReplacedCodeChangesNothing()
    {
        useSmtp();
        QVERIFY(m_otp->requestCode(kAnn));
        QVERIFY(m_otp->requestCode(kAnn)); // a second code; the first stays valid
        const QString first = codeIn(m_mailer->sent.at(0).message);
        const QString second = codeIn(m_mailer->sent.at(1).message);
        RecordingMailer::finish(m_mailer->sent.at(0), u"timeout"_s);
        QTRY_COMPARE(m_policy->smtpLastError(), u"timeout"_s);
        QCOMPARE(m_otp->pendingRequests().at(0).delivery, SignInRequest::Delivery::Sending);
        QVERIFY(m_otp->pendingRequests().at(0).relayCode.isNull());
        QVERIFY(m_otp->verify(kAnn, second));
        if (first != second) // signing in spends every code of the email
            QCOMPARE(m_otp->verify(kAnn, first).error().message, OtpService::invalidCodeMessage());
    }

    void codesExpireAfterTenMinutes()
    {
        QVERIFY(m_otp->requestCode(kAnn));
        const QString code = relayedCode(kAnn);
        m_clock->advance(OtpService::kCodeLifetimeMs - 1);
        QVERIFY(!relayedCode(kAnn).isEmpty());
        m_clock->advance(1);
        QVERIFY(relayedCode(kAnn).isEmpty()); // no longer listed for the owner
        const auto expired = m_otp->verify(kAnn, code);
        QCOMPARE(expired.error().kind, Error::Kind::Unauthorized);
        QCOMPARE(expired.error().message, u"Invalid or expired code"_s);
        QCOMPARE(rows(u"SELECT COUNT(*) FROM signin_requests"_s), 0); // and removed
    }

    void limitedTriesPerCode()
    {
        QVERIFY(m_otp->requestCode(kAnn));
        QString code = relayedCode(kAnn);
        for (int i = 0; i < OtpService::kMaxTries - 1; ++i)
            QCOMPARE(m_otp->verify(kAnn, wrong(code)).error().kind, Error::Kind::Unauthorized);
        QVERIFY(m_otp->verify(kAnn, code)); // the fifth try may still be right

        QVERIFY(m_otp->requestCode(kAnn));
        code = relayedCode(kAnn);
        for (const QString &attempt : {wrong(code), u"12345"_s, u"abcdef"_s, u""_s})
            QCOMPARE(m_otp->verify(kAnn, attempt).error().kind, Error::Kind::Unauthorized);
        for (int i = 4; i < OtpService::kMaxTries; ++i)
            QCOMPARE(m_otp->verify(kAnn, wrong(code)).error().kind, Error::Kind::Unauthorized);
        QCOMPARE(m_otp->verify(kAnn, code).error().message, OtpService::invalidCodeMessage()); // used up
        QVERIFY(m_otp->pendingRequests().isEmpty());
    }

    void refusedEmailsAreRecordedButNeverSentAnything()
    {
        useSmtp();
        const QString stranger = u"stranger@example.com"_s;
        QVERIFY(m_otp->requestCode(stranger)); // the same answer as for Ann
        QVERIFY(m_mailer->sent.isEmpty());
        const SignInRequest refused = m_otp->pendingRequests().at(0);
        QCOMPARE(refused.email, stranger);
        QCOMPARE(refused.delivery, SignInRequest::Delivery::Refused);
        QVERIFY(refused.relayCode.isNull());
        QCOMPARE(rows(u"SELECT COUNT(*) FROM signin_requests WHERE code_hash <> ''"_s), 1); // the same row shape

        // No code signs in, and each try is counted as for anyone else: gone after its five tries.
        for (int i = 0; i < OtpService::kMaxTries; ++i) {
            QVERIFY(m_requests->find(stranger));
            const auto attempt = m_otp->verify(stranger, u"%1"_s.arg(i, 6, 10, QChar(u'0')));
            QCOMPARE(attempt.error().message, OtpService::invalidCodeMessage());
        }
        QVERIFY(!m_requests->find(stranger));
        QVERIFY(!m_accounts->findUserByEmail(stranger));
        QCOMPARE(m_otp->verify(u"nobody@example.com"_s, u"123456"_s).error().message, OtpService::invalidCodeMessage());
        QCOMPARE(m_otp->verify(u"not an email"_s, u"123456"_s).error().message, OtpService::invalidCodeMessage());
    }

    void malformedEmailIsTheOnlyRefusal()
    {
        for (const QString &email : {u""_s, u"ann"_s, u"ann@"_s, u"a b@example.com"_s,
                 u"ann@example.com\r\nBcc: x@y.z"_s, u"<ann@example.com>"_s}) {
            const Result<void> requested = m_otp->requestCode(email);
            QVERIFY2(!requested, qPrintable(email));
            QCOMPARE(requested.error().kind, Error::Kind::BadRequest);
        }
        QCOMPARE(rows(u"SELECT COUNT(*) FROM signin_requests"_s), 0);
    }

    void openSignupsLetAnyoneInAndKeepThemAfterClosing()
    {
        const QString newcomer = u"new@example.com"_s;
        QVERIFY(m_policy->setSignupsOpen(true));
        QVERIFY(m_otp->requestCode(newcomer));
        QVERIFY(m_otp->verify(newcomer, relayedCode(newcomer)));
        QVERIFY(m_policy->isAllowListed(newcomer)); // a member now

        QVERIFY(m_policy->setSignupsOpen(false));
        QVERIFY(m_otp->requestCode(newcomer));
        QVERIFY(m_otp->verify(newcomer, relayedCode(newcomer)));
        QVERIFY(m_otp->requestCode(u"late@example.com"_s));
        QCOMPARE(m_otp->pendingRequests().at(0).delivery, SignInRequest::Delivery::Refused);

        // Taken off the list between request and verify: the code no longer signs in.
        QVERIFY(m_otp->requestCode(newcomer));
        const QString code = relayedCode(newcomer);
        QVERIFY(m_policy->disallow(newcomer));
        QCOMPARE(m_otp->verify(newcomer, code).error().kind, Error::Kind::Unauthorized);
    }

    void codesAreUniformSixDigits()
    {
        QSet<QString> seen;
        for (int i = 0; i < 40; ++i) {
            QVERIFY(m_otp->requestCode(kAnn));
            const QString code = relayedCode(kAnn);
            QVERIFY(QRegularExpression(u"^\\d{6}$"_s).match(code).hasMatch());
            seen.insert(code);
        }
        QVERIFY(seen.size() > 30); // random, not a counter or a constant
    }

    void testMessageUsesTheSettings()
    {
        QCOMPARE(m_otp->sendTestMessage(kAnn).result(), u"SMTP is not configured"_s);
        useSmtp();
        QFuture<QString> sent = m_otp->sendTestMessage(kAnn);
        QCOMPARE(m_mailer->sent.size(), 1);
        QCOMPARE(m_mailer->sent.at(0).config.host, u"mail.example.com"_s);
        QCOMPARE(m_mailer->sent.at(0).message.to, kAnn);
        RecordingMailer::finish(m_mailer->sent.at(0), {});
        QCOMPARE(sent.result(), QString());
    }
};

QTEST_GUILESS_MAIN(TestOtpService)
#include "tst_otpservice.moc"
