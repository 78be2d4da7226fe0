// The checks before a folder is published: every kind of problem in one fixture folder, a clean folder with none,
// references resolved the way the server answers them, and bounded work on hostile input.
#include "domain/deploy/publishchecks.h"
#include "publishfixture.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::FolderFile;
using berth::PublishIssue;
namespace PublishChecks = berth::PublishChecks;

class TestPublishChecks : public QObject
{
    Q_OBJECT

private:
    static QList<PublishIssue> checkFolder(const QString &dir) { return PublishChecks::check(berth::listFolder(dir)); }
    static bool write(const QString &dir, const QString &path, const QByteArray &content)
    {
        QDir().mkpath(QFileInfo(dir + u'/' + path).absolutePath());
        QFile file(dir + u'/' + path);
        return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
    }
    static int count(const QList<PublishIssue> &issues, PublishIssue::Kind kind)
    {
        return int(
            std::count_if(issues.cbegin(), issues.cend(), [&](const PublishIssue &i) { return i.kind == kind; }));
    }

private Q_SLOTS:
    void everyKindOfProblem()
    {
        QTemporaryDir dir;
        QVERIFY(berth::test::writeProblemFolder(dir.path()));
        const QList<PublishIssue> issues = checkFolder(dir.path());
        QStringList messages;
        for (const PublishIssue &issue : issues)
            messages << issue.message;
        const QString all = messages.join(u'\n');
        QCOMPARE(count(issues, PublishIssue::Kind::NoIndex), 1);
        QCOMPARE(count(issues, PublishIssue::Kind::BrokenReference), 2);
        QCOMPARE(count(issues, PublishIssue::Kind::TooLarge), 1);
        QCOMPARE(count(issues, PublishIssue::Kind::Secret), 3);
        QCOMPARE(count(issues, PublishIssue::Kind::LargeImage), 1);
        QCOMPARE(issues.size(), 8);
        for (const QString &finding : berth::test::problemFolderFindings())
            QVERIFY2(all.contains(finding), qPrintable(finding + u" missing from:\n"_s + all));
        // Links that resolve (a clean URL, a folder's index, a parent folder, fragments, other sites) are fine.
        QVERIFY(!all.contains(u"about.html\","_s));
        QVERIFY(!all.contains(u"docs/\""_s));
        QVERIFY(!all.contains(u"example.com"_s));
    }

    void findingsCarryTheirParameters()
    {
        // A front end words each finding itself (the German dashboard): the finding and its parameters say it all.
        QTemporaryDir dir;
        QVERIFY(berth::test::writeProblemFolder(dir.path()));
        using Finding = PublishIssue::Finding;
        QMap<Finding, PublishIssue> byFinding;
        for (const PublishIssue &issue : checkFolder(dir.path()))
            byFinding.insert(issue.finding, issue);
        QCOMPARE(byFinding.size(), 8);
        QVERIFY(byFinding.contains(Finding::NoIndex));
        QCOMPARE(byFinding.value(Finding::SourceMissing).path, u"home.html"_s);
        QCOMPARE(byFinding.value(Finding::SourceMissing).reference, u"img/missing.png"_s);
        QCOMPARE(byFinding.value(Finding::SourceOutside).reference, u"../outside.js"_s);
        QCOMPARE(byFinding.value(Finding::FileTooLarge).path, u"video/big.bin"_s);
        QCOMPARE(byFinding.value(Finding::FileTooLarge).amount, 10 * 1024 * 1024 + 1);
        QCOMPARE(byFinding.value(Finding::FileTooLarge).limit, 10 * 1024 * 1024);
        QCOMPARE(byFinding.value(Finding::LargeImage).amount, 3 * 1024 * 1024 / 2);
        QCOMPARE(byFinding.value(Finding::EnvFile).path, u"config.env"_s);
        QCOMPARE(byFinding.value(Finding::PrivateKeyBlock).path, u"keys/server.pem"_s);
        QCOMPARE(byFinding.value(Finding::AwsAccessKey).path, u"js/app.js"_s);
        for (const PublishIssue &issue : std::as_const(byFinding))
            QCOMPARE(issue.kind == PublishIssue::Kind::Secret,
                issue.finding == Finding::EnvFile || issue.finding == Finding::PrivateKeyBlock
                    || issue.finding == Finding::AwsAccessKey);
    }

    void linksOutOfTheFolderAreNamed()
    {
        // They are left out of what is published (FolderReader); the checks say so before, each by name.
        QTemporaryDir dir;
        QVERIFY(write(dir.path(), u"index.html"_s, "<h1>Home</h1>"));
        QVERIFY(write(dir.path(), u"inside.txt"_s, "mine"));
        QVERIFY(QFile::link(u"/etc/hostname"_s, dir.filePath(u"host.txt"_s)));
        QVERIFY(QFile::link(u"gone.txt"_s, dir.filePath(u"dangling.txt"_s)));
        QVERIFY(QFile::link(u"inside.txt"_s, dir.filePath(u"alias.txt"_s))); // inside: published, nothing to say
        const QList<PublishIssue> issues = checkFolder(dir.path());
        QCOMPARE(count(issues, PublishIssue::Kind::LeftOut), 2);
        QCOMPARE(issues.size(), 2);
        QCOMPARE(issues.at(0).finding, PublishIssue::Finding::LinkLeftOut);
        QCOMPARE(issues.at(0).path, u"dangling.txt"_s);
        QCOMPARE(issues.at(1).path, u"host.txt"_s);
        QCOMPARE(issues.at(1).message, u"host.txt is a link to outside the folder (or to nothing): it is left out"_s);
        QCOMPARE(PublishChecks::kindName(PublishIssue::Kind::LeftOut), u"Left out"_s);
    }

