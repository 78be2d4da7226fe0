// berthd's client commands against a real berthd process over HTTP: deploy (a folder with subfolders, an HTML
// file, an update, a private site), list, status, teardown, open; limits refused before upload, no server, a bad
// key, an agent identity on loopback with no key; each failure with its documented exit status.
#include "berthdprocess.h"
#include "httptestclient.h"
#include "publishfixture.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::BerthdProcess;
using berth::test::HttpTestClient;

namespace {

bool write(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

} // namespace

class TestBerthdClient : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_data;
    QTemporaryDir m_work; // sites to publish, the config folder, a fake xdg-open
    std::unique_ptr<BerthdProcess> m_server;
    std::unique_ptr<HttpTestClient> m_http;
    QByteArray m_key;

    QString url() const { return u"http://localhost:%1"_s.arg(m_server->port()); }
    QProcessEnvironment environment(const QByteArray &key) const
    {
        QProcessEnvironment env = BerthdProcess::clientEnvironment(key, m_work.path());
        env.insert(u"PATH"_s, m_work.filePath(u"bin"_s) + u':' + env.value(u"PATH"_s));
        return env;
    }
    BerthdProcess::Outcome client(QStringList arguments, const QByteArray &key, const QByteArray &input = {})
    {
        if (!arguments.contains(u"--url"_s))
            arguments << u"--url"_s << url();
        return BerthdProcess::run(arguments, environment(key), input);
    }
    BerthdProcess::Outcome client(const QStringList &arguments) { return client(arguments, m_key); }
    QString lineAfter(const QByteArray &out, const QString &label)
    {
        const auto match
            = QRegularExpression(QRegularExpression::escape(label) + u"\\s*(\\S+)"_s).match(QString::fromUtf8(out));
        return match.captured(1);
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
        // A stand-in browser for `berthd open`: records the address it was given.
        QVERIFY(write(m_work.filePath(u"bin/xdg-open"_s),
            "#!/bin/sh\necho \"$1\" > \"" + m_work.filePath(u"opened"_s).toUtf8() + "\"\n"));
        QFile(m_work.filePath(u"bin/xdg-open"_s)).setPermissions(QFileDevice::ExeOwner | QFileDevice::ReadOwner);
    }

    void folderWithSubfolders()
    {
        const QString site = m_work.filePath(u"folder-site"_s);
        QByteArray png("\x89PNG\r\n\x1a\n\0\x01\x02\xff", 12);
        QVERIFY(write(site + u"/index.html"_s, "<h1>Folder</h1>"));
        QVERIFY(write(site + u"/css/site.css"_s, "body{color:red}"));
        QVERIFY(write(site + u"/img/deep/pixel.png"_s, png));
        QVERIFY(write(site + u"/.git/config"_s, "[core]"));
        QVERIFY(write(site + u"/.env"_s, "SECRET=1"));
        const auto outcome = client({u"deploy"_s, site, u"--slug"_s, u"folder-site"_s, u"--title"_s, u"Folder"_s});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        QVERIFY2(outcome.out.contains("Published folder-site (dep_"), outcome.out.constData());
        QVERIFY(outcome.out.contains("3 files"));
        QCOMPARE(lineAfter(outcome.out, u"URL:"_s), u"http://folder-site.localhost:%1"_s.arg(m_server->port()));
        QVERIFY(!outcome.out.contains("Share link"));
        QVERIFY(outcome.err.contains("left out 2 hidden"));

        QCOMPARE(m_http->site(u"folder-site"_s).body, QByteArray("<h1>Folder</h1>"));
        QCOMPARE(m_http->site(u"folder-site"_s, u"/css/site.css"_s).body, QByteArray("body{color:red}"));
        const auto image = m_http->site(u"folder-site"_s, u"/img/deep/pixel.png"_s);
        QCOMPARE(image.body, png);
        QCOMPARE(image.header("content-type"), QByteArray("image/png"));
        QCOMPARE(m_http->site(u"folder-site"_s, u"/.git/config"_s).status, 404);

        const auto status = client({u"status"_s, u"folder-site"_s});
        QCOMPARE(status.exitCode, 0);
        QVERIFY(status.out.contains("title:        Folder"));
        QVERIFY(status.out.contains("storage_type: files"));
        const auto list = client({u"list"_s});
        QCOMPARE(list.exitCode, 0);
        QVERIFY(list.out.contains("folder-site"));
    }

