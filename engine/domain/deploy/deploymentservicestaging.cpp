// DeploymentService's staging: what a deploy does on a worker (decoding, hashing, blob writes, password hashing)
// before its commit, apart from the checks and the commit on the service's thread.
#include "domain/common/gzip.h"
#include "domain/common/passwordhasher.h"
#include "domain/common/workerpriority.h"
#include "domain/deploy/blobgarbage.h"
#include "domain/deploy/deploymentaccess.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/deployprogress.h"
#include "storage/blobstore.h"

using namespace Qt::StringLiterals;

namespace berth {

namespace {

// Compressed once here, at deploy time, so serving gzip costs no CPU per request. A failure only
// means the file is served uncompressed.
void storeGzipVariant(
    BlobStore &blobs, const QByteArray &hash, const QByteArray &content, const QByteArray &contentType)
{
    if (!Gzip::isWorthCompressing(contentType, content.size()) || !blobs.variantPathOf(hash, "gz").isEmpty())
        return;
    const QByteArray compressed = Gzip::compress(content);
    if (Gzip::isWorthKeeping(content.size(), compressed.size()))
        blobs.putVariant(hash, "gz", compressed);
}

} // namespace

QFuture<Result<DeploymentService::Staged>> DeploymentService::stage(
    DeployRequest request, WrittenBlobs written, Progress progress)
{
    // Runs on a worker: nothing here may touch the database or the SiteTable. written is read only once the
    // future has finished, on this object's thread.
    // Captured too: written, and progress (which may cancel between files).
    // The sweep at start removes every blob unreferenced when it began: nothing is written before it ends.
    const QFuture<void> sweep = m_garbage.sweep();
    auto work = [=, blobs = &m_blobs, request = std::move(request)]() -> Result<Staged> {
        QFuture<void>(sweep).waitForFinished();
        Staged staged;
        const auto storeFailed = [](const Error &error, const QString &what) {
            return DeploymentAccess::writeFailed(error, u"Could not store %1"_s.arg(what));
        };
        if (request.html) {
            const QByteArray bytes = request.html->toUtf8();
            const Result<QByteArray> put = blobs->put(bytes);
            if (!put)
                return storeFailed(put.error(), u"the page"_s);
            const QByteArray hash = put.value();
            written->append(hash);
            staged.files = QList<StoredFile> {{u"index.html"_s, hash, bytes.size(), "text/html; charset=utf-8"}};
            staged.storageType = u"html"_s;
            staged.documentTitle = titleOf(bytes);
        } else if (request.files) {
            QList<StoredFile> stored;
            stored.reserve(request.files->size());
            QStringList gone; // referenced by sha256, and no longer stored
            qint64 total = 0;
            qint64 done = 0;
            for (const FileUpload &upload : *request.files)
                total += upload.content.size();
            for (const FileUpload &upload : *request.files) {
                if (progress && progress->isCancelled())
                    return DeployProgress::cancelledError();
                if (progress)
                    progress->report(DeployProgress::Step::Storing, done, total);
                done += upload.content.size();
                if (upload.isReference()) { // held already (resolveReferences): nothing to write
                    // Renewed, so that no other node removes it before this deploy commits; gone since the check
                    // (another node removed what its last site stopped using): its content must be sent.
                    const Result<bool> retained = blobs->retain(upload.sha256);
                    if (!retained)
                        return storeFailed(retained.error(), u"\"%1\""_s.arg(upload.path));
                    if (!retained.value()) {
                        gone.append(upload.path);
                        continue;
                    }
                    stored.append({upload.path, upload.sha256, upload.size, upload.contentType});
                    if (upload.path == u"index.html")
                        staged.documentTitle = titleOf(blobs->read(upload.sha256));
                    continue;
                }
                const Result<QByteArray> put = blobs->put(upload.content);
                if (!put)
                    return storeFailed(put.error(), u"\"%1\""_s.arg(upload.path));
                const QByteArray hash = put.value();
                written->append(hash);
                storeGzipVariant(*blobs, hash, upload.content, upload.contentType);
                stored.append({upload.path, hash, upload.content.size(), upload.contentType});
                if (upload.path == u"index.html")
                    staged.documentTitle = titleOf(upload.content);
            }
            if (!gone.isEmpty()) {
                Error error {Error::Kind::Conflict, missingContentsMessage()};
                error.missing = gone;
                return error;
            }
            if (progress)
                progress->report(DeployProgress::Step::Storing, done, total);
            staged.files = std::move(stored);
            staged.storageType = u"files"_s;
        }
        if (request.password) {
            const QByteArray hash = PasswordHasher::hash(*request.password);
            if (hash.isEmpty())
                return Error {Error::Kind::Internal, u"Could not hash the password"_s};
            staged.passwordHash = hash;
        }
        return staged;
    };
    return runOnWorker(m_workers, m_workersYield, std::move(work));
}

} // namespace berth
