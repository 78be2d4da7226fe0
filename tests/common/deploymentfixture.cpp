#include "deploymentfixture.h"

using namespace Qt::StringLiterals;

namespace berth::test {

DeploymentFixture::DeploymentFixture(User owner, const QDateTime &now)
    : m_owner(std::move(owner))
    , m_clock(now)
{
}

DeploymentFixture::~DeploymentFixture()
{
    m_workers.waitForDone();
}

bool DeploymentFixture::start(const Options &options)
{
    auto failed = [](const char *step, const QString &why = QString()) {
        qWarning("deployment fixture: %s failed%s%s", step, why.isEmpty() ? "" : ": ", qPrintable(why));
        return false;
    };
    if (!m_dir.isValid())
        return failed("the temporary folder", m_dir.errorString());
    m_db = options.databaseUrl.isEmpty() ? std::make_unique<Database>(m_dir.filePath(u"berth.sqlite"_s))
                                         : std::make_unique<Database>(QString(), options.databaseUrl);
    if (const Result<void> opened = m_db->open(); !opened)
        return failed("opening the database", opened.error().message);
    m_users = std::make_unique<UserRepository>(*m_db);
    if (const Result<void> added = m_users->insert(m_owner); !added)
        return failed("adding the owner", added.error().message);
    m_repository = std::make_unique<DeploymentRepository>(*m_db);
    m_blobs = std::make_unique<BlobStore>(m_dir.filePath(u"blobs"_s));
    if (const Result<void> ready = m_blobs->init(); !ready)
        return failed("the blob folder", ready.error().message);
    if (options.backend)
        m_blobs->setBackend(options.backend, options.backendCacheBytes);
    m_sites = std::make_unique<SiteTable>();
    m_loader = std::make_unique<SiteLoader>(*m_repository, *m_blobs, *m_sites);
    m_garbage = std::make_unique<BlobGarbage>(*m_repository, *m_blobs, *m_sites, m_workers, m_faults);
    m_history = std::make_unique<VersionHistory>(*m_repository, *m_blobs, *m_loader, *m_garbage, m_clock, m_faults);
    m_service = std::make_unique<DeploymentService>(
        *m_repository, *m_blobs, *m_loader, *m_garbage, *m_history, m_plans, m_clock, m_workers, m_faults);
    if (options.loadSites) {
        if (const Result<void> loaded = m_loader->loadSites(); !loaded)
            return failed("loading the sites", loaded.error().message);
    }
    return true;
}

Result<Deployment> DeploymentFixture::deployFiles(const QList<FileUpload> &files)
{
    DeployRequest request;
    request.files = files;
    return wait(m_service->create(m_owner, request));
}

} // namespace berth::test
