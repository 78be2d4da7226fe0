#pragma once

#include <QByteArray>
#include <QHash>
#include <QMutex>
#include <QSet>
#include <QString>
#include <functional>
#include <optional>

namespace berth {

// The HTTP-01 answers of the orders in flight: token -> key authorization. Written on the engine's thread, read by
// the serving threads (/.well-known/acme-challenge/TOKEN on the plain-HTTP port) under a lock held only for a hash
// lookup. Holds only tokens Berth's own orders received, so nobody can make Berth answer for anything else.
class AcmeChallenges
{
public:
    // Where the servers of one database share their answers, so that the CA may reach any of them: written along with
    // the memory, read for a token the memory lacks. Each is called on the engine's thread only.
    struct SharedAnswers
    {
        std::function<void(const QByteArray &token, const QByteArray &keyAuthorization)> add;
        std::function<void(const QByteArray &token)> remove;
        std::function<std::optional<QByteArray>(const QByteArray &token)> find;
    };

    void add(const QByteArray &token, const QByteArray &keyAuthorization);
    void remove(const QByteArray &token);
    std::optional<QByteArray> answer(const QByteArray &token) const; // from memory: any thread
    int size() const; // tokens answered now
    // The token of a request's path, when the path is an HTTP-01 challenge's.
    static std::optional<QByteArray> tokenOf(const QString &path);

    // Set once, on the engine's thread, before serving.
    void share(SharedAnswers shared) { m_shared = std::move(shared); }
    bool isShared() const { return bool(m_shared.find); }
    // The engine's thread only: the answer from memory, else from the shared store, for a token shaped like one
    // (base64url, as CAs make them) asked with the Host of a name another server is ordering now, so that no other
    // request reaches the database: a stranger's requests cost the engine's thread nothing between orders.
    std::optional<QByteArray> answerShared(const QByteArray &token, const QString &host) const;
    // The names another server of the database is ordering now, as the engine's thread learns of them.
    void setOrderedElsewhere(const QString &name, bool ordered);
    bool isOrderedElsewhere(const QString &host) const; // any thread

private:
    mutable QMutex m_mutex;
    QHash<QByteArray, QByteArray> m_answers;
    QSet<QString> m_orderedElsewhere;
    SharedAnswers m_shared;
};

} // namespace berth
