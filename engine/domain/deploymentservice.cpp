#include "deploymentservice.h"

#include "clock.h"
#include "deployprogress.h"
#include "gzip.h"
#include "htmlscanner.h"
#include "passwordhasher.h"
#include "plantable.h"
#include "randomid.h"
#include "sitetable.h"
#include "slugrules.h"
#include "storage/blobstore.h"
#include "storage/deploymentrepository.h"
#include "workerpriority.h"

#include <QThreadPool>
#include <QtConcurrent>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

constexpr int kMaxTitleScanBytes = 64 * 1024; // where a document's <title> is looked for
constexpr int kSlugGenerationAttempts = 50;

Error limitReached()
{
    return {Error::Kind::Forbidden, DeploymentService::limitReachedMessage(), Error::Code::DeploymentLimitReached};
}

template<typename T>
QFuture<Result<T>> ready(Result<T> result)
{
    return QtFuture::makeReadyFuture(std::move(result));
}

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

struct DeploymentService::Staged
{
    std::optional<QList<StoredFile>> files; // set when the request carried content
    QString storageType;
    QString documentTitle; // the <title> of the served HTML, if any
    std::optional<QByteArray> passwordHash; // set when the request carried a password
};

DeploymentService::DeploymentService(DeploymentRepository &repository, BlobStore &blobs, SiteTable &sites,
    const PlanTable &plans, const Clock &clock, QThreadPool &workers, QObject *parent)
    : QObject(parent)
    , m_repository(repository)
    , m_blobs(blobs)
    , m_sites(sites)
    , m_plans(plans)
    , m_clock(clock)
    , m_workers(workers)
{
}

QString DeploymentService::notFoundMessage()
{
    return u"Deployment not found"_s;
}
QString DeploymentService::missingContentsMessage()
{
    return u"Missing file contents"_s;
}
QString DeploymentService::limitReachedMessage()
{
    return u"Deployment limit reached. Delete an existing deployment or upgrade your plan."_s;
}

Error DeploymentService::notFound()
{
    return {Error::Kind::NotFound, notFoundMessage(), Error::Code::DeploymentNotFound};
}

Error DeploymentService::slugTaken(const QString &slug)
{
    return {Error::Kind::Conflict, u"slug \"%1\" is already taken"_s.arg(slug), Error::Code::SlugTaken};
}

QString DeploymentService::titleOf(const QByteArray &html)
{
    // A linear scan (HtmlScanner), bounded to the start of the document where a title belongs.
    return documentTitle(QString::fromUtf8(html.left(kMaxTitleScanBytes)));
}

QFuture<Result<Deployment>> DeploymentService::createFromJson(const User &owner, QByteArray body)
{
    return runOnWorker(m_workers, m_workersYield,
        [body = std::move(body)] { return parseDeployRequest(body, DeployRequest::Mode::Create); })
        .then(this,
            [this, owner](Result<DeployRequest> parsed) {
                if (!parsed)
                    return ready<Deployment>(parsed.error());
                return createValidated(owner, std::move(parsed).value());
            })
        .unwrap();
}

QFuture<Result<Deployment>> DeploymentService::updateFromJson(const User &owner, const QString &id, QByteArray body)
{
    return runOnWorker(m_workers, m_workersYield,
        [body = std::move(body)] { return parseDeployRequest(body, DeployRequest::Mode::Update); })
        .then(this,
            [this, owner, id](Result<DeployRequest> parsed) {
                if (!parsed)
                    return ready<Deployment>(parsed.error());
                return updateValidated(owner, id, std::move(parsed).value());
            })
        .unwrap();
}

QFuture<Result<Deployment>> DeploymentService::create(const User &owner, DeployRequest request, Progress progress)
{
    if (progress)
        progress->report(DeployProgress::Step::Checking, 0, 0);
    if (const Result<void> checked = validateDeployRequest(request); !checked)
        return ready<Deployment>(checked.error());
    return createValidated(owner, std::move(request), std::move(progress));
}

QFuture<Result<Deployment>> DeploymentService::update(
    const User &owner, const QString &id, DeployRequest request, Progress progress)
{
    if (progress)
        progress->report(DeployProgress::Step::Checking, 0, 0);
    if (const Result<void> checked = validateDeployRequest(request); !checked)
        return ready<Deployment>(checked.error());
    return updateValidated(owner, id, std::move(request), std::move(progress));
}