    void deployHelpSaysEveryExitStatus()
    {
        const auto help = client({u"deploy"_s, u"--help"_s});
        QCOMPARE(help.exitCode, 0);
        QVERIFY2(help.out.contains("7 slug taken,\n8 not published"), help.out.constData());
        QVERIFY2(!help.out.contains("https://SLUG"), help.out.constData()); // the scheme is the instance's
    }

    void linksOutOfTheFolderAreNotPublished()
    {
        const QString site = m_work.filePath(u"linked-site"_s);
        QVERIFY(write(site + u"/index.html"_s, "<h1>Linked</h1>"));
        QVERIFY(QFile::link(u"/etc/hostname"_s, site + u"/host.txt"_s));
        // The pre-publish checks name the link; without a terminal to ask on, only --yes publishes.
        auto outcome = client({u"deploy"_s, site, u"--slug"_s, u"linked-site"_s});
        QCOMPARE(outcome.exitCode, 8);
        QVERIFY2(
            outcome.err.contains("Left out: host.txt is a link to outside the folder (or to nothing): it is left out"),
            outcome.err.constData());
        outcome = client({u"deploy"_s, site, u"--slug"_s, u"linked-site"_s, u"--yes"_s});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        QVERIFY2(outcome.err.contains("left out 1 link(s) to outside the folder: host.txt"), outcome.err.constData());
        QVERIFY(outcome.out.contains("1 file,"));
        QCOMPARE(m_http->site(u"linked-site"_s).body, QByteArray("<h1>Linked</h1>"));
        QCOMPARE(m_http->site(u"linked-site"_s, u"/host.txt"_s).status, 404);
    }

    void htmlFileAndUpdate()
    {
        const QString page = m_work.filePath(u"page.html"_s);
        QVERIFY(write(page, "<p>one</p>"));
        auto outcome = client({u"deploy"_s, page, u"--slug"_s, u"single-page"_s});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        const QString id = QRegularExpression(u"\\((dep_\\w+)\\)"_s).match(QString::fromUtf8(outcome.out)).captured(1);
        QVERIFY(!id.isEmpty());
        QCOMPARE(m_http->site(u"single-page"_s).body, QByteArray("<p>one</p>"));

        QVERIFY(write(page, "<p>two</p>"));
        outcome = client({u"deploy"_s, page, u"--update"_s, u"single-page"_s});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        QVERIFY(outcome.out.contains("Updated single-page (" + id.toLatin1() + ")"));
        QCOMPARE(m_http->site(u"single-page"_s).body, QByteArray("<p>two</p>"));

        QVERIFY(write(page, "<p>three</p>"));
        outcome = client({u"deploy"_s, page, u"--update"_s, id});
        QCOMPARE(outcome.exitCode, 0);
        QCOMPARE(m_http->site(u"single-page"_s).body, QByteArray("<p>three</p>"));

        // The slug is taken (7); an update of nothing (6).
        outcome = client({u"deploy"_s, page, u"--slug"_s, u"single-page"_s});
        QCOMPARE(outcome.exitCode, 7);
        QVERIFY2(outcome.err.contains("already taken"), outcome.err.constData());
        QVERIFY2(outcome.err.contains("replace its content with --update single-page"), outcome.err.constData());
        outcome = client({u"deploy"_s, page, u"--update"_s, u"no-such-site"_s});
        QCOMPARE(outcome.exitCode, 6);
        QVERIFY(outcome.err.contains("Deployment not found"));
    }

    void privateSite()
    {
        const QString page = m_work.filePath(u"secret.html"_s);
        QVERIFY(write(page, "<p>secret</p>"));
        const auto outcome = client({u"deploy"_s, page, u"--slug"_s, u"secret-site"_s, u"--private"_s});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        const QString share = lineAfter(outcome.out, u"Share link:"_s);
        QVERIFY2(share.contains(u"/?_token="_s), outcome.out.constData());
        QCOMPARE(m_http->site(u"secret-site"_s).status, 403);
        const QString target = QUrl(share).path() + u'?' + QUrl(share).query();
        QVERIFY(m_http->site(u"secret-site"_s, target).status / 100 == 2
            || m_http->site(u"secret-site"_s, target).status / 100 == 3);
    }

