// berth_screenshots DIR: renders the README's and packaging's pictures of the dashboard (main window, publish sheet, a
// site's submissions, the accounts window's users and sign-in) offscreen from a throwaway engine with example sites and
// visitors. Run through `cmake --build <dir> --target screenshots`, which also has tst_dialoglayout render every other
// window, checked, into docs/images/dashboard.
#include "domain/accounts/accountservice.h"
#include "domain/accounts/agentservice.h"
#include "domain/accounts/otpservice.h"
#include "domain/accounts/signinpolicy.h"
#include "domain/common/clock.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/visitors/counterservice.h"
#include "domain/visitors/submissionservice.h"
#include "instance/engine.h"
#include "ui/accounts/accountsdialog.h"
#include "ui/mainwindow/mainwindow.h"
#include "ui/publishing/publishdialog.h"
#include "ui/settings/appsettings.h"
#include "ui/sitelist/deploymentactions.h"
#include "ui/visitors/submissionsdialog.h"
#include "ui/widgets/translations.h"

#include <QApplication>
#include <QDir>
#include <QEventLoop>
#include <QFutureWatcher>
#include <QStyleFactory>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>
#include <QTreeWidget>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {

void waitUntil(const std::function<bool()> &done)
{
    QEventLoop loop;
    QTimer timer;
    QObject::connect(&timer, &QTimer::timeout, &loop, [&] {
        if (done())
            loop.quit();
    });
    timer.start(10);
    if (!done())
        loop.exec();
}

FileUpload file(const QString &path, const QByteArray &content, const QByteArray &type)
{
    return FileUpload {path, content, type};
}

bool deploy(Engine &engine, const User &owner, DeployRequest request)
{
    const QFuture<Result<Deployment>> future = engine.deployments().create(owner, std::move(request));
    waitUntil([&] { return future.isFinished(); });
    if (!future.result()) {
        QTextStream(stderr) << "example deploy failed: " << future.result().error().message << "\n";
        return false;
    }
    return true;
}

