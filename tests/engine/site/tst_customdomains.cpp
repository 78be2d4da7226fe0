// Custom domains over real HTTP with Host headers: a site's own names serve it in every respect (files, _redirects,
// _headers, a private site's share link and password, /_submit, /_counter, analytics); names are checked (refused
// kinds, a name another site holds, the owner's policy) and stored in ASCII; a rename keeps them, a delete frees them.
// The CLI (berthd domains) as a child process against a real berthd.
#include "berthdprocess.h"
#include "domain/deploy/customdomainservice.h"
#include "enginefixture.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::BerthdProcess;
using berth::test::EngineFixture;
using berth::test::TestReply;

namespace {

using Headers = QList<QPair<QByteArray, QByteArray>>;

const QString kApiHost = u"api.example.test"_s;

QJsonArray textFiles(const QList<QPair<QString, QString>> &files)
{
    QJsonArray array;
    for (const auto &[path, content] : files)
        array.append(QJsonObject {{u"path"_s, path}, {u"content"_s, content}});
    return array;
}

QStringList namesOf(const QJsonArray &domains)
{
    QStringList names;
    for (const QJsonValue &domain : domains)
        names.append(domain[u"name"_s].toString());
    return names;
}

Headers cookieFrom(const TestReply &reply)
{
    const QByteArray setCookie = reply.header("set-cookie");
    return {{"Cookie", setCookie.left(setCookie.indexOf(';'))}};
}

} // namespace

