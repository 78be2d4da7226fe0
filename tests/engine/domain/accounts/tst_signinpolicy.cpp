// The owner's rules, kept in the database: who may sign in, where agents may come from, SMTP settings and the plan
// table; and the strict email form every sign-in goes through.
#include "domain/accounts/emailaddress.h"
#include "domain/accounts/signinpolicy.h"
#include "domain/common/clock.h"
#include "domain/plans/plansettings.h"
#include "storage/allowlistrepository.h"
#include "storage/database.h"
#include "storage/settingsrepository.h"

#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {
const QDateTime kStart(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);
}

class TestSignInPolicy final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    ManualClock m_clock {kStart};
    std::unique_ptr<Database> m_db;
    std::unique_ptr<SettingsRepository> m_settings;
    std::unique_ptr<AllowListRepository> m_allowList;
    std::unique_ptr<SignInPolicy> m_policy;

    // The same database through new objects, as after a restart or from another berthd process.
    void reopen()
    {
        m_policy.reset();
        m_allowList.reset();
        m_settings.reset();
        m_db.reset();
        m_db = std::make_unique<Database>(m_dir.filePath(u"berth.sqlite"_s));
        QVERIFY(m_db->open());
        m_settings = std::make_unique<SettingsRepository>(*m_db);
        m_allowList = std::make_unique<AllowListRepository>(*m_db);
        m_policy = std::make_unique<SignInPolicy>(*m_settings, *m_allowList, m_clock);
    }

