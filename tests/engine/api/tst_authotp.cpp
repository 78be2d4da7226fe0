// Signing in with a one-time code over real HTTP: mailed through a real SMTP server (Debian's aiosmtpd, started
// here on loopback) and read from the message it received; relayed by the owner without SMTP; wrong, expired and
// over-tried codes; failed delivery; and that no answer tells whether an email is known.
#include "domain/accounts/accountservice.h"
#include "domain/accounts/otpservice.h"
#include "domain/accounts/signinpolicy.h"
#include "enginefixture.h"
#include "signinsteps.h"
#include "smtptestserver.h"
#include "sourceclient.h"

#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::SmtpTestServer;
using berth::test::TestReply;
namespace SignInSteps = berth::test::SignInSteps;

namespace {

const QDateTime kStart(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);
const QString kAnn = u"ann@example.com"_s;
const QJsonObject kSent {{u"sent"_s, true}};
const QJsonObject kInvalidCode {{u"error"_s, u"Invalid or expired code"_s}};

QString codeIn(const QString &message)
{
    return QRegularExpression(u"sign-in code is (\\d{6})"_s).match(message).captured(1);
}

// A reply without what differs between any two replies (Date), for comparing answers.
QList<QPair<QByteArray, QByteArray>> comparable(const TestReply &reply)
{
    QList<QPair<QByteArray, QByteArray>> headers;
    for (const auto &header : reply.headers) {
        if (header.first != "date")
            headers.append(header);
    }
    return headers;
}

} // namespace

class TestAuthOtp : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;

    bool start()
    {
        m_fixture = std::make_unique<EngineFixture>();
        return m_fixture->startWithClock(kStart);
    }
    berth::Engine &engine() { return m_fixture->engine(); }
    TestReply otp(const QString &email)
    {
        return m_fixture->client().api("POST", u"/auth/otp"_s, {}, QJsonObject {{u"email"_s, email}});
    }
    TestReply verify(const QString &email, const QString &code)
    {
        return m_fixture->client().api(
            "POST", u"/auth/verify"_s, {}, QJsonObject {{u"email"_s, email}, {u"code"_s, code}});
    }
    void useSmtp(quint16 port, berth::SmtpConfig::Security security = berth::SmtpConfig::Security::None)
    {
        berth::SmtpConfig smtp;
        smtp.host = u"127.0.0.1"_s;
        smtp.port = port;
        smtp.from = u"berth@example.test"_s;
        smtp.security = security;
        QVERIFY(engine().signInPolicy().setSmtp(smtp));
    }
    berth::SignInRequest pending(const QString &email)
    {
        for (const berth::SignInRequest &request : engine().signIns().pendingRequests()) {
            if (request.email == email)
                return request;
        }
        return {};
    }
    TestReply verifyFrom(const QString &source, const QString &email, const QString &code)
    {
        return berth::test::SourceClient(engine().port(), QHostAddress(source))
            .request("POST", m_fixture->client().apiHost(), u"/auth/verify"_s,
                QJsonDocument(QJsonObject {{u"email"_s, email}, {u"code"_s, code}}).toJson(),
                {{"Content-Type", "application/json"}});
    }
    static QString wrong(const QString &code) { return code == u"000000" ? u"000001"_s : u"000000"_s; }

