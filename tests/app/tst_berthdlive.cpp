// `berthd deploy` sends only what changed, and `berthd deploy PATH --watch` keeps a site in step with its folder,
// against a real berthd server. Request bytes are counted by a loopback relay between the two.
#include "berthdprocess.h"
#include "countingrelay.h"
#include "httptestclient.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::BerthdProcess;
using berth::test::CountingRelay;
using berth::test::HttpTestClient;

namespace {

bool write(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

} // namespace

class TestBerthdLive : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_data;
    QTemporaryDir m_work;
    std::unique_ptr<BerthdProcess> m_server;
    std::unique_ptr<HttpTestClient> m_http;
    QByteArray m_key;

    QProcessEnvironment environment() const { return BerthdProcess::clientEnvironment(m_key, m_work.path()); }
    int newestVersion(const QString &slug)
    {
        const QJsonArray deployments = m_http->api("GET", u"/deploys"_s, m_key).json()[u"deployments"_s].toArray();
        for (const QJsonValue &d : deployments) {
            if (d[u"slug"_s].toString() == slug)
                return m_http->api("GET", u"/deploy/%1/versions"_s.arg(d[u"id"_s].toString()), m_key)
                    .json()[u"versions"_s][0][u"version"_s]
                    .toInt();
        }
        return -1;
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
        m_http = std::make_unique<HttpTestClient>(m_server->port());
    }

    void aRedeployWithOneChangedFileSendsOneFile()
    {
        const QString site = m_work.filePath(u"big-site"_s);
        QVERIFY(write(site + u"/index.html"_s, "<h1>v1</h1>"));
        for (int i = 0; i < 40; ++i) { // 40 files of 256 KiB: 10 MiB of content
            QByteArray bytes(256 * 1024, char('a' + i % 26));
            bytes.prepend(QByteArray::number(i));
            QVERIFY(write(site + u"/assets/file%1.bin"_s.arg(i), bytes));
        }
        CountingRelay relay(m_server->port());
        const QString url = u"http://localhost:%1"_s.arg(relay.port());
        // Runs berthd in the background so that the relay, on this thread, keeps relaying.
        const auto deploy = [&](const QStringList &arguments) {
            return berth::test::runWhileRelaying(
                QStringLiteral(BERTHD_PATH), arguments + QStringList {u"--url"_s, url}, environment());
        };

        auto first = deploy({u"deploy"_s, site, u"--slug"_s, u"big-site"_s});
        QCOMPARE(first.first, 0);
        const qint64 firstBytes = relay.takeSent();
        QVERIFY2(firstBytes > 10 * 1024 * 1024, qPrintable(QString::number(firstBytes)));

        QByteArray changed(256 * 1024, 'Z');
        QVERIFY(write(site + u"/assets/file7.bin"_s, changed));
        auto second = deploy({u"deploy"_s, site, u"--update"_s, u"big-site"_s});
        QCOMPARE(second.first, 0);
        const qint64 secondBytes = relay.takeSent();
        // One file's content (base64: 4/3 of 256 KiB) and 41 hashes, twice: nowhere near the 10 MiB again.
        QVERIFY2(secondBytes < 256 * 1024 * 4 / 3 + 40 * 1024, qPrintable(QString::number(secondBytes)));
        QVERIFY2(second.second.contains("Sent 1 of 41 files"), second.second.constData());
        QCOMPARE(m_http->site(u"big-site"_s, u"/assets/file7.bin"_s).body, changed);
        QCOMPARE(m_http->site(u"big-site"_s, u"/assets/file8.bin"_s).body.size(), 256 * 1024 + 1);
    }

    void watchKeepsTheSiteInStep()
    {
        const QString site = m_work.filePath(u"live-site"_s);
        QVERIFY(write(site + u"/index.html"_s, "<h1>one</h1>"));
        QVERIFY(write(site + u"/gone.txt"_s, "soon gone"));
        QProcess watcher;
        watcher.setProcessEnvironment(environment());
        watcher.start(QStringLiteral(BERTHD_PATH),
            {u"deploy"_s, site, u"--slug"_s, u"live-site"_s, u"--watch"_s, u"--url"_s,
                u"http://localhost:%1"_s.arg(m_server->port())});
        QByteArray output;
        QTRY_VERIFY2_WITH_TIMEOUT((output += watcher.readAllStandardOutput()).contains("Watching"),
            output + watcher.readAllStandardError(), 20000);
        QCOMPARE(m_http->site(u"live-site"_s).body, QByteArray("<h1>one</h1>"));

        QVERIFY(write(site + u"/index.html"_s, "<h1>two</h1>")); // an edit
        QTRY_COMPARE_WITH_TIMEOUT(m_http->site(u"live-site"_s).body, QByteArray("<h1>two</h1>"), 3000);
        QVERIFY(write(site + u"/sub/new.txt"_s, "added")); // an addition in a new folder
        QTRY_COMPARE_WITH_TIMEOUT(m_http->site(u"live-site"_s, u"/sub/new.txt"_s).body, QByteArray("added"), 3000);
        QVERIFY(QFile::remove(site + u"/gone.txt"_s)); // a deletion
        QTRY_COMPARE_WITH_TIMEOUT(m_http->site(u"live-site"_s, u"/gone.txt"_s).status, 404, 3000);

        // A refusal (a file over 10 MB) is reported and the watch goes on.
        QVERIFY(write(site + u"/huge.bin"_s, QByteArray(10 * 1024 * 1024 + 1, 'h')));
        QByteArray errors;
        QTRY_VERIFY_WITH_TIMEOUT((errors += watcher.readAllStandardError()).contains("not synced"), 5000);
        QVERIFY2(errors.contains("huge.bin"), errors.constData());
        QVERIFY(QFile::remove(site + u"/huge.bin"_s));
        QVERIFY(write(site + u"/index.html"_s, "<h1>three</h1>"));
        QTRY_COMPARE_WITH_TIMEOUT(m_http->site(u"live-site"_s).body, QByteArray("<h1>three</h1>"), 3000);

        // A burst of 500 changes: at most a few deploys.
        const int before = newestVersion(u"live-site"_s);
        for (int i = 0; i < 500; ++i)
            QVERIFY(write(site + u"/burst/f%1.txt"_s.arg(i % 100), QByteArray::number(i)));
        QTRY_COMPARE_WITH_TIMEOUT(m_http->site(u"live-site"_s, u"/burst/f99.txt"_s).body, QByteArray("499"), 5000);
        QTest::qWait(1500); // on the event loop: any late redeploy would land meanwhile
        const int deploys = newestVersion(u"live-site"_s) - before;
        QVERIFY2(deploys >= 1 && deploys <= 3, qPrintable(QString::number(deploys)));

        watcher.terminate(); // SIGTERM: the watch ends cleanly
        QVERIFY(watcher.waitForFinished(10000));
        QCOMPARE(watcher.exitStatus(), QProcess::NormalExit);
        QCOMPARE(watcher.exitCode(), 0);
    }
};

QTEST_GUILESS_MAIN(TestBerthdLive)
#include "tst_berthdlive.moc"