class TestCustomDomains : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;

    QString hostOf(const QString &name) const { return name + u':' + QString::number(m_fixture->client().port()); }
    TestReply visit(const QString &name, const QString &path = u"/"_s, const QByteArray &method = "GET",
        const QByteArray &body = {}, const Headers &headers = {})
    {
        return m_fixture->client().request(method, hostOf(name), path, body, headers);
    }
    TestReply deploy(const QJsonObject &body, const QByteArray &key = {})
    {
        return m_fixture->client().api("POST", u"/deploy"_s, key.isEmpty() ? m_fixture->ownerKey() : key, body);
    }
    TestReply put(const QString &id, const QJsonObject &body, const QByteArray &key = {})
    {
        return m_fixture->client().api("PUT", u"/deploy/"_s + id, key.isEmpty() ? m_fixture->ownerKey() : key, body);
    }
    QJsonArray domainsOf(const QString &id)
    {
        return m_fixture->client().api("GET", u"/deploy/"_s + id, m_fixture->ownerKey()).json()[u"domains"_s].toArray();
    }
    // A one-page site with these domains: its id (empty when refused).
    QString site(const QString &slug, const QStringList &domains, const QString &html = u"<p>site</p>"_s)
    {
        const TestReply reply
            = deploy({{u"slug"_s, slug}, {u"html"_s, html}, {u"domains"_s, QJsonArray::fromStringList(domains)}});
        if (reply.status != 200)
            qWarning("deploy failed: %d %s", reply.status, reply.body.constData());
        return reply.json()[u"id"_s].toString();
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<EngineFixture>();
        berth::EngineSettings settings;
        settings.baseUrl = u"http://"_s + kApiHost; // an API host apart from the site domain, to be refused
        QVERIFY(m_fixture->start(settings));
    }
    void cleanup() { m_fixture.reset(); }

    void filesRulesAndHeadersOnACustomDomain()
    {
        const TestReply created = deploy({{u"slug"_s, u"docs-site"_s},
            {u"files"_s,
                textFiles({{u"index.html"_s, u"<h1>Docs home</h1>"_s}, {u"guide.html"_s, u"<h1>Guide</h1>"_s},
                    {u"_redirects"_s, u"/old /guide 301\n"_s}, {u"_headers"_s, u"/*\n  X-Docs: yes\n"_s}})},
            {u"domains"_s, QJsonArray {u"Docs.Example.ORG"_s}}});
        QCOMPARE(created.status, 200);
        QCOMPARE(namesOf(created.json()[u"domains"_s].toArray()), QStringList {u"docs.example.org"_s});
        const QString id = created.json()[u"id"_s].toString();

        const QJsonArray domains = domainsOf(id);
        QCOMPARE(domains.size(), 1);
        QCOMPARE(domains[0][u"name"_s].toString(), u"docs.example.org"_s);
        const QJsonObject certificate = domains[0][u"certificate"_s].toObject();
        QCOMPARE(certificate[u"status"_s].toString(), u"none"_s);
        QVERIFY(certificate.contains(u"expires_at"_s) && certificate[u"expires_at"_s].isNull());
        QVERIFY(certificate.contains(u"error"_s) && certificate[u"error"_s].isNull());

        TestReply home = visit(u"docs.example.org"_s);
        QCOMPARE(home.status, 200);
        QVERIFY(home.body.contains("Docs home"));
        QCOMPARE(home.header("x-docs"), QByteArray("yes"));
        QVERIFY(visit(u"DOCS.example.org"_s, u"/guide"_s).body.contains("Guide")); // Host is case-insensitive
        const TestReply moved = visit(u"docs.example.org"_s, u"/old"_s);
        QCOMPARE(moved.status, 301);
        QVERIFY(moved.header("location").endsWith("/guide"));
        QCOMPARE(visit(u"docs.example.org"_s, u"/missing"_s).status, 404);
        // The site's own address still serves it; a name no site holds is refused as before.
        QVERIFY(m_fixture->client().site(u"docs-site"_s).body.contains("Docs home"));
        QCOMPARE(visit(u"other.example.org"_s).status, 421);
    }

    void privateSiteShareLinkAndPasswordOnACustomDomain()
    {
        const TestReply created
            = deploy({{u"slug"_s, u"team-site"_s}, {u"protect"_s, true}, {u"password"_s, u"open sesame"_s},
                {u"html"_s, u"<h1>Team only</h1>"_s}, {u"domains"_s, QJsonArray {u"intranet.office.lan"_s}}});
        QCOMPARE(created.status, 200);
        const QString shareUrl = created.json()[u"share_url"_s].toString();
        const QString token = shareUrl.mid(shareUrl.indexOf(u"_token="_s) + 7);

        const TestReply gate = visit(u"intranet.office.lan"_s, u"/"_s, "GET", {}, {{"Accept", "text/html"}});
        QCOMPARE(gate.status, 401);
        QVERIFY(!gate.body.contains("Team only"));
        const TestReply linked = visit(u"intranet.office.lan"_s, u"/?_token="_s + token);
        QCOMPARE(linked.status, 302);
        QVERIFY(visit(u"intranet.office.lan"_s, u"/"_s, "GET", {}, cookieFrom(linked)).body.contains("Team only"));

        const TestReply wrong = visit(u"intranet.office.lan"_s, u"/_gate"_s, "POST", "password=nope",
            {{"Content-Type", "application/x-www-form-urlencoded"}});
        QCOMPARE(wrong.status, 401);
        const TestReply passed = visit(u"intranet.office.lan"_s, u"/_gate"_s, "POST", "password=open+sesame&next=%2F",
            {{"Content-Type", "application/x-www-form-urlencoded"}});
        QCOMPARE(passed.status, 303);
        QVERIFY(visit(u"intranet.office.lan"_s, u"/"_s, "GET", {}, cookieFrom(passed)).body.contains("Team only"));
    }

    void submissionsCountersAndAnalyticsOnACustomDomain()
    {
        const QString id = site(u"shop-site"_s, {u"shop.example.org"_s}, u"<form method=post action=/_submit>"_s);
        QVERIFY(!id.isEmpty());
        const TestReply submitted = visit(u"shop.example.org"_s, u"/_submit"_s, "POST", R"({"email":"a@b.example"})",
            {{"Content-Type", "application/json"}});
        QCOMPARE(submitted.status, 200);
        const QJsonArray submissions = m_fixture->client()
                                           .api("GET", u"/deploy/%1/submissions"_s.arg(id), m_fixture->ownerKey())
                                           .json()[u"submissions"_s]
                                           .toArray();
        QCOMPARE(submissions.size(), 1);

        QCOMPARE(visit(u"shop.example.org"_s, u"/_counter/likes/increment"_s, "POST").status, 200);
        QCOMPARE(visit(u"shop.example.org"_s, u"/_counter/likes/increment"_s, "POST").status, 200);
        QCOMPARE(visit(u"shop.example.org"_s, u"/_counter/likes"_s).json()[u"value"_s].toInteger(), 2);
        QCOMPARE(m_fixture->client().site(u"shop-site"_s, u"/_counter/likes"_s).json()[u"value"_s].toInteger(), 2);

        const Headers browser {{"User-Agent", "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0"}};
        QCOMPARE(visit(u"shop.example.org"_s, u"/"_s, "GET", {}, browser).status, 200);
        m_fixture->engine().flushAnalytics();
        const QJsonObject totals = m_fixture->client()
                                       .api("GET", u"/deploy/%1/analytics"_s.arg(id), m_fixture->ownerKey())
                                       .json()[u"totals"_s]
                                       .toObject();
        QCOMPARE(totals[u"views"_s].toInteger(), 1);
    }

    void aNameAnotherSiteHoldsIs409()
    {
        const QString first = site(u"first-site"_s, {u"www.example.org"_s});
        QVERIFY(!first.isEmpty());
        const TestReply taken = deploy({{u"slug"_s, u"second-site"_s}, {u"html"_s, u"<p>2</p>"_s},
            {u"domains"_s, QJsonArray {u"WWW.example.org."_s}}});
        QCOMPARE(taken.status, 409);
        QCOMPARE(taken.error(), u"Domain already in use"_s);
        QCOMPARE(m_fixture->client().site(u"second-site"_s).status, 404); // refused before anything was stored

        const QString second = site(u"second-site"_s, {});
        const TestReply update = put(second, {{u"domains"_s, QJsonArray {u"www.example.org"_s}}});
        QCOMPARE(update.status, 409);
        QCOMPARE(update.error(), u"Domain already in use"_s);
        // The holder may send its own name again, with others.
        QCOMPARE(put(first, {{u"domains"_s, QJsonArray {u"www.example.org"_s, u"example.org"_s}}}).status, 200);
        QCOMPARE(namesOf(domainsOf(first)), (QStringList {u"example.org"_s, u"www.example.org"_s}));
    }

    void refusedNamesAre400_data()
    {
        QTest::addColumn<QJsonArray>("domains");
        QTest::addColumn<QString>("words");
        QTest::newRow("wildcard") << QJsonArray {u"*.example.org"_s} << u"Wildcard"_s;
        QTest::newRow("IPv4") << QJsonArray {u"192.0.2.10"_s} << u"IP address"_s;
        QTest::newRow("IPv6") << QJsonArray {u"[2001:db8::1]"_s} << u"IP address"_s;
        QTest::newRow("under the site domain") << QJsonArray {u"blog.localhost"_s} << u"under the site domain"_s;
        QTest::newRow("the site domain") << QJsonArray {u"localhost"_s} << u"two labels"_s;
        QTest::newRow("the API host") << QJsonArray {kApiHost} << u"API's host"_s;
        QTest::newRow("LAN name") << QJsonArray {u"printer.local"_s} << u".local"_s;
        QTest::newRow("bad character") << QJsonArray {u"under_score.example.org"_s} << u"not a valid host name"_s;
        QTest::newRow("empty label") << QJsonArray {u"a..example.org"_s} << u"not a valid host name"_s;
        QTest::newRow("hyphen at the edge") << QJsonArray {u"-a.example.org"_s} << u"not a valid host name"_s;
        QTest::newRow("empty") << QJsonArray {u""_s} << u"must not be empty"_s;
        QTest::newRow("one label") << QJsonArray {u"intranet"_s} << u"two labels"_s;
        QTest::newRow("not a string") << QJsonArray {42} << u"array of host names"_s;
        QJsonArray eleven;
        for (int i = 0; i < 11; ++i)
            eleven.append(u"n%1.example.org"_s.arg(i));
        QTest::newRow("eleven") << eleven << u"at most 10 domains"_s;
    }
    void refusedNamesAre400()
    {
        QFETCH(QJsonArray, domains);
        QFETCH(QString, words);
        const TestReply refused
            = deploy({{u"slug"_s, u"refused-site"_s}, {u"html"_s, u"<p>x</p>"_s}, {u"domains"_s, domains}});
        QCOMPARE(refused.status, 400);
        QVERIFY2(refused.error().contains(words), qPrintable(refused.error()));
        const QString id = site(u"kept-site"_s, {});
        QCOMPARE(put(id, {{u"domains"_s, domains}}).status, 400);
        QCOMPARE(domainsOf(id), QJsonArray());
    }

    void tenNamesAreAllowedAndRepeatsCountOnce()
    {
        QStringList ten;
        for (int i = 0; i < 10; ++i)
            ten.append(u"n%1.example.org"_s.arg(i));
        const QString id = site(u"many-site"_s, ten);
        QVERIFY(!id.isEmpty());
        QCOMPARE(domainsOf(id).size(), 10);
        QCOMPARE(put(id, {{u"domains"_s, QJsonArray {u"a.example.org"_s, u"A.example.org"_s}}}).status, 200);
        QCOMPARE(namesOf(domainsOf(id)), QStringList {u"a.example.org"_s});
        QCOMPARE(visit(u"n3.example.org"_s).status, 421); // replaced: the old names serve nothing
    }

    void internationalNamesAreStoredInAscii()
    {
        const QString id = site(u"books-site"_s, {u"Bücher.Example"_s});
        QVERIFY(!id.isEmpty());
        QCOMPARE(namesOf(domainsOf(id)), QStringList {u"xn--bcher-kva.example"_s});
        QCOMPARE(visit(u"xn--bcher-kva.example"_s).status, 200);
        // Its ASCII form names the same host: taken.
        const TestReply again = deploy({{u"slug"_s, u"more-site"_s}, {u"html"_s, u"<p>x</p>"_s},
            {u"domains"_s, QJsonArray {u"xn--bcher-kva.example"_s}}});
        QCOMPARE(again.status, 409);
    }

    void onlyTheOwnersSitesByDefault()
    {
        const QByteArray user = m_fixture->keyFor(u"someone@example.org"_s);
        const TestReply refused = deploy({{u"slug"_s, u"theirs-site"_s}, {u"html"_s, u"<p>x</p>"_s},
                                             {u"domains"_s, QJsonArray {u"their.example"_s}}},
            user);
        QCOMPARE(refused.status, 403);
        QVERIFY2(refused.error().contains(u"owner"_s), qPrintable(refused.error()));
        // Without names, the same user deploys as ever.
        const TestReply plain
            = deploy({{u"slug"_s, u"theirs-site"_s}, {u"html"_s, u"<p>x</p>"_s}, {u"domains"_s, QJsonArray()}}, user);
        QCOMPARE(plain.status, 200);
        const QString id = plain.json()[u"id"_s].toString();

        QVERIFY(m_fixture->engine().customDomains().policy().set(berth::DomainPolicy::Who::Everyone));
        QCOMPARE(put(id, {{u"domains"_s, QJsonArray {u"their.example"_s}}}, user).status, 200);
        QVERIFY(visit(u"their.example"_s).body.contains("<p>x</p>"));
    }

    void renameKeepsDeleteFrees()
    {
        QSignalSpy changes(&m_fixture->engine().customDomains(), &berth::CustomDomainService::namesChanged);
        const QString id = site(u"before-site"_s, {u"keep.example.org"_s}, u"<p>kept</p>"_s);
        QVERIFY(!id.isEmpty());
        QCOMPARE(changes.size(), 1);
        QCOMPARE(changes.takeFirst().at(0).toStringList(), QStringList {u"keep.example.org"_s});
        QCOMPARE(m_fixture->engine().customDomains().names(), QStringList {u"keep.example.org"_s});

        const TestReply renamed = m_fixture->client().api(
            "PATCH", u"/deploy/%1/slug"_s.arg(id), m_fixture->ownerKey(), QJsonObject {{u"slug"_s, u"after-site"_s}});
        QCOMPARE(renamed.status, 200);
        QVERIFY(visit(u"keep.example.org"_s).body.contains("kept"));
        QCOMPARE(namesOf(domainsOf(id)), QStringList {u"keep.example.org"_s});
        QCOMPARE(changes.size(), 0); // the same names

        QCOMPARE(m_fixture->client().api("DELETE", u"/deploy/"_s + id, m_fixture->ownerKey()).status, 200);
        QCOMPARE(visit(u"keep.example.org"_s).status, 421);
        QCOMPARE(changes.size(), 1);
        QCOMPARE(m_fixture->engine().customDomains().names(), QStringList());
        const QString next = site(u"next-site"_s, {u"keep.example.org"_s}, u"<p>next</p>"_s);
        QVERIFY(!next.isEmpty());
        QVERIFY(visit(u"keep.example.org"_s).body.contains("next"));
    }

    void anEmptyListRemovesThemAndARestartKeepsThem()
    {
        const QString id = site(u"lasting-site"_s, {u"a.example.org"_s, u"b.example.org"_s});
        QCOMPARE(put(id, {{u"title"_s, u"no domains field"_s}}).status, 200); // omitted: unchanged
        QCOMPARE(domainsOf(id).size(), 2);
        QVERIFY(m_fixture->restart());
        QCOMPARE(visit(u"b.example.org"_s).status, 200);
        QCOMPARE(put(id, {{u"domains"_s, QJsonArray()}}).status, 200);
        QCOMPARE(domainsOf(id), QJsonArray());
        QCOMPARE(visit(u"a.example.org"_s).status, 421);
    }

    void expiryFreesThem()
    {
        m_fixture = std::make_unique<EngineFixture>();
        berth::EngineSettings settings;
        settings.expirySweepMs = 20;
        QVERIFY(m_fixture->startWithClock(QDateTime(QDate(2026, 1, 1), QTime(12, 0), Qt::UTC), settings));
        const TestReply created = deploy({{u"slug"_s, u"brief-site"_s}, {u"html"_s, u"<p>x</p>"_s},
            {u"expires_in"_s, 60}, {u"domains"_s, QJsonArray {u"brief.example.org"_s}}});
        QCOMPARE(created.status, 200);
        QCOMPARE(visit(u"brief.example.org"_s).status, 200);
        m_fixture->clock().advance(120 * 1000);
        QTRY_COMPARE(visit(u"brief.example.org"_s).status, 421);
    }

    void publishFalseCannotChangeDomains()
    {
        const QString id = site(u"staged-site"_s, {});
        const TestReply refused = put(
            id, {{u"html"_s, u"<p>v2</p>"_s}, {u"publish"_s, false}, {u"domains"_s, QJsonArray {u"s.example.org"_s}}});
        QCOMPARE(refused.status, 400);
    }

    void cliListsAddsAndRemoves()
    {
        m_fixture.reset(); // the CLI works on a berthd of its own
        QTemporaryDir data;
        QByteArray key;
        auto server = BerthdProcess::startWithOwnerKey(data.path(), &key);
        QVERIFY(server);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"BERTH_API_KEY"_s, QString::fromLatin1(key));
        const QString url = u"http://localhost:%1"_s.arg(server->port());
        const auto client = [&](QStringList arguments) {
            arguments << u"--url"_s << url;
            return BerthdProcess::run(arguments, env);
        };
        berth::test::HttpTestClient http(server->port());
        QCOMPARE(
            http.api("POST", u"/deploy"_s, key, QJsonObject {{u"slug"_s, u"cli-site"_s}, {u"html"_s, u"<p>cli</p>"_s}})
                .status,
            200);

        BerthdProcess::Outcome listed = client({u"domains"_s, u"cli-site"_s});
        QCOMPARE(listed.exitCode, 0);
        QVERIFY2(listed.out.contains("No custom domains"), listed.out.constData());

        const BerthdProcess::Outcome added = client({u"domains"_s, u"cli-site"_s, u"add"_s, u"Wiki.Example.org"_s});
        QCOMPARE(added.exitCode, 0);
        QVERIFY2(added.out.contains("wiki.example.org"), added.out.constData());
        QCOMPARE(client({u"domains"_s, u"cli-site"_s, u"add"_s, u"docs.example.org"_s}).exitCode, 0);
        const QString host = u"wiki.example.org:%1"_s.arg(server->port());
        QVERIFY(http.request("GET", host, u"/"_s).body.contains("cli"));

        listed = client({u"domains"_s, u"cli-site"_s});
        QCOMPARE(listed.exitCode, 0);
        QVERIFY2(
            listed.out.contains("docs.example.org") && listed.out.contains("wiki.example.org"), listed.out.constData());
        QVERIFY2(listed.out.contains("none"), listed.out.constData()); // the certificate's state

        const BerthdProcess::Outcome refused = client({u"domains"_s, u"cli-site"_s, u"add"_s, u"*.example.org"_s});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains("Wildcard"), refused.err.constData());

        QCOMPARE(client({u"domains"_s, u"cli-site"_s, u"remove"_s, u"wiki.example.org"_s}).exitCode, 0);
        QCOMPARE(http.request("GET", host, u"/"_s).status, 421);
        const BerthdProcess::Outcome missing
            = client({u"domains"_s, u"cli-site"_s, u"remove"_s, u"wiki.example.org"_s});
        QVERIFY(missing.exitCode != 0);
        QVERIFY2(missing.err.contains("wiki.example.org"), missing.err.constData());
        QCOMPARE(client({u"domains"_s, u"cli-site"_s, u"rename"_s, u"x"_s}).exitCode, 2);
    }

    void cliPolicy()
    {
        m_fixture.reset();
        QTemporaryDir data;
        const auto policy = [&](const QStringList &arguments) {
            return BerthdProcess::run(
                QStringList {u"domains"_s, u"policy"_s} + arguments + QStringList {u"--data-dir"_s, data.path()});
        };
        BerthdProcess::Outcome shown = policy({});
        QCOMPARE(shown.exitCode, 0);
        QVERIFY2(shown.out.contains("owner"), shown.out.constData());
        QCOMPARE(policy({u"everyone"_s}).exitCode, 0);
        shown = policy({});
        QVERIFY2(shown.out.contains("everyone"), shown.out.constData());
        QCOMPARE(policy({u"nobody"_s}).exitCode, 2);
        shown = policy({});
        QVERIFY2(shown.out.contains("everyone"), shown.out.constData()); // a refused value changes nothing
    }
};

QTEST_GUILESS_MAIN(TestCustomDomains)
#include "tst_customdomains.moc"
