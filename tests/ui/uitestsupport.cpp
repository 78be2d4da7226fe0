#include "uitestsupport.h"

#include "domain/accounts/accountservice.h"
#include "domain/common/mimetypes.h"
#include "domain/deploy/deploymentservice.h"
#include "layoutcheck.h"
#include "ui/sitelist/deploymenttablemodel.h"
#include "ui/sitelist/deploymenttableview.h"

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
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
    return start(EngineSettings());
}

bool Dashboard::start(EngineSettings settings, const std::function<void(AppSettings &)> &prepare)
{
    if (!m_fixture.start(std::move(settings)))
        return false;
    m_settings = std::make_unique<AppSettings>(m_settingsDir.filePath(u"dashboard.conf"_s));
    m_settings->setKeepServingInTray(false);
    if (prepare)
        prepare(*m_settings);
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

int Dashboard::submitForm(const QString &slug, const QByteArray &urlEncodedBody)
{
    const TestReply reply = client().request("POST", u"%1.localhost:%2"_s.arg(slug).arg(client().port()), u"/_submit"_s,
        urlEncodedBody, {{"Content-Type", "application/x-www-form-urlencoded"}, {"Accept", "application/json"}});
    return reply.status;
}

bool waitUntilActive(QWidget *window)
{
    if (QTest::qWaitFor([&] { return QApplication::activeWindow() == window; }, 5000))
        return true;
    qWarning("%s did not become the active window", qPrintable(window->objectName()));
    return false;
}

QStringList unnamedControls(QWidget *root)
{
    QStringList unnamed;
    const auto widgets = root->findChildren<QWidget *>();
    for (QWidget *widget : widgets) {
        if (!widget->isVisible() || !widget->focusPolicy())
            continue;
        QString name = widget->accessibleName();
        if (auto *button = qobject_cast<QAbstractButton *>(widget); button && name.isEmpty())
            name = button->text();
        // A scroll area's viewport is named by its view, a spin box's line edit by its spin box.
        if (name.isEmpty() && !qobject_cast<QAbstractScrollArea *>(widget->parentWidget())
            && !qobject_cast<QAbstractSpinBox *>(widget->parentWidget()))
            unnamed.append(
                u"%1 (%2)"_s.arg(widget->objectName(), QString::fromLatin1(widget->metaObject()->className())));
    }
    return unnamed;
}

QStringList literalMnemonics(QWidget *root)
{
    return LayoutCheck::literalMnemonics(root);
}

QList<QStringList> parseCsv(const QByteArray &csv)
{
    // A cell is quoted or not; inside quotes "" is one quote and commas and line breaks are text.
    QList<QStringList> rows {QStringList()};
    const QString text = QString::fromUtf8(csv);
    qsizetype at = 0;
    while (at < text.size()) {
        QString cell;
        if (text.at(at) == u'"') {
            for (++at; at < text.size(); ++at) {
                if (text.at(at) != u'"')
                    cell += text.at(at);
                else if (text.mid(at, 2) == u"\"\""_s)
                    cell += text.at(at++);
                else
                    break;
            }
            ++at; // the closing quote
        } else {
            while (at < text.size() && text.at(at) != u',' && text.at(at) != u'\r')
                cell += text.at(at++);
        }
        rows.last().append(cell);
        if (text.mid(at, 2) == u"\r\n"_s) {
            at += 2;
            if (at < text.size())
                rows.append(QStringList());
        } else {
            ++at; // the comma
        }
    }
    return rows;
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
