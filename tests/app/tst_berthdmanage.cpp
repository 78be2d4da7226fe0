// berthd's site commands against a real berthd process over HTTP: versions and rollback (the old content served
// again), rename (the new address serves, the old one is gone, a taken slug refused), protect and unprotect (what a
// visitor gets: 403, the password gate, the share link, 200), submissions after real POSTs to /_submit (listed,
// exported as CSV, deleted) and counters; named share links (made, listed with their opens, revoked); an update
// prepared with --prepare, live only after a rollback. Each with --json
// for scripts and its documented exit statuses.
#include "berthdprocess.h"
#include "httptestclient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::BerthdProcess;
using berth::test::HttpTestClient;
using berth::test::TestReply;

namespace {

// The exit statuses the commands document for bad usage, an unknown site and a taken slug.
enum : int
{
    kUsage = 2,
    kNotFound = 6,
    kConflict = 7
};

// The keys a JSON object has, sorted: what --json promises scripts.
QStringList keysOf(const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return {u"<not a JSON object: %1>"_s.arg(QString::fromUtf8(json))};
    return document.object().keys();
}

// A line of a table, split at its spaces.
QStringList cells(const QString &line)
{
    return line.split(u' ', Qt::SkipEmptyParts);
}

// A visitor's Cookie header from a response that let it in (the share link's redirect, the password gate's 303).
QList<QPair<QByteArray, QByteArray>> cookieFrom(const TestReply &reply)
{
    const QByteArray setCookie = reply.header("set-cookie");
    return {{"Cookie", setCookie.left(setCookie.indexOf(';'))}};
}

} // namespace