    void tooLargeIsRefusedBeforeUpload()
    {
        const QString site = m_work.filePath(u"large-site"_s);
        QVERIFY(write(site + u"/index.html"_s, "<p>big</p>"));
        QFile big(site + u"/media/big.bin"_s);
        QDir().mkpath(site + u"/media"_s);
        QVERIFY(big.open(QIODevice::WriteOnly) && big.resize(11 * 1024 * 1024));
        big.close();
        const int before = client({u"list"_s}).out.count('\n');
        auto outcome = client({u"deploy"_s, site, u"--slug"_s, u"large-site"_s});
        QCOMPARE(outcome.exitCode, 5);
        QVERIFY2(outcome.err.contains("\"media/big.bin\" is 11.0 MB; each file can be at most 10 MB"),
            outcome.err.constData());
        QCOMPARE(client({u"list"_s}).out.count('\n'), before);
        // Nothing was sent: the same refusal with no server at all.
        outcome = client({u"deploy"_s, site, u"--url"_s, u"http://127.0.0.1:1"_s});
        QCOMPARE(outcome.exitCode, 5);

        const QString page = m_work.filePath(u"huge.html"_s);
        QFile huge(page);
        QVERIFY(huge.open(QIODevice::WriteOnly) && huge.resize(6 * 1024 * 1024));
        huge.close();
        outcome = client({u"deploy"_s, page});
        QCOMPARE(outcome.exitCode, 5);
        QVERIFY(outcome.err.contains("\"huge.html\" is 6.0 MB"));
    }

    void prePublishChecks()
    {
        const QString site = m_work.filePath(u"problem-site"_s);
        QVERIFY(berth::test::writeProblemFolder(site));
        const int before = client({u"list"_s}).out.count('\n');
        // A file over a limit: everything found is listed, then the size check refuses as always (exit 5).
        auto outcome = client({u"deploy"_s, site, u"--slug"_s, u"problem-site"_s});
        QCOMPARE(outcome.exitCode, 5);
        QVERIFY2(outcome.err.contains("before publishing, 8 things to look at"), outcome.err.constData());
        for (const QString &finding : berth::test::problemFolderFindings())
            QVERIFY2(outcome.err.contains(finding.toUtf8()), qPrintable(finding));
        QVERIFY(outcome.err.contains("each file can be at most 10 MB"));

        // Within the limits, but standard input is no terminal to ask on and there is no --yes: not published.
        QVERIFY(QFile::remove(site + u"/video/big.bin"_s));
        outcome = client({u"deploy"_s, site, u"--slug"_s, u"problem-site"_s});
        QCOMPARE(outcome.exitCode, 8);
        QVERIFY2(outcome.err.contains("before publishing, 7 things to look at"), outcome.err.constData());
        QVERIFY(outcome.err.contains("Possible secret: keys/server.pem contains a private key block"));
        QVERIFY(outcome.err.contains("Broken link: home.html loads \"img/missing.png\", which is not in the folder"));
        QVERIFY(outcome.err.contains("No index.html"));
        QVERIFY(outcome.err.contains("Large image: img/hero.jpg is a 1.5 MB image"));
        QVERIFY(outcome.err.contains("no terminal") && outcome.err.contains("--yes"));
        QCOMPARE(client({u"list"_s}).out.count('\n'), before);

        // --yes publishes as it is, still listing what was found; a line of _redirects the server skipped is
        // reported after the address.
        QVERIFY(write(site + u"/_redirects"_s, "/home /home.html 200\n/shop /store 418\n"));
        outcome = client({u"deploy"_s, site, u"--slug"_s, u"problem-site"_s, u"--yes"_s});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        QVERIFY(outcome.err.contains("js/app.js contains what looks like an AWS access key"));
        QVERIFY2(
            outcome.err.contains("berthd: warning: _redirects line 2: unsupported status"), outcome.err.constData());
        QCOMPARE(m_http->site(u"problem-site"_s, u"/home"_s).status, 200);
        QVERIFY(outcome.out.contains("Published problem-site"));
        QCOMPARE(m_http->site(u"problem-site"_s, u"/home.html"_s).status, 200);
    }

