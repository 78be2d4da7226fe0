#include "domain/acme/acmechallenges.h"

#include <QMutexLocker>
#include <QString>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr qsizetype kMaxTokenLength = 256; // RFC 8555 tokens carry 128 bits or more; CAs send 43 characters

bool isTokenShaped(const QByteArray &token)
{
    if (token.isEmpty() || token.size() > kMaxTokenLength)
        return false;
    for (const char c : token) {
        const bool base64Url
            = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
        if (!base64Url)
            return false;
    }
    return true;
}
} // namespace

void AcmeChallenges::add(const QByteArray &token, const QByteArray &keyAuthorization)
{
    {
        const QMutexLocker lock(&m_mutex);
        m_answers.insert(token, keyAuthorization);
    }
    // Before the order tells the CA to look: whichever server it reaches finds the answer.
    if (m_shared.add)
        m_shared.add(token, keyAuthorization);
}

void AcmeChallenges::remove(const QByteArray &token)
{
    {
        const QMutexLocker lock(&m_mutex);
        m_answers.remove(token);
    }
    if (m_shared.remove)
        m_shared.remove(token);
}

std::optional<QByteArray> AcmeChallenges::answer(const QByteArray &token) const
{
    const QMutexLocker lock(&m_mutex);
    const auto found = m_answers.constFind(token);
    if (found == m_answers.constEnd())
        return std::nullopt;
    return *found;
}

std::optional<QByteArray> AcmeChallenges::answerShared(const QByteArray &token, const QString &host) const
{
    if (auto own = answer(token))
        return own;
    if (!m_shared.find || !isTokenShaped(token) || !isOrderedElsewhere(host))
        return std::nullopt;
    return m_shared.find(token);
}

void AcmeChallenges::setOrderedElsewhere(const QString &name, bool ordered)
{
    const QMutexLocker lock(&m_mutex);
    if (ordered)
        m_orderedElsewhere.insert(name);
    else
        m_orderedElsewhere.remove(name);
}

bool AcmeChallenges::isOrderedElsewhere(const QString &host) const
{
    const QMutexLocker lock(&m_mutex);
    return m_orderedElsewhere.contains(host);
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
