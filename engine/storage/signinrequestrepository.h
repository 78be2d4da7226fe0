#pragma once

#include "core/error.h"
#include "storage/signinrequest.h"

#include <QList>
#include <optional>

namespace berth {

class Database;

// Sign-in code requests: one row per code, a few per email. A row is addressed by email and code hash together, so
// that an answer about one code (its delivery, a wrong try) never touches another. Used only on the thread that
// opened the Database.
class SignInRequestRepository final
{
    Q_DISABLE_COPY_MOVE(SignInRequestRepository)
public:
    explicit SignInRequestRepository(Database &db);

    // Deletes every request expired at `now`, stores this one and keeps the email's `keep` newest; one transaction.
    Result<void> add(const SignInRequest &request, const QDateTime &now, int keep);
    Result<void> replace(const SignInRequest &request, const QDateTime &now) { return add(request, now, 1); }
    std::optional<SignInRequest> find(const QString &email) const; // the newest; expired ones too
    QList<SignInRequest> findAll(const QString &email) const; // newest first; expired ones too
    QList<SignInRequest> listLive(const QDateTime &now) const; // not expired at `now`, newest first
    Result<void> setTriesLeft(const QString &email, const QByteArray &codeHash, int triesLeft);
    // Records what became of the code; relayCode is stored as given (null clears it).
    Result<void> setDelivery(const QString &email, const QByteArray &codeHash, SignInRequest::Delivery delivery,
        const QString &error, const QString &relayCode);
    Result<void> remove(const QString &email, const QByteArray &codeHash); // NotFound when that code is not there
    Result<void> removeAll(const QString &email);
    Result<void> removeExpired(const QDateTime &now);

private:
    Database &m_db;
};

} // namespace berth
