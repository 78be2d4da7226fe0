// The SMTP mailer's message and address, and its failures: reported as text, never thrown, never blocking the
// caller. Delivery to a real server is proven over HTTP in tests/engine/api/tst_authotp.
#include "domain/accounts/smtpmailer.h"

#include <QTcpServer>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

class TestSmtpMailer final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void composesAPlainTextMessage()
    {
        const MailMessage message {u"berth@example.com"_s, u"ann@example.com"_s, u"Your Berth sign-in code"_s,
            u"Code: 123456\n\nBye \u00e9\n"_s};
        const QDateTime date(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);
        const QByteArray mail = SmtpMailer::compose(message, date, u"abc@example.com"_s);
        const QByteArray headers = mail.left(mail.indexOf("\r\n\r\n"));
        const QByteArray body = mail.mid(mail.indexOf("\r\n\r\n") + 4);
        QVERIFY(headers.startsWith("Date: 21 Nov 2026 06:00:00 +0000\r\n"));
        QVERIFY(headers.contains("\r\nFrom: Berth <berth@example.com>"));
        QVERIFY(headers.contains("\r\nTo: <ann@example.com>"));
        QVERIFY(headers.contains("\r\nSubject: Your Berth sign-in code"));
        QVERIFY(headers.contains("\r\nMessage-ID: <abc@example.com>"));
        QVERIFY(headers.contains("\r\nContent-Type: text/plain; charset=utf-8"));
        QCOMPARE(body, QByteArray("Code: 123456\r\n\r\nBye \xc3\xa9\r\n"));
        QVERIFY(!mail.contains("\n\n")); // every line ends in CRLF
    }

    void urls()
    {
        SmtpConfig config;
        config.host = u"mail.example.com"_s;
        config.port = 587;
        QCOMPARE(SmtpMailer::url(config), QByteArray("smtp://mail.example.com:587"));
        config.security = SmtpConfig::Security::Tls;
        config.port = 465;
        QCOMPARE(SmtpMailer::url(config), QByteArray("smtps://mail.example.com:465"));
        config.host = u"::1"_s;
        config.security = SmtpConfig::Security::None;
        config.port = 25;
        QCOMPARE(SmtpMailer::url(config), QByteArray("smtp://[::1]:25"));
    }

    void failuresComeBackAsText()
    {
        // A port nobody listens on: take a free one and close it again.
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        const quint16 port = probe.serverPort();
        probe.close();

        SmtpConfig config;
        config.host = u"127.0.0.1"_s;
        config.port = port;
        config.from = u"berth@example.com"_s;
        config.security = SmtpConfig::Security::None;
        SmtpMailer mailer;
        QFuture<QString> refused = mailer.send(config, {config.from, u"ann@example.com"_s, u"Hi"_s, u"Hi"_s});
        refused.waitForFinished();
        QVERIFY2(refused.result().contains(u"connect"_s, Qt::CaseInsensitive), qPrintable(refused.result()));

        config.from = u"not an address"_s;
        QFuture<QString> invalid = mailer.send(config, {config.from, u"ann@example.com"_s, u"Hi"_s, u"Hi"_s});
        QCOMPARE(invalid.result(), u"SMTP settings: from must be an email address"_s);
    }
};

QTEST_GUILESS_MAIN(TestSmtpMailer)
#include "tst_smtpmailer.moc"
