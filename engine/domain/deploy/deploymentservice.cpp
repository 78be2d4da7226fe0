#include "domain/deploy/deploymentservice.h"

#include "domain/common/changejournal.h"
#include "domain/common/clock.h"
#include "domain/common/randomid.h"
#include "domain/common/workerpriority.h"
#include "domain/deploy/blobgarbage.h"
#include "domain/deploy/deploymentaccess.h"
#include "domain/deploy/deployprogress.h"
#include "domain/deploy/faultpoints.h"
#include "domain/deploy/htmlscanner.h"
#include "domain/deploy/siteloader.h"
#include "domain/deploy/slugrules.h"
#include "domain/deploy/versionhistory.h"
#include "domain/plans/plantable.h"
#include "domain/siterules/sitetable.h"
#include "storage/deploymentrepository.h"

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

// What a deploy reports back beside going through: the skipped lines of its rules files, and a root address that
// answers 404 (no index.html, and no _redirects rule that answers "/"; is_spa falls back to index.html alone).
QStringList deployWarnings(const Site &site)
{
    QStringList warnings = site.ruleWarnings;
    if (site.file(u"index.html"_s))
        return warnings;
    if (const auto root = site.redirects.match(u"/", {}, false); root && root->kind != RedirectMatch::Kind::NotFound)
        return warnings;
    const QString warning = u"no index.html: the site's root address answers 404"_s;
    warnings.append(site.deployment.isSpa ? warning + u", and is_spa has no page to fall back to"_s : warning);
    return warnings;
}

template<typename T>
QFuture<Result<T>> ready(Result<T> result)
{
    return QtFuture::makeReadyFuture(std::move(result));
}

} // namespace

DeploymentService::DeploymentService(DeploymentRepository &repository, BlobStore &blobs, SiteLoader &sites,
    BlobGarbage &garbage, const VersionHistory &history, const PlanTable &plans, const Clock &clock,
    QThreadPool &workers, const FaultPoints &faults, QObject *parent)
    : QObject(parent)
    , m_repository(repository)
    , m_blobs(blobs)
    , m_sites(sites)
    , m_garbage(garbage)
    , m_history(history)
    , m_plans(plans)
    , m_clock(clock)
    , m_workers(workers)
    , m_faults(faults)
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
    const User &owner, DeployRequest request, Progress progress, Stager stager)
{
    if (!request.html && !request.files)
        return ready<Deployment>(Error {Error::Kind::BadRequest, u"html is required"_s});
    if (const Result<void> checked = checkProtection(request, false); !checked)
        return ready<Deployment>(checked.error());
    if (const Result<void> settled = settleExpiry(owner, request, DeployRequest::Mode::Create); !settled)
        return ready<Deployment>(settled.error());
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
    if (const Result<void> checked = settleDomains(owner, {}, request); !checked)
        return ready<Deployment>(checked.error());
    // Right before the deploy counts as in flight: from then on no blob it names can be collected.
    if (const Result<void> checked = resolveReferences(owner, request); !checked)
        return ready<Deployment>(checked.error());

    m_garbage.deployStarted();
    DeployRequest metadata = request;
    metadata.html.reset();
    metadata.files.reset();
    auto written = std::make_shared<QList<QByteArray>>();
    return (stager ? stager(written) : stage(std::move(request), written, progress))
        .then(this, [this, owner, metadata, slug, written, progress](Result<Staged> staged) {
            if (staged && progress && !progress->beginCommit()) // cancelled: a cancel from here on is refused
                staged = Result<Staged>(DeployProgress::cancelledError());
            auto result = commitCreate(owner, metadata, slug, std::move(staged));
            if (!result)
                m_garbage.addCandidates(*written); // refused: what was stored for it may be referenced by nothing
            m_garbage.deployFinished();
            return result;
        });
}