private Q_SLOTS:
    void init() { QVERIFY(start()); }
    void cleanup() { m_fixture.reset(); }

    void codeMailedThroughARealSmtpServer()
    {
        SmtpTestServer smtp;
        QVERIFY(smtp.start());
        useSmtp(smtp.port());
        QVERIFY(engine().signInPolicy().allow(kAnn));

        const TestReply sent = otp(u"Ann@Example.com"_s);
        QCOMPARE(sent.status, 200);
        QCOMPARE(sent.json(), kSent);
        QTRY_COMPARE_WITH_TIMEOUT(smtp.messages().size(), 1, 15'000);
        const QString message = smtp.messages().constFirst();
        QVERIFY2(message.contains(u"To: <ann@example.com>"_s), qPrintable(message));
        QVERIFY(message.contains(u"From: Berth <berth@example.test>"_s));
        QVERIFY(message.contains(u"Subject: Your Berth sign-in code"_s));
        const QString code = codeIn(message);
        QCOMPARE(code.size(), 6);
        QTRY_COMPARE(pending(kAnn).delivery, berth::SignInRequest::Delivery::Sent);
        QVERIFY(pending(kAnn).relayCode.isEmpty()); // mailed: the owner never sees it

        const TestReply verified = verify(kAnn, code);
        QCOMPARE(verified.status, 200);
        const QJsonObject json = verified.json();
        QCOMPARE(json.value(u"user"_s).toObject(), (QJsonObject {{u"email"_s, kAnn}, {u"plan"_s, u"free"_s}}));
        const QByteArray key = json.value(u"api_key"_s).toString().toLatin1();
        QVERIFY(QRegularExpression(u"^bk_[0-9A-Za-z]{40}$"_s).match(QString::fromLatin1(key)).hasMatch());
        QCOMPARE(m_fixture->client().api("GET", u"/deploys"_s, key).status, 200);
        QVERIFY(!m_fixture->deploySite(key, u"ann-first"_s).isEmpty());
        QCOMPARE(verify(kAnn, code).json(), kInvalidCode); // spent
    }

    void ownerRelaysTheCodeWithoutSmtp()
    {
        QVERIFY(engine().signInPolicy().allow(kAnn));
        QCOMPARE(otp(kAnn).json(), kSent);
        const berth::SignInRequest request = pending(kAnn);
        QCOMPARE(request.delivery, berth::SignInRequest::Delivery::Owner);
        QCOMPARE(request.expiresAt, kStart.addSecs(600));
        const TestReply verified = verify(kAnn, request.relayCode);
        QCOMPARE(verified.status, 200);
        QVERIFY(SignInSteps::relayedCode(engine(), kAnn).isEmpty()); // used: gone from the owner's list
    }

    void failedDeliveryIsTheOwnersAlone()
    {
        SmtpTestServer smtp;
        QVERIFY(smtp.start());
        // aiosmtpd here offers no STARTTLS, which Berth requires in this mode: it never falls back to plain text.
        useSmtp(smtp.port(), berth::SmtpConfig::Security::StartTls);
        QVERIFY(engine().signInPolicy().allow(kAnn));
        const TestReply sent = otp(kAnn);
        QCOMPARE(sent.status, 200);
        QCOMPARE(sent.json(), kSent);
        QTRY_COMPARE_WITH_TIMEOUT(pending(kAnn).delivery, berth::SignInRequest::Delivery::Failed, 15'000);
        const berth::SignInRequest failed = pending(kAnn);
        QVERIFY(!failed.deliveryError.isEmpty());
        QCOMPARE(engine().signInPolicy().smtpLastError(), failed.deliveryError);
        QVERIFY(smtp.messages().isEmpty());
        QCOMPARE(verify(kAnn, failed.relayCode).status, 200); // the owner passed it on
    }

    void wrongExpiredAndOverTriedCodes()
    {
        QVERIFY(engine().signInPolicy().allow(kAnn));
        QCOMPARE(otp(kAnn).status, 200);
        QString code = SignInSteps::relayedCode(engine(), kAnn);
        TestReply reply = verify(kAnn, wrong(code));
        QCOMPARE(reply.status, 401);
        QCOMPARE(reply.json(), kInvalidCode);
        QCOMPARE(verify(kAnn, code).status, 200); // one wrong try does not spoil it

        // Expired: ten minutes after the request.
        m_fixture->clock().advance(60'000);
        QCOMPARE(otp(kAnn).status, 200);
        code = SignInSteps::relayedCode(engine(), kAnn);
        m_fixture->clock().advance(berth::OtpService::kCodeLifetimeMs);
        reply = verify(kAnn, code);
        QCOMPARE(reply.status, 401);
        QCOMPARE(reply.json(), kInvalidCode);

        // Over-tried: kMaxTries wrong tries (more than one address may make) end the code, right or not after that.
        QCOMPARE(otp(kAnn).status, 200);
        code = SignInSteps::relayedCode(engine(), kAnn);
        static_assert(berth::OtpService::kMaxTries % berth::OtpService::kTriesPerAddress == 0);
        for (int i = 0; i < berth::OtpService::kMaxTries; ++i) {
            const QString source = u"127.0.0.%1"_s.arg(10 + i / berth::OtpService::kTriesPerAddress);
            QCOMPARE(verifyFrom(source, kAnn, wrong(code)).json(), kInvalidCode);
        }
        reply = verifyFrom(u"127.0.0.9"_s, kAnn, code);
        QCOMPARE(reply.status, 401);
        QCOMPARE(reply.json(), kInvalidCode);
    }

    // Asking for codes, or guessing them, from other addresses leaves the code Ann holds working.
    void strangersCannotVoidTheCodeYouHold()
    {
        QVERIFY(engine().signInPolicy().allow(kAnn));
        QCOMPARE(otp(kAnn).status, 200);
        const QString held = SignInSteps::relayedCode(engine(), kAnn);
        QVERIFY(!held.isEmpty());

        // A stranger asks for two more codes for Ann: her code stays.
        for (const QString &source : {u"127.0.0.20"_s, u"127.0.0.21"_s}) {
            const TestReply asked = berth::test::SourceClient(engine().port(), QHostAddress(source))
                                        .request("POST", m_fixture->client().apiHost(), u"/auth/otp"_s,
                                            R"({"email": "ann@example.com"})", {{"Content-Type", "application/json"}});
            QCOMPARE(asked.json(), kSent);
        }
        QCOMPARE(engine().signIns().pendingRequests().size(), berth::OtpService::kMaxLiveCodes);

        // The stranger guesses from one address: refused after kTriesPerAddress, and those tries cannot end the code.
        for (int i = 0; i < berth::OtpService::kTriesPerAddress; ++i)
            QCOMPARE(verifyFrom(u"127.0.0.22"_s, kAnn, wrong(held)).json(), kInvalidCode);
        m_fixture->clock().advance(60'000); // past the per-address limit of /auth/verify, still within the code's
        const TestReply limited = verifyFrom(u"127.0.0.22"_s, kAnn, held);
        QCOMPARE(limited.status, 429);
        QCOMPARE(limited.error(), u"Too many tries for this email from this address"_s);
        QCOMPARE(limited.header("retry-after"), QByteArray("540"));
        QVERIFY(verifyFrom(u"127.0.0.22"_s, u"bob@example.com"_s, u"123456"_s).status != 429); // another email

        // Ann's code still signs her in, and spends every code of hers.
        const QString other = SignInSteps::relayedCode(engine(), kAnn);
        const TestReply signedIn = verify(kAnn, held);
        QCOMPARE(signedIn.status, 200);
        QVERIFY(!signedIn.json().value(u"api_key"_s).toString().isEmpty());
        QCOMPARE(verify(kAnn, other).json(), kInvalidCode);
        QVERIFY(SignInSteps::relayedCode(engine(), kAnn).isEmpty());
    }

    void aFourthCodePushesOutTheOldest()
    {
        QVERIFY(engine().signInPolicy().allow(kAnn));
        QStringList codes;
        for (int i = 0; i <= berth::OtpService::kMaxLiveCodes; ++i) {
            m_fixture->clock().advance(21'000); // three a minute per address
            QCOMPARE(otp(kAnn).status, 200);
            codes.append(SignInSteps::relayedCode(engine(), kAnn));
        }
        QCOMPARE(engine().signIns().pendingRequests().size(), berth::OtpService::kMaxLiveCodes);
        if (!codes.mid(1).contains(codes.at(0)))
            QCOMPARE(verify(kAnn, codes.at(0)).json(), kInvalidCode);
        QCOMPARE(verify(kAnn, codes.at(1)).status, 200);
    }

    void badRequests()
    {
        berth::test::HttpTestClient &client = m_fixture->client();
        QCOMPARE(client.api("POST", u"/auth/otp"_s, {}, QJsonObject {}).json(),
            (QJsonObject {{u"error"_s, u"email is required"_s}}));
        QCOMPARE(client.api("POST", u"/auth/otp"_s, {}, QJsonObject {{u"email"_s, 5}}).json(),
            (QJsonObject {{u"error"_s, u"email must be a string"_s}}));
        QCOMPARE(client.api("POST", u"/auth/otp"_s, {}, QJsonObject {{u"email"_s, u"nobody"_s}}).json(),
            (QJsonObject {{u"error"_s, u"A valid email address is required"_s}}));
        m_fixture->clock().advance(60'000); // three a minute
        QCOMPARE(client.api("POST", u"/auth/otp"_s, {}, QByteArray("{oops")).status, 400);
        QCOMPARE(client.api("POST", u"/auth/verify"_s, {}, QJsonObject {{u"email"_s, kAnn}}).json(),
            (QJsonObject {{u"error"_s, u"code is required"_s}}));
        QCOMPARE(
            client.api("POST", u"/auth/verify"_s, {}, QJsonObject {{u"email"_s, kAnn}, {u"code"_s, 123456}}).json(),
            (QJsonObject {{u"error"_s, u"code must be a string"_s}}));
        QCOMPARE(client
                     .api("POST", u"/auth/verify"_s, {},
                         QJsonObject {{u"email"_s, kAnn}, {u"code"_s, u"123456"_s}, {u"claim_token"_s, 1}})
                     .status,
            400);
    }

    void noAnswerRevealsWhetherAnEmailIsKnown()
    {
        SmtpTestServer smtp;
        QVERIFY(smtp.start());
        useSmtp(smtp.port());
        // A member with an account, an allowed email without one, and a stranger.
        const QString member = u"member@example.com"_s;
        const QString invited = u"invited@example.com"_s;
        const QString stranger = u"stranger@example.com"_s;
        QVERIFY(engine().signInPolicy().allow(member));
        QCOMPARE(otp(member).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(smtp.messages().size(), 1, 15'000);
        QCOMPARE(verify(member, codeIn(smtp.messages().constFirst())).status, 200); // an account now
        QVERIFY(engine().signInPolicy().allow(invited));
        m_fixture->clock().advance(60'000);

        const TestReply first = otp(member);
        for (const QString &email : {invited, stranger}) {
            const TestReply reply = otp(email);
            QCOMPARE(reply.status, first.status);
            QCOMPARE(reply.body, first.body);
            QCOMPARE(comparable(reply), comparable(first));
        }
        m_fixture->clock().advance(60'000);
        const TestReply wrongForMember = verify(member, u"000000"_s);
        for (const QString &email : {invited, stranger, u"never-asked@example.com"_s}) {
            const TestReply reply = verify(email, u"000000"_s);
            QCOMPARE(reply.status, wrongForMember.status);
            QCOMPARE(reply.body, wrongForMember.body);
            QCOMPARE(comparable(reply), comparable(wrongForMember));
        }
        // Only the allowed ones got mail; the stranger's request is the owner's to see, not the stranger's.
        QTRY_COMPARE_WITH_TIMEOUT(smtp.messages().size(), 3, 15'000);
        QCOMPARE(pending(stranger).delivery, berth::SignInRequest::Delivery::Refused);

        // The limit counts every email alike: three from this address whoever they are for, then 429.
        m_fixture->clock().advance(60'000);
        QCOMPARE(otp(stranger).status, 200);
        QCOMPARE(otp(member).status, 200);
        QCOMPARE(otp(u"someone@example.com"_s).status, 200);
        const TestReply limited = otp(member);
        QCOMPARE(limited.status, 429);
        QCOMPARE(otp(stranger).body, limited.body);
    }
};

QTEST_GUILESS_MAIN(TestAuthOtp)
#include "tst_authotp.moc"
