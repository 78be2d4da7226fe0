// berth_screenshots DIR: renders the README's pictures of the dashboard (main window, publish sheet)
// offscreen from a throwaway engine with example sites. Run through `cmake --build <dir> --target screenshots`.
#include "appsettings.h"
#include "deploymentactions.h"
#include "engine.h"
#include "mainwindow.h"
#include "publishdialog.h"
#include "domain/accountservice.h"
#include "domain/deploymentservice.h"

#include <QApplication>
#include <QDir>
#include <QFutureWatcher>
#include <QEventLoop>
#include <QStyleFactory>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>

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
    return FileUpload{path, content, type};
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

bool addExamples(Engine &engine)
{
    const User owner = engine.accounts().ensureOwner().value().owner;
    DeployRequest docs;
    docs.slug = u"team-handbook"_s;
    docs.title = u"Team handbook"_s;
    docs.favicon = u"⚓"_s;
    docs.files = QList<FileUpload>{file(u"index.html"_s, "<h1>Handbook</h1>", "text/html; charset=utf-8"),
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
    portfolio.files = QList<FileUpload>{file(u"index.html"_s, "<div id=app></div>", "text/html; charset=utf-8"),
                                        file(u"app.js"_s, QByteArray(240'000, 'c'), "text/javascript; charset=utf-8")};
    DeployRequest notes;
    notes.slug = u"meeting-notes"_s;
    notes.html = u"<title>Meeting notes, week 47</title><p>Notes</p>"_s;
    notes.protect = true;
    notes.password = u"example password"_s;
    for (DeployRequest *request : {&docs, &launch, &portfolio, &notes}) {
        if (!deploy(engine, owner, *request))
            return false;
    }
    return true;
}

bool writeFolder(const QString &root)
{
    QDir dir(root);
    if (!dir.mkpath(u"photos"_s) || !dir.mkpath(u".git"_s))
        return false;
    const QList<std::pair<QString, qsizetype>> files{{u"index.html"_s, 2'400},      {u"style.css"_s, 3'100},
                                                      {u"photos/beach.jpg"_s, 820'000}, {u"photos/pier.jpg"_s, 640'000},
                                                      {u".git/HEAD"_s, 23},         {u".DS_Store"_s, 6'148}};
    for (const auto &[path, size] : files) {
        QFile out(dir.filePath(path));
        if (!out.open(QIODevice::WriteOnly) || out.write(QByteArray(size, 'x')) != size)
            return false;
    }
    return true;
}

bool save(QWidget *widget, const QString &path)
{
    const bool ok = widget->grab().save(path);
    QTextStream(stdout) << (ok ? "wrote " : "could not write ") << path << "\n";
    return ok;
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setStyle(QStyleFactory::create(u"Fusion"_s));
    if (argc != 2) {
        QTextStream(stderr) << "usage: berth_screenshots OUTPUT_DIR\n";
        return 2;
    }
    const QString output = QString::fromLocal8Bit(argv[1]);
    QTemporaryDir temp;
    if (!QDir().mkpath(output) || !temp.isValid())
        return 1;

    EngineSettings settings;
    settings.dataDir = temp.filePath(u"data"_s);
    settings.listenPort = 0;
    settings.siteDomain = u"localhost:8080"_s; // the addresses people would see by default
    settings.baseUrl = u"http://localhost:8080"_s;
    Engine engine(settings);
    QString error;
    if (!engine.start(&error) || !addExamples(engine)) {
        QTextStream(stderr) << "engine: " << error << "\n";
        return 1;
    }
    AppSettings appSettings(temp.filePath(u"dashboard.conf"_s));
    appSettings.setKeepServingInTray(false);
    MainWindow window(engine, appSettings);
    window.resize(1080, 440);
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
    sheet->adjustSize();
    return save(sheet, QDir(output).filePath(u"publish-sheet.png"_s)) ? 0 : 1;
}
