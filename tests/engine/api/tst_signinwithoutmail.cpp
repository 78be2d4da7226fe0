// The sign-in page on an instance that sends no mail says so, over real HTTP: sign-in by email is not available,
// ask the owner for a key (berthd key create --user EMAIL), or for the code the owner relays; with SMTP configured
// it promises a mailed code instead. What the page shows of each is tests/browser/signin.test.mjs's to check.
#include "domain/accounts/signinpolicy.h"
#include "enginefixture.h"

#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::TestReply;

class TestSignInWithoutMail : public QObject
{
    Q_OBJECT

private:
    EngineFixture m_fixture;

    TestReply loginPage() { return m_fixture.client().api("GET", u"/auth/login"_s, {}); }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_fixture.start()); }

    void withoutSmtp()
    {
        QVERIFY(!m_fixture.engine().signInPolicy().smtp().isConfigured());
        const TestReply page = loginPage();
        QCOMPARE(page.status, 200);
        QVERIFY(page.body.contains(R"(data-mail="off")"));
        QVERIFY(page.body.contains("Sign-in by email is not available on this instance"));
        QVERIFY(page.body.contains("<code>berthd key create --user EMAIL</code>"));
        // The owner-relay path stays: a code is made, for the owner to pass on.
        const TestReply asked
            = m_fixture.client().api("POST", u"/auth/otp"_s, {}, QJsonObject {{u"email"_s, u"ann@example.com"_s}});
        QCOMPARE(asked.status, 200);
    }

    void withSmtp()
    {
        berth::SmtpConfig smtp;
        smtp.host = u"127.0.0.1"_s;
        smtp.port = 2525;
        smtp.from = u"berth@example.test"_s;
        QVERIFY(m_fixture.engine().signInPolicy().setSmtp(smtp));
        const TestReply page = loginPage();
        QCOMPARE(page.status, 200);
        QVERIFY(page.body.contains(R"(data-mail="on")"));
        QVERIFY(page.body.contains("We send a 6-digit code to your email."));
    }
};

QTEST_GUILESS_MAIN(TestSignInWithoutMail)
#include "tst_signinwithoutmail.moc"