    void noServerRunning()
    {
        const QString page = m_work.filePath(u"page.html"_s);
        const auto outcome = client({u"deploy"_s, page, u"--url"_s, u"http://127.0.0.1:1"_s});
        QCOMPARE(outcome.exitCode, 3);
        QVERIFY2(outcome.err.contains("cannot reach Berth at http://127.0.0.1:1"), outcome.err.constData());
        QVERIFY(outcome.err.contains("berthd serve"));
        QCOMPARE(client({u"list"_s, u"--url"_s, u"http://127.0.0.1:1"_s}).exitCode, 3);
    }

    void badKey()
    {
        const auto outcome = client({u"list"_s}, "bk_not-a-real-key");
        QCOMPARE(outcome.exitCode, 4);
        QVERIFY2(outcome.err.contains("the API key was refused (Unauthorized)"), outcome.err.constData());
        QVERIFY(outcome.err.contains("BERTH_API_KEY"));
        // No key and not this machine: how to get one.
        const auto remote = client({u"list"_s, u"--url"_s, u"http://berth.example.invalid"_s}, QByteArray());
        QCOMPARE(remote.exitCode, 4);
        QVERIFY(remote.err.contains("no API key"));
        QVERIFY(remote.err.contains("berthd key create"));
        QCOMPARE(client({u"list"_s, u"--url"_s, u"ftp://x"_s}).exitCode, 2);
    }

    void agentOnLoopbackWithNoKey()
    {
        const QString page = m_work.filePath(u"agent.html"_s);
        QVERIFY(write(page, "<p>agent</p>"));
        auto outcome = client({u"deploy"_s, page, u"--slug"_s, u"agent-page"_s}, QByteArray());
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        QVERIFY2(outcome.err.contains("working as a new agent"), outcome.err.constData());
        QVERIFY(outcome.err.contains("/auth/login?claim=clm_"));
        // The next command is the same agent: it sees the site, the owner's are not its own.
        outcome = client({u"list"_s}, QByteArray());
        QCOMPARE(outcome.exitCode, 0);
        QVERIFY(outcome.out.contains("agent-page"));
        QVERIFY(!outcome.out.contains("folder-site"));
        QVERIFY(!outcome.err.contains("new agent"));
    }

    void openAndTeardown()
    {
        auto outcome = client({u"open"_s, u"folder-site"_s});
        QCOMPARE(outcome.exitCode, 0);
        const QString address = u"http://folder-site.localhost:%1"_s.arg(m_server->port());
        QCOMPARE(outcome.out.trimmed(), address.toUtf8());
        QFile opened(m_work.filePath(u"opened"_s));
        QTRY_VERIFY(opened.exists() && opened.size() > 0);
        QVERIFY(opened.open(QIODevice::ReadOnly));
        QCOMPARE(opened.readAll().trimmed(), address.toUtf8());

        // Standard input is a pipe here, not a terminal: no --yes, no deletion.
        outcome = client({u"teardown"_s, u"folder-site"_s}, m_key, "y\n");
        QCOMPARE(outcome.exitCode, 2);
        QVERIFY(outcome.err.contains("--yes"));
        QCOMPARE(m_http->site(u"folder-site"_s).status, 200);

        outcome = client({u"teardown"_s, u"folder-site"_s, u"--yes"_s});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        QVERIFY(outcome.out.contains("deleted"));
        QCOMPARE(m_http->site(u"folder-site"_s).status, 404);
        QCOMPARE(client({u"status"_s, u"folder-site"_s}).exitCode, 6);
        QCOMPARE(client({u"teardown"_s, u"dep_nothing"_s, u"--yes"_s}).exitCode, 6);
    }
};

QTEST_GUILESS_MAIN(TestBerthdClient)
#include "tst_berthdclient.moc"