class TestBerthdManage : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_data;
    QTemporaryDir m_work;
    std::unique_ptr<BerthdProcess> m_server;
    std::unique_ptr<HttpTestClient> m_http;
    QByteArray m_key;

    BerthdProcess::Outcome client(const QStringList &arguments)
    {
        return m_server->runClient(arguments, m_key, m_work.path());
    }
    // `berthd deploy` of a one-page site (a new one, or an update of `slug` when update is set); its id.
    QString publish(const QString &slug, const QByteArray &html, bool update = false)
    {
        const QString page = m_work.filePath(slug + u".html"_s);
        QFile file(page);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(html) != html.size())
            return {};
        file.close();
        const auto outcome = client({u"deploy"_s, page, update ? u"--update"_s : u"--slug"_s, slug});
        if (outcome.exitCode != 0)
            qWarning("%s", outcome.err.constData());
        return QRegularExpression(u"\\((dep_\\w+)\\)"_s).match(QString::fromUtf8(outcome.out)).captured(1);
    }
    QString siteUrl(const QString &slug) const { return u"http://%1.localhost:%2"_s.arg(slug).arg(m_server->port()); }
    QString siteHost(const QString &slug) const { return u"%1.localhost:%2"_s.arg(slug).arg(m_server->port()); }
    static QString lineAfter(const QByteArray &out, const QString &label)
    {
        return QRegularExpression(QRegularExpression::escape(label) + u"\\s*(\\S+)"_s)
            .match(QString::fromUtf8(out))
            .captured(1);
    }
    // What a visitor gets at a share link: the redirect that sets the access cookie.
    TestReply openShareLink(const QString &slug, const QString &share)
    {
        return m_http->site(slug, QUrl(share).path() + u'?' + QUrl(share).query());
    }
    QJsonObject json(const QStringList &arguments)
    {
        const auto outcome = client(QStringList {arguments} << u"--json"_s);
        return outcome.exitCode == 0 ? QJsonDocument::fromJson(outcome.out).object() : QJsonObject();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_data.isValid() && m_work.isValid());
        m_server = BerthdProcess::startWithOwnerKey(m_data.path(), &m_key);
        QVERIFY(m_server);
        m_http = std::make_unique<HttpTestClient>(m_server->port());
    }

    void everyCommandHasHelpAndIsListed()
    {
        const auto overview = BerthdProcess::run({u"--help"_s});
        for (const QString &command : {u"versions"_s, u"rollback"_s, u"rename"_s, u"protect"_s, u"unprotect"_s,
                 u"link"_s, u"links"_s, u"unlink"_s, u"submissions"_s, u"counters"_s}) {
            const auto help = client({command, u"--help"_s});
            QCOMPARE(help.exitCode, 0);
            QVERIFY2(help.out.contains("berthd " + command.toUtf8() + " [options]"), help.out.constData());
            QVERIFY(help.out.contains("--json"));
            QVERIFY(help.out.contains("6 not found"));
            QVERIFY2(overview.out.contains("  " + command.toUtf8() + ' '), qPrintable(command));
            // No site named: a usage error.
            const auto bare = client({command});
            QCOMPARE(bare.exitCode, kUsage);
            QVERIFY2(bare.err.contains("needs SLUG|ID"), bare.err.constData());
        }
    }

    void unreachableServerIsExitThree()
    {
        // Nothing listens on port 1: each command says so and exits 3, as deploy and list do.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"BERTH_API_KEY"_s, QString::fromLatin1(m_key));
        for (const QStringList &arguments : {QStringList {u"versions"_s, u"a-site"_s},
                 QStringList {u"rollback"_s, u"a-site"_s, u"1"_s}, QStringList {u"rename"_s, u"a-site"_s, u"b-site"_s},
                 QStringList {u"protect"_s, u"a-site"_s}, QStringList {u"unprotect"_s, u"a-site"_s},
                 QStringList {u"submissions"_s, u"a-site"_s}, QStringList {u"counters"_s, u"a-site"_s}}) {
            const auto outcome = BerthdProcess::run(arguments + QStringList {u"--url"_s, u"http://127.0.0.1:1"_s}, env);
            QVERIFY2(outcome.exitCode == 3, qPrintable(arguments.join(u' ') + u": exit %1"_s.arg(outcome.exitCode)));
            QVERIFY2(!outcome.err.isEmpty(), qPrintable(arguments.join(u' ')));
        }
    }

    void versionsAndRollback()
    {
        const QString id = publish(u"history-site"_s, "<p>one</p>");
        QVERIFY(!id.isEmpty());
        QCOMPARE(publish(u"history-site"_s, "<p>two</p>", true), id);
        QCOMPARE(publish(u"history-site"_s, "<p>three</p>", true), id);

        auto outcome = client({u"versions"_s, u"history-site"_s});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        const QStringList lines = QString::fromUtf8(outcome.out).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        QVERIFY2(lines.at(0).startsWith(u"VERSION  CREATED"_s) && lines.at(0).contains(u"FILES  SIZE"_s),
            qPrintable(lines.at(0)));
        // Newest first; the served one is live.
        QCOMPARE(cells(lines.at(1)).mid(0, 1) + cells(lines.at(1)).mid(2, 4),
            (QStringList {u"3"_s, u"1"_s, u"0.0"_s, u"KB"_s, u"yes"_s}));
        QCOMPARE(cells(lines.at(2)).value(0), u"2"_s);
        QCOMPARE(cells(lines.at(2)).value(5), u"no"_s);
        QCOMPARE(cells(lines.at(3)).value(0), u"1"_s);

        const QJsonObject versions = json({u"versions"_s, id});
        QCOMPARE(versions.keys(), (QStringList {u"id"_s, u"versions"_s}));
        QCOMPARE(versions[u"id"_s].toString(), id);
        const QJsonObject newest = versions[u"versions"_s].toArray().at(0).toObject();
        QCOMPARE(newest.keys(),
            (QStringList {
                u"created_at"_s, u"file_count"_s, u"live"_s, u"title"_s, u"total_size"_s, u"url"_s, u"version"_s}));
        QCOMPARE(newest[u"version"_s].toInt(), 3);
        QVERIFY2(newest[u"url"_s].toString().startsWith(u"http://v3--history-site."_s),
            qPrintable(newest[u"url"_s].toString()));
        QCOMPARE(newest[u"file_count"_s].toInt(), 1);
        QCOMPARE(newest[u"total_size"_s].toInt(), 12);

        outcome = client({u"rollback"_s, u"history-site"_s, u"1"_s});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        QVERIFY2(outcome.out.contains("Rolled back history-site (" + id.toUtf8() + ") to version 1"),
            outcome.out.constData());
        QCOMPARE(lineAfter(outcome.out, u"URL:"_s), siteUrl(u"history-site"_s));
        QCOMPARE(m_http->site(u"history-site"_s).body, QByteArray("<p>one</p>"));
        const QJsonObject rolledBack = json({u"rollback"_s, id, u"2"_s});
        QCOMPARE(rolledBack.keys(), (QStringList {u"id"_s, u"slug"_s, u"url"_s}));
        QCOMPARE(m_http->site(u"history-site"_s).body, QByteArray("<p>two</p>"));

        // Not a version number (2); no such version, no such site (6).
        QCOMPARE(client({u"rollback"_s, u"history-site"_s, u"0"_s}).exitCode, kUsage);
        QCOMPARE(client({u"rollback"_s, u"history-site"_s, u"two"_s}).exitCode, kUsage);
        QCOMPARE(client({u"rollback"_s, u"history-site"_s}).exitCode, kUsage);
        outcome = client({u"rollback"_s, u"history-site"_s, u"99"_s});
        QCOMPARE(outcome.exitCode, kNotFound);
        QVERIFY2(outcome.err.startsWith("berthd: "), outcome.err.constData());
        QCOMPARE(m_http->site(u"history-site"_s).body, QByteArray("<p>two</p>"));
        QCOMPARE(client({u"rollback"_s, u"no-such-site"_s, u"1"_s}).exitCode, kNotFound);
        outcome = client({u"versions"_s, u"no-such-site"_s});
        QCOMPARE(outcome.exitCode, kNotFound);
        QCOMPARE(outcome.err, QByteArray("berthd: Deployment not found\n"));
        QVERIFY(outcome.out.isEmpty());
        QCOMPARE(client({u"versions"_s, u"history-site"_s, u"extra"_s}).exitCode, kUsage);
    }

    void rename()
    {
        const QString id = publish(u"first-name"_s, "<p>renamed</p>");
        QVERIFY(!id.isEmpty());
        QVERIFY(!publish(u"taken-name"_s, "<p>taken</p>").isEmpty());

        auto outcome = client({u"rename"_s, u"first-name"_s, u"second-name"_s});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        QVERIFY2(
            outcome.out.contains("Renamed first-name to second-name (" + id.toUtf8() + ")"), outcome.out.constData());
        QCOMPARE(lineAfter(outcome.out, u"URL:"_s), siteUrl(u"second-name"_s));
        QCOMPARE(m_http->site(u"second-name"_s).body, QByteArray("<p>renamed</p>"));
        QCOMPARE(m_http->site(u"first-name"_s).status, 404);

        // A taken slug: said so, nothing changed (7).
        outcome = client({u"rename"_s, u"second-name"_s, u"taken-name"_s});
        QCOMPARE(outcome.exitCode, kConflict);
        QVERIFY2(outcome.err.contains("berthd: slug \"taken-name\" is already taken"), outcome.err.constData());
        QVERIFY(outcome.err.contains("second-name keeps its address; choose another slug"));
        QCOMPARE(m_http->site(u"second-name"_s).body, QByteArray("<p>renamed</p>"));
        QCOMPARE(m_http->site(u"taken-name"_s).body, QByteArray("<p>taken</p>"));

        const QJsonObject renamed = json({u"rename"_s, id, u"third-name"_s});
        QCOMPARE(renamed.keys(), (QStringList {u"id"_s, u"slug"_s, u"url"_s}));
        QCOMPARE(renamed[u"url"_s].toString(), siteUrl(u"third-name"_s));

        // An invalid slug, a missing one (2); no such site (6).
        outcome = client({u"rename"_s, u"third-name"_s, u"Not A Slug"_s});
        QCOMPARE(outcome.exitCode, kUsage);
        QVERIFY(outcome.err.startsWith("berthd: "));
        QCOMPARE(client({u"rename"_s, u"third-name"_s}).exitCode, kUsage);
        QCOMPARE(client({u"rename"_s, u"no-such-site"_s, u"fresh-name"_s}).exitCode, kNotFound);
        QCOMPARE(m_http->site(u"third-name"_s).status, 200);
    }

    void protectAndUnprotect()
    {
        QVERIFY(!publish(u"guarded-site"_s, "<p>inside</p>").isEmpty());
        QCOMPARE(m_http->site(u"guarded-site"_s).status, 200);

        // Private: no way in but the share link.
        auto outcome = client({u"protect"_s, u"guarded-site"_s});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        QVERIFY(outcome.out.contains("Private: guarded-site (dep_"));
        const QString share = lineAfter(outcome.out, u"Share link:"_s);
        QVERIFY2(share.startsWith(siteUrl(u"guarded-site"_s) + u"/?_token="_s), outcome.out.constData());
        TestReply visit = m_http->site(u"guarded-site"_s);
        QCOMPARE(visit.status, 403);
        QVERIFY(!visit.body.contains("inside"));
        const TestReply linked = openShareLink(u"guarded-site"_s, share);
        QCOMPARE(linked.status, 302);
        QCOMPARE(m_http->site(u"guarded-site"_s, u"/"_s, "GET", cookieFrom(linked)).body, QByteArray("<p>inside</p>"));

        // A password too: the gate page asks for it, and the right one lets the visitor in.
        outcome = client({u"protect"_s, u"guarded-site"_s, u"--password"_s, u"open sesame"_s});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        QVERIFY(outcome.out.contains("Password:   set"));
        QCOMPARE(lineAfter(outcome.out, u"Share link:"_s), share);
        visit = m_http->site(u"guarded-site"_s);
        QCOMPARE(visit.status, 401);
        QVERIFY(visit.body.contains("action=\"/_gate\""));
        const TestReply passed = m_http->request("POST", siteHost(u"guarded-site"_s), u"/_gate"_s,
            "password=open+sesame&next=%2F", {{"Content-Type", "application/x-www-form-urlencoded"}});
        QCOMPARE(passed.status, 303);
        QCOMPARE(m_http->site(u"guarded-site"_s, u"/"_s, "GET", cookieFrom(passed)).body, QByteArray("<p>inside</p>"));

        // --remove-password: private still, the gate gone.
        outcome = client({u"protect"_s, u"guarded-site"_s, u"--remove-password"_s});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        QVERIFY(outcome.out.contains("Password:   removed"));
        QCOMPARE(m_http->site(u"guarded-site"_s).status, 403);

        // --new-link: the old link stops opening the site, the new one does.
        const QJsonObject renewed = json({u"protect"_s, u"guarded-site"_s, u"--new-link"_s});
        QCOMPARE(renewed.keys(), (QStringList {u"id"_s, u"share_url"_s, u"slug"_s, u"url"_s}));
        const QString newShare = renewed[u"share_url"_s].toString();
        QVERIFY(newShare != share);
        QCOMPARE(openShareLink(u"guarded-site"_s, share).status, 403);
        QCOMPARE(openShareLink(u"guarded-site"_s, newShare).status, 302);

        // Public again: everyone gets the page, the output has no share link.
        outcome = client({u"unprotect"_s, u"guarded-site"_s});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        QVERIFY(outcome.out.contains("Public: guarded-site (dep_"));
        QVERIFY(!outcome.out.contains("Share link"));
        QCOMPARE(m_http->site(u"guarded-site"_s).body, QByteArray("<p>inside</p>"));
        QCOMPARE(json({u"unprotect"_s, u"guarded-site"_s}).keys(), (QStringList {u"id"_s, u"slug"_s, u"url"_s}));

        // Both password options, an option unprotect does not take (2); unknown sites (6).
        outcome = client({u"protect"_s, u"guarded-site"_s, u"--password"_s, u"x"_s, u"--remove-password"_s});
        QCOMPARE(outcome.exitCode, kUsage);
        QVERIFY(outcome.err.contains("exclude each other"));
        QCOMPARE(client({u"unprotect"_s, u"guarded-site"_s, u"--password"_s, u"x"_s}).exitCode, kUsage);
        QCOMPARE(client({u"protect"_s, u"no-such-site"_s}).exitCode, kNotFound);
        QCOMPARE(client({u"unprotect"_s, u"dep_nothing"_s}).exitCode, kNotFound);
        QCOMPARE(m_http->site(u"guarded-site"_s).status, 200);
    }

    void preparedUpdatesWaitForARollback()
    {
        QVERIFY(!publish(u"cli-prepared"_s, "<h1>Live</h1>").isEmpty());
        const QString page = m_work.filePath(u"cli-prepared.html"_s);
        QFile file(page);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write("<h1>Next</h1>");
        file.close();
        const auto prepared = client({u"deploy"_s, page, u"--update"_s, u"cli-prepared"_s, u"--prepare"_s});
        QCOMPARE(prepared.exitCode, 0);
        QVERIFY2(prepared.out.startsWith("Prepared version 2 of cli-prepared ("), prepared.out.constData());
        QCOMPARE(lineAfter(prepared.out, u"URL:"_s), u"http://v2--cli-prepared.localhost:%1"_s.arg(m_server->port()));
        QVERIFY(prepared.out.contains("Not live:   'berthd rollback cli-prepared 2' publishes it"));
        // Visitors keep the live site; the version's own address has the new content.
        QCOMPARE(m_http->site(u"cli-prepared"_s).body, QByteArray("<h1>Live</h1>"));
        QCOMPARE(m_http->site(u"v2--cli-prepared"_s).body, QByteArray("<h1>Next</h1>"));
        QCOMPARE(client({u"rollback"_s, u"cli-prepared"_s, u"2"_s}).exitCode, 0);
        QCOMPARE(m_http->site(u"cli-prepared"_s).body, QByteArray("<h1>Next</h1>"));

        QCOMPARE(client({u"deploy"_s, page, u"--prepare"_s}).exitCode, int(kUsage));
        QCOMPARE(client({u"deploy"_s, page, u"--update"_s, u"cli-prepared"_s, u"--prepare"_s, u"--private"_s}).exitCode,
            int(kUsage));
        QCOMPARE(m_http->site(u"cli-prepared"_s).status, 200); // still public
    }

    void namedShareLinks()
    {
        QVERIFY(!publish(u"cli-links"_s, "<h1>Linked</h1>").isEmpty());
        QCOMPARE(client({u"protect"_s, u"cli-links"_s}).exitCode, 0);
        const auto made = client(
            {u"link"_s, u"cli-links"_s, u"--label"_s, u"Client"_s, u"--expires"_s, u"7d"_s, u"--max-opens"_s, u"2"_s});
        QCOMPARE(made.exitCode, 0);
        const QString id = QRegularExpression(u"Share link (lnk_\\w+) \\(Client\\)"_s)
                               .match(QString::fromUtf8(made.out))
                               .captured(1);
        QVERIFY2(!id.isEmpty(), made.out.constData());
        const QString url
            = QRegularExpression(u"(http://\\S+\\?_token=\\S+)"_s).match(QString::fromUtf8(made.out)).captured(1);
        QVERIFY(url.startsWith(siteUrl(u"cli-links"_s)));
        QVERIFY(made.out.contains("Max opens:  2"));

        const TestReply redirect = openShareLink(u"cli-links"_s, url);
        QCOMPARE(redirect.status, 302);
        QCOMPARE(m_http->site(u"cli-links"_s, u"/"_s, "GET", cookieFrom(redirect)).body, QByteArray("<h1>Linked</h1>"));

        const auto listed = client({u"links"_s, u"cli-links"_s});
        QCOMPARE(listed.exitCode, 0);
        const QString row = QString::fromUtf8(listed.out).split(u'\n').filter(id).value(0);
        QCOMPARE(cells(row).mid(1, 2), (QStringList {u"active"_s, u"1/2"_s}));
        QVERIFY(row.endsWith(u"Client"_s));
        QVERIFY(listed.out.contains("The site's own share link: " + siteUrl(u"cli-links"_s).toUtf8()));
        QCOMPARE(keysOf(client({u"links"_s, u"cli-links"_s, u"--json"_s}).out),
            (QStringList {u"id"_s, u"links"_s, u"share_url"_s}));

        const auto revoked = client({u"unlink"_s, u"cli-links"_s, id});
        QCOMPARE(revoked.exitCode, 0);
        QVERIFY(revoked.out.startsWith("Revoked " + id.toUtf8()));
        const TestReply refused = m_http->site(u"cli-links"_s, u"/"_s, "GET", cookieFrom(redirect));
        QCOMPARE(refused.status, 403);
        QVERIFY(refused.body.contains("This share link was revoked"));

        QCOMPARE(client({u"link"_s, u"cli-links"_s, u"--expires"_s, u"soon"_s}).exitCode, int(kUsage));
        QCOMPARE(client({u"link"_s, u"cli-links"_s, u"--max-opens"_s, u"0"_s}).exitCode, int(kUsage));
        QCOMPARE(client({u"unlink"_s, u"cli-links"_s, u"lnk_unknown"_s}).exitCode, int(kNotFound));
        QCOMPARE(client({u"links"_s, u"no-such-site"_s}).exitCode, int(kNotFound));
    }

    void submissions()
    {
        QVERIFY(!publish(u"form-site"_s, "<form method=post action=/_submit></form>").isEmpty());
        QStringList ids;
        for (const QByteArray body : {R"({"name":"Ada","message":"Hello there"})", R"({"name":"Grace","age":85})"}) {
            const TestReply posted = m_http->request(
                "POST", siteHost(u"form-site"_s), u"/_submit"_s, body, {{"Content-Type", "application/json"}});
            QCOMPARE(posted.status, 200);
            ids.prepend(posted.json()[u"id"_s].toString()); // newest first
        }

        auto outcome = client({u"submissions"_s, u"form-site"_s});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        const QStringList lines = QString::fromUtf8(outcome.out).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY2(lines.at(0).startsWith(u"ID"_s) && lines.at(0).contains(u"RECEIVED"_s), qPrintable(lines.at(0)));
        QVERIFY2(lines.at(1).startsWith(ids.at(0)) && lines.at(1).endsWith(u"age=85; name=Grace"_s),
            qPrintable(lines.at(1)));
        QVERIFY2(lines.at(2).startsWith(ids.at(1)) && lines.at(2).endsWith(u"message=Hello there; name=Ada"_s),
            qPrintable(lines.at(2)));

        const auto listed = client({u"submissions"_s, u"form-site"_s, u"--json"_s});
        QCOMPARE(keysOf(listed.out), (QStringList {u"next_before"_s, u"submissions"_s, u"total"_s}));
        const QJsonObject answer = QJsonDocument::fromJson(listed.out).object();
        QCOMPARE(answer[u"total"_s].toInt(), 2);
        QCOMPARE(answer[u"submissions"_s].toArray().at(0).toObject().keys(),
            (QStringList {u"created_at"_s, u"data"_s, u"id"_s}));
        QVERIFY(listed.out.contains(R"("data":{"name":"Ada","message":"Hello there"})")); // the form's own order

        outcome = client({u"submissions"_s, u"form-site"_s, u"--csv"_s});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        const QList<QByteArray> rows = outcome.out.trimmed().split('\n');
        QCOMPARE(rows.size(), 3);
        QVERIFY2(rows.at(0).contains("name") && rows.at(0).contains("message") && rows.at(0).contains("age"),
            rows.at(0).constData());
        QVERIFY(outcome.out.contains("Ada") && outcome.out.contains("Hello there") && outcome.out.contains("Grace"));

        outcome = client({u"submissions"_s, u"form-site"_s, u"--delete"_s, ids.at(1)});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        QCOMPARE(outcome.out, "Submission deleted: " + ids.at(1).toUtf8() + '\n');
        const QJsonObject after = json({u"submissions"_s, u"form-site"_s});
        QCOMPARE(after[u"total"_s].toInt(), 1);
        QCOMPARE(after[u"submissions"_s].toArray().at(0)[u"id"_s].toString(), ids.at(0));
        QVERIFY(!client({u"submissions"_s, u"form-site"_s, u"--csv"_s}).out.contains("Ada"));

        // Gone already, no such site (6); --csv with --delete or --json (2).
        QCOMPARE(client({u"submissions"_s, u"form-site"_s, u"--delete"_s, ids.at(1)}).exitCode, kNotFound);
        QCOMPARE(client({u"submissions"_s, u"no-such-site"_s}).exitCode, kNotFound);
        QCOMPARE(client({u"submissions"_s, u"no-such-site"_s, u"--csv"_s}).exitCode, kNotFound);
        outcome = client({u"submissions"_s, u"form-site"_s, u"--csv"_s, u"--delete"_s, ids.at(0)});
        QCOMPARE(outcome.exitCode, kUsage);
        QVERIFY(outcome.err.contains("--csv goes alone"));
        QCOMPARE(client({u"submissions"_s, u"form-site"_s, u"--csv"_s, u"--json"_s}).exitCode, kUsage);
        QCOMPARE(json({u"submissions"_s, u"form-site"_s})[u"total"_s].toInt(), 1);
    }

    void counters()
    {
        QVERIFY(!publish(u"count-site"_s, "<p>count</p>").isEmpty());
        auto outcome = client({u"counters"_s, u"count-site"_s});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        QCOMPARE(outcome.out, QByteArray("No counters.\n"));
        for (int i = 0; i < 2; ++i)
            QCOMPARE(m_http->site(u"count-site"_s, u"/_counter/visits/increment"_s, "POST").status, 200);

        outcome = client({u"counters"_s, u"count-site"_s});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        const QStringList lines = QString::fromUtf8(outcome.out).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines.at(0).startsWith(u"NAME    VALUE  UPDATED"_s));
        QVERIFY2(lines.at(1).startsWith(u"visits  2      "_s), qPrintable(lines.at(1)));
        const QJsonObject listed = json({u"counters"_s, u"count-site"_s});
        QCOMPARE(listed.keys(), QStringList {u"counters"_s});
        const QJsonObject visits = listed[u"counters"_s].toArray().at(0).toObject();
        QCOMPARE(visits.keys(), (QStringList {u"name"_s, u"updated_at"_s, u"value"_s}));
        QCOMPARE(visits[u"value"_s].toInt(), 2);

        outcome = client({u"counters"_s, u"count-site"_s, u"--delete"_s, u"visits"_s});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        QCOMPARE(outcome.out, QByteArray("Counter deleted: visits\n"));
        QCOMPARE(client({u"counters"_s, u"count-site"_s}).out, QByteArray("No counters.\n"));
        QCOMPARE(client({u"counters"_s, u"count-site"_s, u"--delete"_s, u"visits"_s}).exitCode, kNotFound);
        QCOMPARE(client({u"counters"_s, u"no-such-site"_s}).exitCode, kNotFound);
        QCOMPARE(client({u"counters"_s, u"count-site"_s, u"extra"_s}).exitCode, kUsage);
    }
};

QTEST_GUILESS_MAIN(TestBerthdManage)
#include "tst_berthdmanage.moc"
