#include "uitestsupport.h"

#include "deploymenttablemodel.h"
#include "deploymenttableview.h"
#include "domain/accountservice.h"
#include "domain/deploymentservice.h"
#include "domain/mimetypes.h"

#include <QDir>
#include <QMimeData>

using namespace Qt::StringLiterals;

namespace berth::test {

Dashboard::Dashboard() = default;

Dashboard::~Dashboard()
{
    m_window.reset();
    m_settings.reset();
}

bool Dashboard::start()
{
    if (!m_fixture.start())
        return false;
    m_settings = std::make_unique<AppSettings>(m_settingsDir.filePath(u"dashboard.conf"_s));
    m_settings->setKeepServingInTray(false);
    m_window = std::make_unique<MainWindow>(m_fixture.engine(), *m_settings);
    m_window->show();
    return QTest::qWaitForWindowExposed(m_window.get());
}

User Dashboard::owner()
{
    return engine().accounts().ensureOwner().value().owner;
}

QString Dashboard::deploy(const QString &slug, const QList<std::pair<QString, QByteArray>> &files)
{
    DeployRequest request;
    request.slug = slug;
    QList<FileUpload> uploads;
    for (const auto &[path, content] : files)
        uploads.append({path, content, MimeTypes::forPath(path)});
    request.files = uploads;
    const QFuture<Result<Deployment>> future = engine().deployments().create(owner(), request);
    if (!QTest::qWaitFor([&] { return future.isFinished(); }, 10'000) || !future.result()) {
        qWarning("deploy of %s failed", qPrintable(slug));
        return {};
    }
    return future.result().value().id;
}

void Dashboard::select(const QString &id)
{
    m_window->selectDeployment(id);
}

bool writeTree(const QString &root, const QList<std::pair<QString, QByteArray>> &files)
{
    for (const auto &[path, content] : files) {
        const QString full = QDir(root).filePath(path);
        if (!QDir().mkpath(QFileInfo(full).absolutePath()))
            return false;
        QFile file(full);
        if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size())
            return false;
    }
    return true;
}

bool writeSparse(const QString &path, qint64 bytes)
{
    QFile file(path);
    return QDir().mkpath(QFileInfo(path).absolutePath()) && file.open(QIODevice::WriteOnly) && file.resize(bytes);
}

void dropPaths(QWidget *widget, const QPoint &pos, const QStringList &paths)
{
    QMimeData mime;
    QList<QUrl> urls;
    for (const QString &path : paths)
        urls.append(QUrl::fromLocalFile(path));
    mime.setUrls(urls);
    QDragEnterEvent enter(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(widget, &enter);
    QDragMoveEvent move(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(widget, &move);
    QDropEvent drop(QPointF(pos), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(widget, &drop);
}

} // namespace berth::test