QFuture<Result<Deployment>> DeploymentService::updateValidated(
    const User &owner, const QString &id, DeployRequest request, Progress progress, Stager stager)
{
    const auto current = ownedDeployment(owner, id);
    if (!current)
        return ready<Deployment>(current.error());
    if (request.slug)
        return ready<Deployment>(
            Error {Error::Kind::BadRequest, u"slug cannot be changed here; use PATCH /deploy/:id/slug"_s});
    if (const Result<void> checked = checkProtection(request, current.value().isProtected); !checked)
        return ready<Deployment>(checked.error());
    if (const Result<void> settled = settleExpiry(owner, request, DeployRequest::Mode::Update); !settled)
        return ready<Deployment>(settled.error());
    if (const Result<void> checked = settleDomains(owner, id, request); !checked)
        return ready<Deployment>(checked.error());
    if (const Result<void> checked = resolveReferences(owner, request); !checked)
        return ready<Deployment>(checked.error());

    m_garbage.deployStarted();
    DeployRequest metadata = request;
    metadata.html.reset();
    metadata.files.reset();
    auto written = std::make_shared<QList<QByteArray>>();
    return (stager ? stager(written) : stage(std::move(request), written, progress))
        .then(this, [this, owner, id, metadata, written, progress](Result<Staged> staged) {
            if (staged && progress && !progress->beginCommit())
                staged = Result<Staged>(DeployProgress::cancelledError());
            auto result = commitUpdate(owner, id, metadata, std::move(staged));
            if (!result)
                m_garbage.addCandidates(*written);
            m_garbage.deployFinished();
            return result;
        });
}

Result<Deployment> DeploymentService::commitCreate(
    const User &owner, const DeployRequest &request, const QString &slug, Result<Staged> staged)
{
    m_faults.reach("before-commit");
    // Any refusal from here on leaves the staged blobs unreferenced: the caller makes them candidates.
    const auto refuse = [](Error error) { return error; };
    if (!staged)
        return refuse(staged.error());
    // Re-checked here: other deploys may have committed while this one was on the worker.
    if (m_repository.countForUser(owner.id) >= m_plans.limits(owner.plan).deployments)
        return refuse(limitReached());
    if (const Result<void> checked = checkDomains(owner, {}, request); !checked)
        return refuse(checked.error());

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
    const Result<void> inserted = journaled(m_journal, {u"deployment.created"_s, deployment, {}, {}},
        [&] { return m_repository.insert(deployment, files, limit); });
    if (!inserted) {
        if (inserted.error().code == Error::Code::DeploymentLimitReached)
            return refuse(limitReached());
        if (inserted.error().code == Error::Code::SlugTaken)
            return refuse(slugTaken(slug));
        return refuse(DeploymentAccess::writeFailed(inserted.error(), u"Could not save the deployment"_s));
    }
    m_faults.reach("after-commit");
    ++m_deploysCommitted;
    deployment.warnings = deployWarnings(*m_sites.serve(deployment, files));
    assignDomains(deployment, request);
    Q_EMIT changeCommitted(u"deployment.created"_s, deployment, {});
    return deployment;
}

Result<Deployment> DeploymentService::commitUpdate(
    const User &owner, const QString &id, const DeployRequest &request, Result<Staged> staged)
{
    m_faults.reach("before-commit");
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
    if (const Result<void> checked = checkDomains(owner, id, request); !checked)
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
    if (request.publish == false) // the newest version, not served: visitors keep the live one
        return m_history.prepare(deployment, *staged.value().files);

    // The blobs of versions pruned by this one become garbage candidates once it is committed.
    QList<QByteArray> released;
    const Result<void> updated = journaled(m_journal, {u"deployment.updated"_s, deployment, {}, {}},
        [&] { return m_repository.update(deployment, staged.value().files, m_history.versionsKept(), &released); });
    if (!updated)
        return DeploymentAccess::writeFailed(updated.error(), u"Could not save the deployment"_s);
    m_faults.reach("after-commit");
    ++m_deploysCommitted;
    m_garbage.addCandidates(released);

    const QList<StoredFile> files = replacesContent ? *staged.value().files : m_repository.files(deployment.versionId);
    deployment.warnings = deployWarnings(*m_sites.serve(deployment, files));
    assignDomains(deployment, request);
    Q_EMIT changeCommitted(u"deployment.updated"_s, deployment, {});
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
    if (request.expiresAt) // settled: absolute, or none
        deployment.expiresAt = request.expiresAt->value_or(QDateTime());
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

} // namespace berth
