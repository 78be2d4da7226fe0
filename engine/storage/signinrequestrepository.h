#pragma once

#include "signinrequest.h"

#include <QList>

#include <optional>

namespace berth {

class Database;

// Sign-in code requests, one row per email. A row is addressed by email and code hash together, so that a late
// answer about an older code (its delivery, a wrong try) never touches the newer code that replaced it. Used only
// on the thread that opened the Database.
class SignInRequestRepository final
{
    Q_DISABLE_COPY_MOVE(SignInRequestRepository)
public:
    explicit SignInRequestRepository(Database &db);

    // Deletes every request expired at `now` and stores this one in place of the email's previous one; one
    // transaction.
    bool replace(const SignInRequest &request, const QDateTime &now);
    std::optional<SignInRequest> find(const QString &email) const; // expired ones too
    QList<SignInRequest> listLive(const QDateTime &now) const;      // not expired at `now`, newest first
    bool setTriesLeft(const QString &email, const QByteArray &codeHash, int triesLeft);
    // Records what became of the code; relayCode is stored as given (null clears it).
    bool setDelivery(const QString &email, const QByteArray &codeHash, SignInRequest::Delivery delivery,
                     const QString &error, const QString &relayCode);
    bool remove(const QString &email, const QByteArray &codeHash); // false when that code is not there
    bool removeExpired(const QDateTime &now);
    QString lastError() const;

private:
    Database &m_db;
    mutable QString m_lastError;
};

} // namespace berth
