#pragma once

#include <QByteArray>
#include <QHash>
#include <QMutex>
#include <optional>

namespace berth {

// The HTTP-01 answers of the orders in flight: token -> key authorization. Written on the engine's thread, read by
// the serving threads (/.well-known/acme-challenge/TOKEN on the plain-HTTP port) under a lock held only for a hash
// lookup. Holds only tokens Berth's own orders received, so nobody can make Berth answer for anything else.
class AcmeChallenges
{
public:
    void add(const QByteArray &token, const QByteArray &keyAuthorization);
    void remove(const QByteArray &token);
    std::optional<QByteArray> answer(const QByteArray &token) const;
    int size() const; // tokens answered now
    // The token of a request's path, when the path is an HTTP-01 challenge's.
    static std::optional<QByteArray> tokenOf(const QString &path);

private:
    mutable QMutex m_mutex;
    QHash<QByteArray, QByteArray> m_answers;
};

} // namespace berth
