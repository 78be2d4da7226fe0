#pragma once

#include "core/error.h"

#include <QByteArray>
#include <QDateTime>
#include <QHash>
#include <QString>

namespace berth {

class Clock;

// The MCP sessions of this server, bounded per key, per user and in all. A key at its share loses its own least
// recently used session to a new one; sessions of other keys are never ended for it, so that nobody can end
// another's sessions by opening many. A user over its share across keys, or a full table, is refused instead.
class McpSessions final
{
public:
    static constexpr int kMaxPerKey = 20;
    static constexpr int kMaxPerUser = 100; // a user may hold many keys (AccountService::kMaxLiveKeysPerUser)
    static constexpr int kMaxTotal = 10000;
    static constexpr qint64 kIdleSeconds = 24 * 60 * 60;

    struct Session
    {
        QByteArray authorizationHash; // of the Authorization header initialize came with; empty: none
        QByteArray key; // the key tool calls use: an agent's; empty: the caller's own
        QByteArray signedInKey; // set by verify, cleared by logout
        QString protocolVersion;
        QByteArray keyHash; // the key whose share it counts against: the caller's, or its agent's
        QString userId; // that key's user
        QDateTime lastUsed;
    };

    explicit McpSessions(const Clock &clock);
    Q_DISABLE_COPY_MOVE(McpSessions)

    // A new session's id; RateLimited when its user holds kMaxPerUser sessions with other keys, Unavailable when
    // the table is full.
    Result<QByteArray> open(Session session);
    // The session of this id made with this Authorization (its hash; empty: none), now used; null otherwise.
    Session *use(const QByteArray &id, const QByteArray &authorizationHash);
    Session *find(const QByteArray &id); // without counting as a use
    void remove(const QByteArray &id);

private:
    void dropIdle();
    bool isIdle(const Session &session) const;

    const Clock &m_clock;
    QHash<QByteArray, Session> m_sessions;
};

} // namespace berth