    void cleanFolderHasNone()
    {
        QTemporaryDir dir;
        QVERIFY(write(dir.path(), u"index.html"_s,
            "<link href=style.css rel=stylesheet><a href=\"/blog/\">b</a><a href=\"blog/post?x=1#y\">p</a>"
            "<img src=\"data:image/png;base64,AAAA\"><a href=\"{{ url }}\">t</a><img src=\"img/a%20b.png\">"));
        QVERIFY(write(dir.path(), u"style.css"_s, "a{}"));
        QVERIFY(write(dir.path(), u"blog/index.html"_s, "<a href=\"../index.html\">up</a><a href=\"post\">p</a>"));
        QVERIFY(write(dir.path(), u"blog/post.html"_s, "<a href=\"/\">home</a>"));
        QVERIFY(write(dir.path(), u"img/a b.png"_s, "png"));
        QVERIFY(write(dir.path(), u".env"_s, "SECRET=1")); // hidden: never published, so not a problem
        const QList<PublishIssue> issues = checkFolder(dir.path());
        for (const PublishIssue &issue : issues)
            qWarning("%s", qPrintable(issue.message));
        QVERIFY(issues.isEmpty());
    }

    void manyIssuesAreSummarised()
    {
        QTemporaryDir dir;
        QByteArray page = "<p>";
        for (int i = 0; i < 200; ++i)
            page += "<img src=\"missing" + QByteArray::number(i) + ".png\">";
        QVERIFY(write(dir.path(), u"index.html"_s, page));
        const QList<PublishIssue> issues = checkFolder(dir.path());
        QCOMPARE(issues.size(), PublishChecks::kMaxIssuesPerKind + 1);
        QVERIFY(issues.last().message.contains(u"150 more"_s));
        QCOMPARE(issues.last().finding, PublishIssue::Finding::MoreOfKind);
        QCOMPARE(issues.last().amount, 150);
    }

    void eachCredentialPattern_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<int>("finding"); // -1: none
        const int none = -1;
        QTest::newRow("aws") << QByteArray("x = AKIAQ3EXAMPLEKEY7ZZZ;") << int(PublishIssue::Finding::AwsAccessKey);
        QTest::newRow("aws, lower case") << QByteArray("AKIAq3examplekey7zzz") << none;
        QTest::newRow("aws, cut short by the end") << QByteArray("AKIAQ3EXAMPLEKEY7") << none;
        QTest::newRow("github") << QByteArray("t=ghp_abcdefghijklmnopqrstuvwxyz")
                                << int(PublishIssue::Finding::GitHubToken);
        QTest::newRow("github pat") << QByteArray("github_pat_11ABCDEFG0abcdefghijklmn")
                                    << int(PublishIssue::Finding::GitHubToken);
        QTest::newRow("github, too short") << QByteArray("ghu_abc-defghijklmnopqrstuvwxyz") << none;
        QTest::newRow("slack") << QByteArray("xoxp-1234-abcd_ef") << int(PublishIssue::Finding::SlackToken);
        QTest::newRow("stripe") << QByteArray("rk_live_abcdefghijklmnop")
                                << int(PublishIssue::Finding::StripeSecretKey);
        QTest::newRow("google") << QByteArray("AIzaSyA-abcdefghijklmnopqrstuvwxyz_0123")
                                << int(PublishIssue::Finding::GoogleApiKey);
        QTest::newRow("a later whole token after a broken one")
            << QByteArray("AKIA-- AKIAQ3EXAMPLEKEY7ZZZ") << int(PublishIssue::Finding::AwsAccessKey);
        QTest::newRow("the first pattern names it")
            << QByteArray("AIzaSyA-abcdefghijklmnopqrstuvwxyz_0123 sk_live_abcdefghijklmnop")
            << int(PublishIssue::Finding::StripeSecretKey);
        QTest::newRow("a key block after a token") << QByteArray("AKIAQ3EXAMPLEKEY7ZZZ\n-----BEGIN EC PRIVATE KEY-----")
                                                   << int(PublishIssue::Finding::PrivateKeyBlock);
        QTest::newRow("a key block's end alone") << QByteArray("xx PRIVATE KEY-----") << none;
    }

    void eachCredentialPattern()
    {
        QFETCH(QByteArray, content);
        QFETCH(int, finding);
        QTemporaryDir dir;
        QVERIFY(write(dir.path(), u"index.html"_s, "<p>home</p>"));
        QVERIFY(write(dir.path(), u"config.js"_s, content));
        int found = -1;
        for (const PublishIssue &issue : checkFolder(dir.path())) {
            if (issue.kind == PublishIssue::Kind::Secret)
                found = int(issue.finding);
        }
        QCOMPARE(found, finding);
    }

    void hostileContentStaysLinear()
    {
        // Patterns that start a secret or a tag over and over, never finishing: every start is checked over a fixed
        // length, so the time follows the size, and only the bounded head of each file is read.
        QTemporaryDir dir;
        QVERIFY(write(dir.path(), u"index.html"_s, QByteArray("<a href=\"").repeated(200000)));
        QVERIFY(
            write(dir.path(), u"app.js"_s, QByteArray("AKIAAKIA-----BEGINPRIVATE KEY--ghp_xoxb-").repeated(100000)));
        QElapsedTimer timer;
        timer.start();
        checkFolder(dir.path());
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
    }
};

QTEST_GUILESS_MAIN(TestPublishChecks)
#include "tst_publishchecks.moc"