private Q_SLOTS:
    void init()
    {
        QFile::remove(m_dir.filePath(u"berth.sqlite"_s));
        reopen();
    }

    void emailAddresses_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("expected"); // null: refused
        QTest::newRow("plain") << u"ann@example.com"_s << u"ann@example.com"_s;
        QTest::newRow("trimmed, lower-cased")
            << u"  Ann.Lee+berth@Mail.Example.COM "_s << u"ann.lee+berth@mail.example.com"_s;
        QTest::newRow("single-label domain") << u"root@localhost"_s << u"root@localhost"_s;
        QTest::newRow("empty") << u""_s << QString();
        QTest::newRow("no at") << u"ann.example.com"_s << QString();
        QTest::newRow("two ats") << u"ann@b@example.com"_s << QString();
        QTest::newRow("space") << u"ann lee@example.com"_s << QString();
        QTest::newRow("header injection") << u"ann@example.com\r\nBcc: eve@example.com"_s << QString();
        QTest::newRow("angle brackets") << u"<ann@example.com>"_s << QString();
        QTest::newRow("quote") << u"\"ann\"@example.com"_s << QString();
        QTest::newRow("bad domain") << u"ann@-example.com"_s << QString();
        QTest::newRow("empty label") << u"ann@example..com"_s << QString();
        QTest::newRow("local part too long") << QString(65, u'a') + u"@example.com"_s << QString();
        QTest::newRow("too long") << u"a@"_s + QString(250, u'b') << QString();
    }
    void emailAddresses()
    {
        QFETCH(QString, input);
        QFETCH(QString, expected);
        QCOMPARE(EmailAddress::normalised(input).value_or(QString()), expected);
    }

    void allowListOrOpenSignups()
    {
        QVERIFY(!m_policy->signupsOpen()); // closed by default
        QVERIFY(!m_policy->maySignIn(u"ann@example.com"_s));
        const auto added = m_policy->allow(u" Ann@Example.com"_s);
        QVERIFY(added);
        QCOMPARE(added.value().email, u"ann@example.com"_s);
        QCOMPARE(added.value().addedAt, kStart);
        QCOMPARE(m_policy->allow(u"not an email"_s).error().kind, Error::Kind::BadRequest);
        QVERIFY(m_policy->maySignIn(u"ann@example.com"_s));
        QVERIFY(!m_policy->maySignIn(u"bob@example.com"_s));

        QVERIFY(m_policy->setSignupsOpen(true));
        reopen();
        QVERIFY(m_policy->signupsOpen());
        QVERIFY(m_policy->maySignIn(u"bob@example.com"_s));
        QCOMPARE(m_policy->allowList().size(), 1);

        QCOMPARE(m_policy->disallow(u"ANN@example.com"_s).value(), u"ann@example.com"_s);
        QCOMPARE(m_policy->disallow(u"ann@example.com"_s).error().kind, Error::Kind::NotFound);
        QVERIFY(m_policy->setSignupsOpen(false));
        QVERIFY(!m_policy->maySignIn(u"ann@example.com"_s));
    }

    void agentSessionScope()
    {
        const QHostAddress loopback4(u"127.0.0.1"_s), loopback6(u"::1"_s), lan(u"192.168.1.20"_s), lan10(u"10.2.3.4"_s),
            lan172(u"172.20.0.5"_s), linkLocal(u"fe80::1"_s), ula(u"fd12::5"_s), publicV4(u"203.0.113.9"_s),
            notLan172(u"172.32.0.1"_s), publicV6(u"2001:db8::1"_s);
        QCOMPARE(m_policy->agentSessionScope(), AgentSessionScope::Loopback);
        QVERIFY(m_policy->allowsAgentSessionFrom(loopback4));
        QVERIFY(m_policy->allowsAgentSessionFrom(loopback6));
        QVERIFY(!m_policy->allowsAgentSessionFrom(lan));

        QVERIFY(m_policy->setAgentSessionScope(AgentSessionScope::Lan));
        reopen();
        QCOMPARE(m_policy->agentSessionScope(), AgentSessionScope::Lan);
        for (const QHostAddress &address : {loopback4, lan, lan10, lan172, linkLocal, ula})
            QVERIFY2(m_policy->allowsAgentSessionFrom(address), qPrintable(address.toString()));
        for (const QHostAddress &address : {publicV4, notLan172, publicV6})
            QVERIFY2(!m_policy->allowsAgentSessionFrom(address), qPrintable(address.toString()));

        QVERIFY(m_policy->setAgentSessionScope(AgentSessionScope::Anywhere));
        QVERIFY(m_policy->allowsAgentSessionFrom(publicV4));
        QCOMPARE(SignInPolicy::scopeFromName(u"lan"_s), AgentSessionScope::Lan);
        QVERIFY(!SignInPolicy::scopeFromName(u"everywhere"_s));
    }

    void smtpSettings()
    {
        QVERIFY(!m_policy->smtp().isConfigured());
        SmtpConfig config;
        config.host = u"mail.example.com"_s;
        config.port = 465;
        config.user = u"berth"_s;
        config.password = u"s3cret"_s;
        config.from = u"berth@example.com"_s;
        config.security = SmtpConfig::Security::Tls;
        QVERIFY(m_policy->setSmtp(config));
        reopen();
        const SmtpConfig stored = m_policy->smtp();
        QVERIFY(stored.isConfigured());
        QCOMPARE(stored.host, config.host);
        QCOMPARE(stored.port, 465);
        QCOMPARE(stored.user, u"berth"_s);
        QCOMPARE(stored.password, u"s3cret"_s);
        QCOMPARE(stored.from, config.from);
        QCOMPARE(stored.security, SmtpConfig::Security::Tls);

        SmtpConfig bad = config;
        bad.port = 0;
        QCOMPARE(m_policy->setSmtp(bad).error().message, u"port must be from 1 to 65535"_s);
        bad = config;
        bad.from = u"nobody"_s;
        QCOMPARE(m_policy->setSmtp(bad).error().kind, Error::Kind::BadRequest);
        bad = config;
        bad.host = u"mail.example.com\r\nRCPT TO:<x@y.z>"_s;
        QCOMPARE(m_policy->setSmtp(bad).error().kind, Error::Kind::BadRequest);
        bad = config;
        bad.password = u"a\nb"_s;
        QCOMPARE(m_policy->setSmtp(bad).error().kind, Error::Kind::BadRequest);
        QCOMPARE(m_policy->smtp().host, config.host); // refused settings leave the stored ones

        m_policy->recordSmtpResult(u"Login denied"_s);
        QDateTime when;
        QCOMPARE(m_policy->smtpLastError(&when), u"Login denied"_s);
        QCOMPARE(when, kStart);
        QVERIFY(m_policy->clearSmtp());
        QVERIFY(!m_policy->smtp().isConfigured());
        QVERIFY(m_policy->smtpLastError().isEmpty());
    }

    void planChangesPersistInTheSharedTable()
    {
        PlanTable plans;
        PlanSettings settings(*m_settings, plans);
        QVERIFY(settings.load());
        QCOMPARE(plans.limits(u"agent"_s), (PlanLimits {5, 50, 200, 10}));
        QCOMPARE(plans.limits(u"pro"_s).deployments, 50);
        QVERIFY(settings.setLimits(u"agent"_s, {2, 20, 30, 4}));
        QCOMPARE(plans.limits(u"agent"_s), (PlanLimits {2, 20, 30, 4})); // the very table the services read
        QCOMPARE(settings.setLimits(u"gold"_s, {1, 1, 1, 1}).error().kind, Error::Kind::BadRequest);
        QCOMPARE(settings.setLimits(u"free"_s, {-1, 1, 1, 1}).error().kind, Error::Kind::BadRequest);

        PlanTable later; // the next start
        QVERIFY(PlanSettings(*m_settings, later).load());
        QCOMPARE(later.limits(u"agent"_s), (PlanLimits {2, 20, 30, 4}));
        QCOMPARE(later.limits(u"free"_s), (PlanLimits {5, 250, 500, 50}));

        QVERIFY(settings.resetLimits(u"agent"_s));
        QCOMPARE(plans.limits(u"agent"_s), PlanTable().limits(u"agent"_s));
    }

    void aBrokenStoredTableKeepsTheDefaults()
    {
        QVERIFY(m_settings->setValue(u"plan_limits"_s, u"{\"gold\": {}}"_s));
        PlanTable plans;
        PlanSettings settings(*m_settings, plans);
        const Result<void> loaded = settings.load();
        QVERIFY(!loaded);
        QVERIFY(loaded.error().message.contains(u"berthd plans"_s));
        QCOMPARE(plans.limits(u"free"_s).deployments, 5);
        QVERIFY(settings.setLimits(u"free"_s, {6, 250, 500, 50})); // and can be repaired
        PlanTable later;
        QVERIFY(PlanSettings(*m_settings, later).load());
        QCOMPARE(later.limits(u"free"_s).deployments, 6);
    }
};

QTEST_GUILESS_MAIN(TestSignInPolicy)
#include "tst_signinpolicy.moc"
