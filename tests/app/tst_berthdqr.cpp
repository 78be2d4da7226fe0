// `berthd qr`: a real berthd serving, the code printed for a public site (its URL) and a private one (its share
// link), read back by zbarimg from an image of the printed text; an unknown site is refused.
#include "berthdprocess.h"
#include "qrscan.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::BerthdProcess;
using berth::test::QrScan::decodeHalfBlocks;

class TestBerthdQr : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_data;
    QTemporaryDir m_work;
    std::unique_ptr<BerthdProcess> m_server;
    QByteArray m_key;

    BerthdProcess::Outcome client(QStringList arguments)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"BERTH_API_KEY"_s, QString::fromLatin1(m_key));
        env.insert(u"XDG_CONFIG_HOME"_s, m_work.filePath(u"config"_s));
        arguments << u"--url"_s << u"http://localhost:%1"_s.arg(m_server->port());
        return BerthdProcess::run(arguments, env);
    }
    QString publish(const QString &slug, bool isPrivate, QString *shareLink)
    {
        const QString page = m_work.filePath(slug + u".html"_s);
        QFile file(page);
        if (!file.open(QIODevice::WriteOnly) || file.write("<p>hello</p>") < 0)
            return {};
        file.close();
        QStringList arguments {u"deploy"_s, page, u"--slug"_s, slug};
        if (isPrivate)
            arguments << u"--private"_s;
        const auto outcome = client(arguments);
        const QString out = QString::fromUtf8(outcome.out);
        if (shareLink)
            *shareLink = QRegularExpression(u"Share link:\\s*(\\S+)"_s).match(out).captured(1);
        return QRegularExpression(u"URL:\\s*(\\S+)"_s).match(out).captured(1);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_data.isValid() && m_work.isValid());
        const auto key = BerthdProcess::run({u"key"_s, u"create"_s, u"--data-dir"_s, m_data.path()});
        QCOMPARE(key.exitCode, 0);
        m_key = key.out.trimmed();
        m_server = std::make_unique<BerthdProcess>(m_data.path());
        QVERIFY(m_server->start());
    }

    void publicSiteAddress()
    {
        const QString url = publish(u"phone-site"_s, false, nullptr);
        QCOMPARE(url, u"http://phone-site.localhost:%1"_s.arg(m_server->port()));
        const auto outcome = client({u"qr"_s, u"phone-site"_s});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        const QString printed = QString::fromUtf8(outcome.out);
        QVERIFY2(!printed.contains(u'\x1b'), "no terminal colours when standard output is not a terminal");
        QVERIFY(printed.trimmed().endsWith(url)); // the address in words under the code
        QCOMPARE(decodeHalfBlocks(printed), std::optional<QString>(url));
    }

    void privateSiteShareLink()
    {
        QString share;
        publish(u"phone-secret"_s, true, &share);
        QVERIFY(share.contains(u"?_token="_s));
        const auto outcome = client({u"qr"_s, u"phone-secret"_s});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        QCOMPARE(decodeHalfBlocks(QString::fromUtf8(outcome.out)), std::optional<QString>(share));
    }

    void unknownSite()
    {
        const auto outcome = client({u"qr"_s, u"no-such-site"_s});
        QCOMPARE(outcome.exitCode, 6);
        QVERIFY(outcome.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestBerthdQr)
#include "tst_berthdqr.moc"
