#include "api/mcpsessions.h"

#include "domain/common/clock.h"
#include "domain/common/randomid.h"

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr int kSessionIdBytes = 24;
} // namespace

McpSessions::McpSessions(const Clock &clock)
    : m_clock(clock)
{
}

bool McpSessions::isIdle(const Session &session) const
{
    return session.lastUsed.secsTo(m_clock.now()) > kIdleSeconds;
}

void McpSessions::dropIdle()
{
    for (auto it = m_sessions.begin(); it != m_sessions.end();) {
        if (isIdle(*it))
            it = m_sessions.erase(it);
        else
            ++it;
    }
}

Result<QByteArray> McpSessions::open(Session session)
{
    dropIdle();
    int sameKey = 0;
    int sameUser = 0;
    auto oldestOfKey = m_sessions.end();
    for (auto it = m_sessions.begin(); it != m_sessions.end(); ++it) {
        if (it->userId == session.userId)
            ++sameUser;
        if (it->keyHash != session.keyHash)
            continue;
        ++sameKey;
        if (oldestOfKey == m_sessions.end() || it->lastUsed < oldestOfKey->lastUsed)
            oldestOfKey = it;
    }
    // Only the key's own sessions make room for it.
    if (sameKey >= kMaxPerKey || (sameUser >= kMaxPerUser && sameKey > 0))
        m_sessions.erase(oldestOfKey);
    else if (sameUser >= kMaxPerUser)
        return Error {Error::Kind::RateLimited,
            u"Too many MCP sessions for this account: end some with DELETE /mcp, or use them from one key"_s};
    else if (m_sessions.size() >= kMaxTotal)
        return Error {Error::Kind::Unavailable, u"Too many MCP sessions on this server, try again later"_s};
    const QByteArray id = RandomId::token(kSessionIdBytes);
    session.lastUsed = m_clock.now();
    m_sessions.insert(id, std::move(session));
    return id;
}

McpSessions::Session *McpSessions::use(const QByteArray &id, const QByteArray &authorizationHash)
{
    const auto it = m_sessions.find(id);
    // Bound to the Authorization it was made with: another key (or none) cannot use it.
    if (it == m_sessions.end() || it->authorizationHash != authorizationHash)
        return nullptr;
    if (isIdle(*it)) {
        m_sessions.erase(it);
        return nullptr;
    }
    it->lastUsed = m_clock.now();
    return &*it;
}

McpSessions::Session *McpSessions::find(const QByteArray &id)
{
    const auto it = m_sessions.find(id);
    return it == m_sessions.end() ? nullptr : &*it;
}

void McpSessions::remove(const QByteArray &id)
{
    m_sessions.remove(id);
}

} // namespace berth
