// DeploymentService's staging: what a deploy does on a worker (decoding, hashing, blob writes, password hashing)
// before its commit, apart from the checks and the commit on the service's thread.
#include "domain/common/passwordhasher.h"
#include "domain/common/workerpriority.h"
#include "domain/deploy/blobgarbage.h"
#include "domain/deploy/deploymentaccess.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/deployprogress.h"
#include "domain/deploy/faultpoints.h"
#include "domain/deploy/variantcompressor.h"
#include "storage/blobbatch.h"
#include "storage/blobstore.h"

using namespace Qt::StringLiterals;

namespace berth {

QFuture<Result<DeploymentService::Staged>> DeploymentService::stage(
    DeployRequest request, WrittenBlobs written, Progress progress)
{
    // Runs on a worker: nothing here may touch the database or the SiteTable. written is read only once the
    // future has finished, on this object's thread.
    // Captured too: written, and progress (which may cancel between files).
    // The sweep at start removes every blob unreferenced when it began: nothing is written before it ends.
    const QFuture<void> sweep = m_garbage.sweep();
    auto work = [=, blobs = &m_blobs, faults = &m_faults, request = std::move(request)]() -> Result<Staged> {
        QFuture<void>(sweep).waitForFinished();
        // Every new blob written first, then all made durable at once, and only then committed (by the caller).
        BlobBatch batch(*blobs);
        Staged staged;
        const auto storeFailed = [](const Error &error, const QString &what) {
            return DeploymentAccess::writeFailed(error, u"Could not store %1"_s.arg(what));
        };
        if (request.html) {
            const QByteArray bytes = request.html->toUtf8();
            const Result<QByteArray> put = batch.put(bytes);
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
            VariantCompressor variants; // brotli, zstd and gzip made here, so that serving them costs no CPU
            QList<QByteArray> references;
            for (const FileUpload &upload : *request.files) {
                total += upload.content.size();
                if (upload.isReference())
                    references.append(upload.sha256);
            }
            // Renewed, so that no other node removes them before this deploy commits; gone since the check (another
            // node removed what its last site stopped using): their content must be sent. All at once: an
            // incremental upload may reuse thousands.
            const Result<QSet<QByteArray>> retained = blobs->retainAll(references);
            if (!retained)
                return storeFailed(retained.error(), u"the files"_s);
            for (const FileUpload &upload : *request.files) {
                if (progress && progress->isCancelled())
                    return DeployProgress::cancelledError();
                if (progress)
                    progress->report(DeployProgress::Step::Storing, done, total);
                done += upload.content.size();
                if (upload.isReference()) { // held already (resolveReferences): nothing to write
                    if (!retained.value().contains(upload.sha256)) {
                        gone.append(upload.path);
                        continue;
                    }
                    stored.append({upload.path, upload.sha256, upload.size, upload.contentType});
                    if (upload.path == u"index.html")
                        staged.documentTitle = titleOf(blobs->read(upload.sha256));
                    continue;
                }
                const Result<QByteArray> put = batch.put(upload.content);
                if (!put)
                    return storeFailed(put.error(), u"\"%1\""_s.arg(upload.path));
                const QByteArray hash = put.value();
                written->append(hash);
                faults->reach("blob-written");
                variants.store(*blobs, batch, hash, upload.content, upload.contentType);
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
        faults->reach("before-blob-flush");
        if (const Result<void> flushed = batch.flush(); !flushed)
            return storeFailed(flushed.error(), u"the files"_s);
        faults->reach("after-blob-flush");
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
