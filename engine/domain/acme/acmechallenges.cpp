#include "domain/acme/acmechallenges.h"

#include <QMutexLocker>
#include <QString>

using namespace Qt::StringLiterals;

namespace berth {

void AcmeChallenges::add(const QByteArray &token, const QByteArray &keyAuthorization)
{
    const QMutexLocker lock(&m_mutex);
    m_answers.insert(token, keyAuthorization);
}

void AcmeChallenges::remove(const QByteArray &token)
{
    const QMutexLocker lock(&m_mutex);
    m_answers.remove(token);
}

std::optional<QByteArray> AcmeChallenges::answer(const QByteArray &token) const
{
    const QMutexLocker lock(&m_mutex);
    const auto found = m_answers.constFind(token);
    if (found == m_answers.constEnd())
        return std::nullopt;
    return *found;
}

int AcmeChallenges::size() const
{
    const QMutexLocker lock(&m_mutex);
    return int(m_answers.size());
}

std::optional<QByteArray> AcmeChallenges::tokenOf(const QString &path)
{
    static const QString prefix = u"/.well-known/acme-challenge/"_s;
    if (!path.startsWith(prefix))
        return std::nullopt;
    return path.mid(prefix.size()).toLatin1();
}

} // namespace berth