// Four sites, published some minutes apart.
bool addExamples(Engine &engine, ManualClock &clock)
{
    const User owner = engine.accounts().ensureOwner().value().owner;
    DeployRequest docs;
    docs.slug = u"team-handbook"_s;
    docs.title = u"Team handbook"_s;
    docs.favicon = u"⚓"_s;
    docs.files = QList<FileUpload> {file(u"index.html"_s, "<h1>Handbook</h1>", "text/html; charset=utf-8"),
        file(u"css/site.css"_s, QByteArray(18'000, 'a'), "text/css; charset=utf-8"),
        file(u"img/map.png"_s, QByteArray(410'000, 'b'), "image/png")};
    DeployRequest launch;
    launch.slug = u"launch-day"_s;
    launch.html = u"<title>Launch day</title><h1>Soon</h1>"_s;
    launch.protect = true;
    DeployRequest portfolio;
    portfolio.slug = u"ana-portfolio"_s;
    portfolio.title = u"Ana's portfolio"_s;
    portfolio.favicon = u"★"_s;
    portfolio.isSpa = true;
    portfolio.files = QList<FileUpload> {file(u"index.html"_s, "<div id=app></div>", "text/html; charset=utf-8"),
        file(u"app.js"_s, QByteArray(240'000, 'c'), "text/javascript; charset=utf-8")};
    DeployRequest notes;
    notes.slug = u"meeting-notes"_s;
    notes.html = u"<title>Meeting notes, week 47</title><p>Notes</p>"_s;
    notes.protect = true;
    notes.password = u"example password"_s;
    for (DeployRequest *request : {&docs, &launch, &portfolio, &notes}) {
        if (!deploy(engine, owner, *request))
            return false;
        clock.advance(25 * 60'000);
    }
    return true;
}

// What visitors left on the launch page's sign-up form and counters, a few minutes apart.
bool addVisitors(Engine &engine, ManualClock &clock)
{
    const User owner = engine.accounts().ensureOwner().value().owner;
    Deployment launch;
    for (const Deployment &deployment : engine.deployments().list(owner)) {
        if (deployment.slug == u"launch-day")
            launch = deployment;
    }
    const QList<QJsonObject> forms {
        {{u"email"_s, u"ana@example.com"_s}, {u"name"_s, u"Ana Lima"_s}, {u"message"_s, u"Count me in!"_s}},
        {{u"email"_s, u"ben.ortiz@example.org"_s}, {u"name"_s, u"Ben Ortiz"_s},
            {u"message"_s, u"Can I bring a friend?\nShe builds boats too."_s}},
        {{u"email"_s, u"chen@example.net"_s}, {u"name"_s, u"Chen Wei"_s}},
        {{u"email"_s, u"dora@example.com"_s}, {u"name"_s, u"Dora K."_s}, {u"message"_s, u"See you at the pier, 9am"_s},
            {u"newsletter"_s, u"yes"_s}},
        {{u"email"_s, u"eli@example.com"_s}, {u"name"_s, u"Eli"_s}, {u"message"_s, u"Is there parking nearby?"_s},
            {u"newsletter"_s, u"no"_s}},
    };
    for (const QJsonObject &form : forms) {
        clock.advance(17 * 60'000);
        if (!engine.submissions().receive(launch, form))
            return false;
    }
    for (const auto &[name, count] : QList<std::pair<QString, int>> {{u"visits"_s, 214}, {u"signups"_s, 5}}) {
        for (int i = 0; i < count; ++i) {
            if (!engine.counters().increment(launch, name))
                return false;
        }
        clock.advance(3 * 60'000);
    }
    return true;
}

// People besides the owner: two who signed in, one with sites and keys in use, an agent with a site, and two
// sign-in requests from the last minutes (one allowed, its code waiting to be passed on; one not allowed).
bool addAccounts(Engine &engine, ManualClock &clock)
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    clock.set(now.addSecs(-45 * 60));
    AccountService &accounts = engine.accounts();
    SignInPolicy &policy = engine.signInPolicy();
    for (const QString &email : {u"ana@example.com"_s, u"ben.ortiz@example.org"_s, u"chen@example.net"_s})
        policy.allow(email);
    const auto ana = accounts.ensureUser(u"ana@example.com"_s, u"free"_s);
    clock.advance(10 * 60'000);
    const auto ben = accounts.ensureUser(u"ben.ortiz@example.org"_s, u"free"_s);
    if (!ana || !ben || !accounts.setPlan(ben.value().id, u"pro"_s))
        return false;
    clock.advance(10 * 60'000);
    const auto agent = engine.agents().createSession();
    if (!agent)
        return false;
    const QList<std::pair<User, QString>> sites {{ana.value(), u"ana-recipes"_s}, {ana.value(), u"garden-log"_s},
        {ana.value(), u"book-club"_s}, {ben.value(), u"boat-plans"_s}, {agent.value().agent, u"agent-report"_s}};
    for (const auto &[user, slug] : sites) {
        DeployRequest request;
        request.slug = slug;
        request.html = u"<p>%1</p>"_s.arg(slug);
        if (!deploy(engine, user, request))
            return false;
    }
    for (const QString &label : {u"laptop"_s, u"ci"_s}) {
        const auto key = accounts.createKey(ana.value().id, label);
        if (!key)
            return false;
        clock.set(now.addSecs(-10 * 60));
        accounts.authenticate("Bearer " + key.value().secret.toLatin1());
    }
    policy.allow(u"dora@example.com"_s);
    clock.set(now.addSecs(-130));
    if (!engine.signIns().requestCode(u"dora@example.com"_s))
        return false;
    clock.set(now.addSecs(-50));
    if (!engine.signIns().requestCode(u"someone@example.biz"_s))
        return false;
    clock.set(now);
    return true;
}

bool writeFolder(const QString &root)
{
    QDir dir(root);
    if (!dir.mkpath(u"photos"_s) || !dir.mkpath(u".git"_s))
        return false;
    const QList<std::pair<QString, qsizetype>> files {{u"index.html"_s, 2'400}, {u"style.css"_s, 3'100},
        {u"photos/beach.jpg"_s, 820'000}, {u"photos/pier.jpg"_s, 640'000}, {u".git/HEAD"_s, 23},
        {u".DS_Store"_s, 6'148}};
    for (const auto &[path, size] : files) {
        QFile out(dir.filePath(path));
        if (!out.open(QIODevice::WriteOnly) || out.write(QByteArray(size, 'x')) != size)
            return false;
    }
    return true;
}

bool save(QWidget *widget, const QString &path)
{
    widget->show();
    widget->resize(widget->size().expandedTo(widget->sizeHint()));
    QCoreApplication::processEvents(); // palette and layout changes reach the widgets first
    const bool ok = widget->grab().save(path);
    QTextStream(stdout) << (ok ? "wrote " : "could not write ") << path << "\n";
    return ok;
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setStyle(QStyleFactory::create(u"Fusion"_s));
    const QStringList arguments = QCoreApplication::arguments().mid(1);
    if (arguments.size() != 1) {
        QTextStream(stderr) << "usage: berth_screenshots OUTPUT_DIR\n";
        return 2;
    }
    Translations translations;
    translations.install(QLocale(QLocale::English, QLocale::UnitedStates));
    const QString output = arguments.constFirst();
    QTemporaryDir temp;
    if (!QDir().mkpath(output) || !temp.isValid())
        return 1;

    // Example times lead up to now, as if the sites and their visitors had been busy this morning.
    ManualClock clock(QDateTime::currentDateTimeUtc().addSecs(-4 * 60 * 60));
    EngineSettings settings;
    settings.clock = &clock;
    settings.dataDir = temp.filePath(u"data"_s);
    settings.listenPort = 0;
    settings.siteDomain = u"localhost:8080"_s; // the addresses people would see by default
    settings.baseUrl = u"http://localhost:8080"_s;
    Engine engine(settings);
    const Result<void> started = engine.start();
    if (!started || !addExamples(engine, clock) || !addVisitors(engine, clock)) {
        QTextStream(stderr) << "engine: " << (started ? QString() : started.error().message) << "\n";
        return 1;
    }
    AppSettings appSettings(temp.filePath(u"dashboard.conf"_s));
    appSettings.setKeepServingInTray(false);
    MainWindow window(engine, appSettings);
    window.resize(1080, 330);
    window.show();
    window.selectDeployment(engine.deployments().listAll().constFirst().id);
    if (!save(&window, QDir(output).filePath(u"main-window.png"_s)))
        return 1;

    const QString folder = temp.filePath(u"holiday-photos"_s);
    if (!writeFolder(folder))
        return 1;
    window.actions().publish(folder);
    PublishDialog *sheet = nullptr;
    waitUntil([&] {
        sheet = window.findChild<PublishDialog *>();
        return sheet && sheet->stage() == PublishDialog::Stage::Ready;
    });
    if (!save(sheet, QDir(output).filePath(u"publish-sheet.png"_s)))
        return 1;
    sheet->reject();

    QString launchId;
    for (const Deployment &deployment : engine.deployments().listAll()) {
        if (deployment.slug == u"launch-day")
            launchId = deployment.id;
    }
    SubmissionsDialog *inbox = window.actions().showSubmissions(launchId, SubmissionsDialog::Tab::Submissions);
    if (!inbox)
        return 1;
    inbox->findChild<QTableView *>(u"submissionsTableView"_s)->selectRow(3); // the one with two lines
    inbox->resize(900, 470);
    if (!save(inbox, QDir(output).filePath(u"submissions.png"_s)))
        return 1;
    inbox->close();

    if (!addAccounts(engine, clock))
        return 1;
    AccountsDialog *accounts = window.showAccounts();
    accounts->resize(960, 500);
    accounts->showTab(AccountsDialog::Tab::Users);
    auto *users = accounts->findChild<QTreeWidget *>(u"usersTreeWidget"_s);
    const auto ana = users->findItems(u"ana@example.com"_s, Qt::MatchExactly);
    if (!ana.isEmpty())
        users->setCurrentItem(ana.constFirst()); // with her keys below
    if (!save(accounts, QDir(output).filePath(u"accounts-users.png"_s)))
        return 1;
    accounts->showTab(AccountsDialog::Tab::SignIn);
    if (!save(accounts, QDir(output).filePath(u"accounts-signin.png"_s)))
        return 1;
    accounts->showTab(AccountsDialog::Tab::Users);
    accounts->close();
    return 0;
}