QFuture<Result<Deployment>> DeploymentService::createValidated(
    const User &owner, DeployRequest request, Progress progress)
{
    if (!request.html && !request.files)
        return ready<Deployment>(Error {Error::Kind::BadRequest, u"html is required"_s});
    if (const Result<void> checked = checkProtection(request, false); !checked)
        return ready<Deployment>(checked.error());
    if (m_repository.countForUser(owner.id) >= m_plans.limits(owner.plan).deployments)
        return ready<Deployment>(limitReached());

    QString slug;
    if (request.slug) {
        if (const QString rule = SlugRules::validate(*request.slug); !rule.isEmpty())
            return ready<Deployment>(Error {Error::Kind::BadRequest, rule, Error::Code::SlugInvalid});
        if (m_repository.findBySlug(*request.slug))
            return ready<Deployment>(slugTaken(*request.slug));
        slug = *request.slug;
    } else {
        slug = freeGeneratedSlug();
        if (slug.isEmpty())
            return ready<Deployment>(Error {Error::Kind::Internal, u"Could not generate a free slug"_s});
    }
    // Right before the deploy counts as in flight: from then on no blob it names can be collected.
    if (const Result<void> checked = resolveReferences(owner, request); !checked)
        return ready<Deployment>(checked.error());

    ++m_inFlight;
    DeployRequest metadata = request;
    metadata.html.reset();
    metadata.files.reset();
    auto written = std::make_shared<QList<QByteArray>>();
    return stage(std::move(request), written, progress)
        .then(this, [this, owner, metadata, slug, written, progress](Result<Staged> staged) {
            if (staged && progress && !progress->beginCommit()) // cancelled: a cancel from here on is refused
                staged = Result<Staged>(DeployProgress::cancelledError());
            auto result = commitCreate(owner, metadata, slug, std::move(staged));
            if (!result)
                addGarbageCandidates(*written); // refused: what was stored for it may be referenced by nothing
            finishWork();
            return result;
        });
}

QFuture<Result<Deployment>> DeploymentService::updateValidated(
    const User &owner, const QString &id, DeployRequest request, Progress progress)
{
    const auto current = ownedDeployment(owner, id);
    if (!current)
        return ready<Deployment>(current.error());
    if (request.slug)
        return ready<Deployment>(
            Error {Error::Kind::BadRequest, u"slug cannot be changed here; use PATCH /deploy/:id/slug"_s});
    if (const Result<void> checked = checkProtection(request, current.value().isProtected); !checked)
        return ready<Deployment>(checked.error());
    if (const Result<void> checked = resolveReferences(owner, request); !checked)
        return ready<Deployment>(checked.error());

    ++m_inFlight;
    DeployRequest metadata = request;
    metadata.html.reset();
    metadata.files.reset();
    auto written = std::make_shared<QList<QByteArray>>();
    return stage(std::move(request), written, progress)
        .then(this, [this, owner, id, metadata, written, progress](Result<Staged> staged) {
            if (staged && progress && !progress->beginCommit())
                staged = Result<Staged>(DeployProgress::cancelledError());
            auto result = commitUpdate(owner, id, metadata, std::move(staged));
            if (!result)
                addGarbageCandidates(*written);
            finishWork();
            return result;
        });
}

