#include "ui/publishing/incrementaldeploy.h"

#include "domain/deploy/deployprogress.h"
#include "storage/blobstore.h"

#include <QSet>
#include <QtConcurrent>

namespace berth {

IncrementalDeploy::IncrementalDeploy(QObject *parent)
    : QObject(parent)
{
    connect(&m_hashing, &QFutureWatcherBase::finished, this, [this] {
        if (!m_running)
            return;
        m_hashes = m_hashing.result();
        send(byHash({}));
    });
    connect(&m_answer, &QFutureWatcherBase::finished, this, &IncrementalDeploy::onAnswered);
}

IncrementalDeploy::~IncrementalDeploy()
{
    // A worker still hashing keeps its own copy of the files; its result is simply dropped.
    m_hashing.disconnect(this);
    m_answer.disconnect(this);
}

void IncrementalDeploy::start(DeployRequest request, Send sender, std::function<bool()> cancelled)
{
    m_send = std::move(sender);
    m_cancelled = std::move(cancelled);
    m_full = std::move(request);
    m_hashes.clear();
    m_running = true;
    m_contentSent = false;
    if (!m_full.files) {
        send(m_full);
        return;
    }
    // Hashing tens of megabytes is no work for the thread that draws the window.
    m_hashing.setFuture(QtConcurrent::run([files = *m_full.files] {
        QList<QByteArray> hashes;
        hashes.reserve(files.size());
        for (const FileUpload &file : files)
            hashes.append(BlobStore::hashOf(file.content));
        return hashes;
    }));
}

DeployRequest IncrementalDeploy::byHash(const QStringList &withContent) const
{
    const QSet<QString> keep(withContent.cbegin(), withContent.cend());
    DeployRequest request = m_full;
    QList<FileUpload> &files = *request.files;
    for (qsizetype i = 0; i < files.size(); ++i) {
        FileUpload &file = files[i];
        if (keep.contains(file.path))
            continue;
        file.sha256 = m_hashes.at(i);
        file.size = file.content.size();
        file.content.clear();
    }
    return request;
}

void IncrementalDeploy::send(DeployRequest request)
{
    if (m_cancelled && m_cancelled()) {
        finish(DeployProgress::cancelledError());
        return;
    }
    Q_EMIT sending(request);
    m_answer.setFuture(m_send(std::move(request)));
}

void IncrementalDeploy::onAnswered()
{
    if (!m_running)
        return;
    const Result<Deployment> result = m_answer.result();
    if (!result && !result.error().missing.isEmpty() && m_full.files && !m_contentSent) {
        m_contentSent = true;
        send(byHash(result.error().missing));
        return;
    }
    finish(result);
}

void IncrementalDeploy::finish(const Result<Deployment> &result)
{
    m_running = false;
    m_full = {};
    m_hashes.clear();
    Q_EMIT finished(result);
}

} // namespace berth
