#include "domain/acme/acmecluster.h"

#include "domain/common/clock.h"
#include "storage/database.h"

#include <QLoggingCategory>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
Q_LOGGING_CATEGORY(lcAcmeCluster, "berth.acme")

// Answers older than any order could be are of a server that stopped in the middle of one.
constexpr int kStaleAnswerSeconds = 24 * 60 * 60;

void warnIf(const Result<void> &done, const char *what)
{
    if (!done)
        qCWarning(lcAcmeCluster).noquote() << "acme:" << what << "-" << done.error().message;
}
} // namespace

AcmeCluster::AcmeCluster(Database &db, QString nodeId, const Clock &clock)
    : m_db(db)
    , m_repository(db)
    , m_nodeId(std::move(nodeId))
    , m_clock(clock)
{
}

Result<void> AcmeCluster::listen(std::function<void(const QString &name)> changed)
{
    warnIf(m_repository.removeChallengesBefore(m_clock.now().addSecs(-kStaleAnswerSeconds)), "removing old answers");
    return m_db.listen(QLatin1String(kChannel), [changed = std::move(changed)](const QString &name) {
        if (!name.isEmpty())
            changed(name);
    });
}

std::optional<AcmeCertificateRow> AcmeCluster::row(const QString &name) const
{
    Result<std::optional<AcmeCertificateRow>> found = m_repository.find(name);
    if (!found) {
        qCWarning(lcAcmeCluster).noquote()
            << "acme: cannot read the certificate of" << name << "-" << found.error().message;
        return std::nullopt;
    }
    return std::move(found).value();
}

bool AcmeCluster::takeLease(const QString &name)
{
    const QDateTime now = m_clock.now();
    const qint64 nowMs = now.toMSecsSinceEpoch();
    const Result<bool> taken = m_repository.takeLease(name, m_nodeId, nowMs, nowMs + qint64(kLeaseSeconds) * 1000, now);
    if (!taken) {
        qCWarning(lcAcmeCluster).noquote() << "acme: cannot take the lease on" << name << "-" << taken.error().message;
        return false;
    }
    return taken.value();
}

void AcmeCluster::finish(const AcmeCertificateRow &row)
{
    const Result<bool> written = m_repository.finish(row, m_nodeId, m_clock.now());
    if (!written)
        qCWarning(lcAcmeCluster).noquote()
            << "acme: cannot share the state of" << row.name << "-" << written.error().message;
    else if (!written.value())
        qCInfo(lcAcmeCluster).noquote() << "acme: the lease on" << row.name << "ran out before the order ended";
}

void AcmeCluster::seed(const AcmeCertificateRow &row)
{
    warnIf(m_repository.seed(row, m_clock.now()), "cannot share a certificate held here");
}

AcmeChallenges::SharedAnswers AcmeCluster::answers()
{
    AcmeChallenges::SharedAnswers shared;
    shared.add = [this](const QByteArray &token, const QByteArray &keyAuthorization) {
        warnIf(m_repository.addChallenge(token, keyAuthorization, m_clock.now()), "cannot share a challenge's answer");
    };
    shared.remove = [this](const QByteArray &token) {
        warnIf(m_repository.removeChallenge(token), "cannot remove a challenge's answer");
    };
    shared.find = [this](const QByteArray &token) -> std::optional<QByteArray> {
        Result<std::optional<QByteArray>> found = m_repository.challenge(token);
        if (!found) {
            qCWarning(lcAcmeCluster).noquote() << "acme: cannot read a challenge's answer -" << found.error().message;
            return std::nullopt;
        }
        return std::move(found).value();
    };
    return shared;
}

} // namespace berth