QFuture<Result<DeploymentService::Staged>> DeploymentService::stage(
    DeployRequest request, WrittenBlobs written, Progress progress)
{
    // Runs on a worker: nothing here may touch the database or the SiteTable. written is read only once the
    // future has finished, on this object's thread.
    // Captured too: written, and progress (which may cancel between files).
    // The sweep at start removes every blob unreferenced when it began: nothing is written before it ends.
    const QFuture<void> sweep = m_sweep;
    auto work = [=, blobs = &m_blobs, request = std::move(request)]() -> Result<Staged> {
        QFuture<void>(sweep).waitForFinished();
        Staged staged;
        const auto storeFailed = [](const Error &error, const QString &what) {
            return writeFailed(error, u"Could not store %1"_s.arg(what));
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

Result<Deployment> DeploymentService::commitCreate(
    const User &owner, const DeployRequest &request, const QString &slug, Result<Staged> staged)
{
    fault("before-commit");
    // Any refusal from here on leaves the staged blobs unreferenced: the caller makes them candidates.
    const auto refuse = [](Error error) { return error; };
    if (!staged)
        return refuse(staged.error());
    // Re-checked here: other deploys may have committed while this one was on the worker.
    if (m_repository.countForUser(owner.id) >= m_plans.limits(owner.plan).deployments)
        return refuse(limitReached());

    const QDateTime now = m_clock.now();
    Deployment deployment;
    deployment.id = RandomId::make(u"dep_");
    deployment.userId = owner.id;
    deployment.slug = slug;
    deployment.storageType = staged.value().storageType;
    deployment.documentTitle = staged.value().documentTitle;
    deployment.title = deployment.documentTitle;
    deployment.createdAt = now;
    deployment.updatedAt = now;
    applyMetadata(deployment, request, staged.value());

    const QList<StoredFile> &files = *staged.value().files;
    // The limit once more inside the insert's transaction: another server on the same database may have taken the
    // last slot since the check above.
    const int limit = m_plans.limits(owner.plan).deployments;
    if (const Result<void> inserted = m_repository.insert(deployment, files, limit); !inserted) {
        if (inserted.error().code == Error::Code::DeploymentLimitReached)
            return refuse(limitReached());
        if (inserted.error().code == Error::Code::SlugTaken)
            return refuse(slugTaken(slug));
        return refuse(writeFailed(inserted.error(), u"Could not save the deployment"_s));
    }
    auto site = Site::make(deployment, files, m_blobs);
    deployment.warnings = site->ruleWarnings;
    m_sites.put(std::move(site));
    Q_EMIT deploymentChanged(deployment.id);
    return deployment;
}

Result<Deployment> DeploymentService::commitUpdate(
    const User &owner, const QString &id, const DeployRequest &request, Result<Staged> staged)
{
    fault("before-commit");
    if (!staged)
        return staged.error();
    const bool replacesContent = staged.value().files.has_value();

    // The deployment may have changed (or vanished) while the content was staged: apply to the fresh row.
    auto current = ownedDeployment(owner, id);
    if (!current)
        return current.error();
    Deployment deployment = current.value();
    if (const Result<void> checked = checkProtection(request, deployment.isProtected); !checked)
        return checked.error();

    if (replacesContent) {
        deployment.storageType = staged.value().storageType;
        // The new document's title replaces the old one's, unless the owner set their own.
        deployment.documentTitle = staged.value().documentTitle;
        if (!deployment.titleIsCustom)
            deployment.title = deployment.documentTitle;
    }
    applyMetadata(deployment, request, staged.value());
    deployment.updatedAt = m_clock.now();

    // The blobs of versions pruned by this one become garbage candidates once it is committed.
    QList<QByteArray> released;
    if (const Result<void> updated = m_repository.update(deployment, staged.value().files, m_versionsKept, &released);
        !updated)
        return writeFailed(updated.error(), u"Could not save the deployment"_s);
    addGarbageCandidates(released);

    const QList<StoredFile> files = replacesContent ? *staged.value().files : m_repository.files(deployment.versionId);
    auto site = Site::make(deployment, files, m_blobs);
    deployment.warnings = site->ruleWarnings;
    m_sites.put(std::move(site));
    Q_EMIT deploymentChanged(deployment.id);
    return deployment;
}

void DeploymentService::applyMetadata(Deployment &deployment, const DeployRequest &request, const Staged &staged) const
{
    // An explicit title is the owner's and overrides the document; an empty one hands the title back to it.
    if (request.title) {
        deployment.titleIsCustom = !request.title->isEmpty();
        deployment.title = deployment.titleIsCustom ? *request.title : deployment.documentTitle;
    }
    if (request.description)
        deployment.description = *request.description;
    if (request.favicon)
        deployment.favicon = *request.favicon;
    if (request.ogImage)
        deployment.ogImage = *request.ogImage;
    if (request.isSpa)
        deployment.isSpa = *request.isSpa;

    if (request.protect == true && !deployment.isProtected) {
        deployment.isProtected = true;
        deployment.shareToken = RandomId::token();
    } else if (request.protect == false) {
        deployment.isProtected = false;
        deployment.shareToken.clear();
        deployment.passwordHash.clear();
    }
    if (request.removePassword == true)
        deployment.passwordHash.clear();
    // The access cookies are signed over the share token (AccessControl), so they go with the old link.
    if (request.rotateShareLink == true && deployment.isProtected)
        deployment.shareToken = RandomId::token();
    if (staged.passwordHash)
        deployment.passwordHash = *staged.passwordHash;
}

Result<void> DeploymentService::checkProtection(const DeployRequest &request, bool currentlyProtected) const
{
    if (request.password && request.removePassword == true)
        return Error {Error::Kind::BadRequest, u"Provide either password or remove_password, not both"_s};
    if (request.password && !request.protect.value_or(currentlyProtected))
        return Error {Error::Kind::BadRequest, u"password requires protect: true"_s};
    if (request.rotateShareLink == true && !request.protect.value_or(currentlyProtected))
        return Error {Error::Kind::BadRequest, u"rotate_share_link needs a private site; this one is public"_s};
    return {};
}

QString DeploymentService::freeGeneratedSlug() const
{
    for (int attempt = 0; attempt < kSlugGenerationAttempts; ++attempt) {
        const QString slug = SlugRules::generate();
        if (!m_repository.findBySlug(slug))
            return slug;
    }
    return {};
}

Error DeploymentService::writeFailed(const Error &error, const QString &message)
{
    // A full disk and an unreachable database (PostgreSQL: a blob or a row the shared store could not take) are the
    // causes a client is told about, in storage's fixed words; the details (server paths, the system's words) of any
    // other go to the log.
    qWarning().noquote() << message << "-" << error.message;
    if (error.kind == Error::Kind::InsufficientStorage || error.kind == Error::Kind::Unavailable)
        return error;
    return {Error::Kind::Internal, message};
}

void DeploymentService::fault(const char *point) const
{
    if (m_faultHook)
        m_faultHook(point);
}

} // namespace berth
