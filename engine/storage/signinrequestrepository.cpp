#include "storage/signinrequestrepository.h"

#include "storage/database.h"
#include "storage/enumnames.h"
#include "storage/sqlhelpers.h"

#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

const QString kColumns = u"email, allowed, code_hash, code_salt, relay_code, tries_left, delivery, delivery_error, "
                         "requested_at, expires_at"_s;

const EnumName<SignInRequest::Delivery> kDeliveryNames[] = {
    {SignInRequest::Delivery::Owner, "owner"_L1},
    {SignInRequest::Delivery::Sending, "sending"_L1},
    {SignInRequest::Delivery::Sent, "sent"_L1},
    {SignInRequest::Delivery::Failed, "failed"_L1},
    {SignInRequest::Delivery::Refused, "refused"_L1},
};

SignInRequest requestFrom(const QSqlQuery &query)
{
    SignInRequest request;
    request.email = query.value(0).toString();
    request.allowed = query.value(1).toBool();
    request.codeHash = sql::bytes(query, 2);
    request.codeSalt = sql::bytes(query, 3);
    request.relayCode = sql::nullableString(query, 4);
    request.triesLeft = query.value(5).toInt();
    request.delivery = SignInRequest::deliveryFromName(query.value(6).toString());
    request.deliveryError = sql::nullableString(query, 7);
    request.requestedAt = sql::time(query, 8);
    request.expiresAt = sql::time(query, 9);
    return request;
}

} // namespace

QString SignInRequest::deliveryName(Delivery delivery)
{
    return nameOf(kDeliveryNames, delivery);
}

SignInRequest::Delivery SignInRequest::deliveryFromName(const QString &name)
{
    return valueOf(kDeliveryNames, name).value_or(Delivery::Refused);
}

SignInRequestRepository::SignInRequestRepository(Database &db)
    : m_db(db)
{
}

Result<void> SignInRequestRepository::add(const SignInRequest &request, const QDateTime &now, int keep)
{
    Transaction transaction(m_db.connection());
    if (auto begun = transaction.begun(); !begun)
        return begun;
    if (auto removed = removeExpired(now); !removed)
        return removed;
    QSqlQuery query(m_db.connection());
    // SQLite's INSERT OR REPLACE in words PostgreSQL knows too: the same code again replaces its row, which then
    // counts as the newest.
    query.prepare(u"DELETE FROM signin_requests WHERE email = ? AND code_hash = ?"_s);
    query.addBindValue(sql::text(request.email));
    query.addBindValue(sql::text(request.codeHash));
    if (auto removed = sql::exec(query); !removed)
        return removed;
    query.prepare(u"INSERT INTO signin_requests ("_s + kColumns + u") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s);
    query.addBindValue(sql::text(request.email));
    query.addBindValue(request.allowed ? 1 : 0);
    query.addBindValue(sql::text(request.codeHash));
    query.addBindValue(sql::text(request.codeSalt));
    query.addBindValue(sql::textOrNull(request.relayCode));
    query.addBindValue(request.triesLeft);
    query.addBindValue(SignInRequest::deliveryName(request.delivery));
    query.addBindValue(sql::textOrNull(request.deliveryError));
    query.addBindValue(sql::timeOrNull(request.requestedAt));
    query.addBindValue(sql::timeOrNull(request.expiresAt));
    if (auto done = sql::exec(query); !done)
        return done;
    QSqlQuery trim(m_db.connection());
    trim.prepare(u"DELETE FROM signin_requests WHERE email = ? AND rowid NOT IN (SELECT rowid FROM signin_requests "
                 "WHERE email = ? ORDER BY requested_at DESC, rowid DESC LIMIT ?)"_s);
    trim.addBindValue(sql::text(request.email));
    trim.addBindValue(sql::text(request.email));
    trim.addBindValue(qMax(1, keep));
    if (auto done = sql::exec(trim); !done)
        return done;
    return transaction.commit();
}

std::optional<SignInRequest> SignInRequestRepository::find(const QString &email) const
{
    const QList<SignInRequest> all = findAll(email);
    return all.isEmpty() ? std::nullopt : std::optional<SignInRequest>(all.constFirst());
}

QList<SignInRequest> SignInRequestRepository::findAll(const QString &email) const
{
    QList<SignInRequest> requests;
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    query.prepare(
        u"SELECT "_s + kColumns + u" FROM signin_requests WHERE email = ? ORDER BY requested_at DESC, rowid DESC"_s);
    query.addBindValue(sql::text(email));
    if (const auto done = sql::exec(query); !done) {
        sql::warn("reading sign-in requests", done.error());
        return requests;
    }
    while (query.next())
        requests.append(requestFrom(query));
    return requests;
}

QList<SignInRequest> SignInRequestRepository::listLive(const QDateTime &now) const
{
    QList<SignInRequest> requests;
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    query.prepare(u"SELECT "_s + kColumns
        + u" FROM signin_requests WHERE expires_at > ? ORDER BY requested_at DESC, email, rowid DESC"_s);
    query.addBindValue(sql::timeOrNull(now));
    if (const auto done = sql::exec(query); !done) {
        sql::warn("reading sign-in requests", done.error());
        return requests;
    }
    while (query.next())
        requests.append(requestFrom(query));
    return requests;
}

Result<void> SignInRequestRepository::setTriesLeft(const QString &email, const QByteArray &codeHash, int triesLeft)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"UPDATE signin_requests SET tries_left = ? WHERE email = ? AND code_hash = ?"_s);
    query.addBindValue(triesLeft);
    query.addBindValue(sql::text(email));
    query.addBindValue(sql::text(codeHash));
    return sql::execAffecting(query, Error::Code::Other, u"No such sign-in code"_s);
}

Result<void> SignInRequestRepository::setDelivery(const QString &email, const QByteArray &codeHash,
    SignInRequest::Delivery delivery, const QString &error, const QString &relayCode)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"UPDATE signin_requests SET delivery = ?, delivery_error = ?, relay_code = ? "
                  "WHERE email = ? AND code_hash = ?"_s);
    query.addBindValue(SignInRequest::deliveryName(delivery));
    query.addBindValue(sql::textOrNull(error));
    query.addBindValue(sql::textOrNull(relayCode));
    query.addBindValue(sql::text(email));
    query.addBindValue(sql::text(codeHash));
    return sql::execAffecting(query, Error::Code::Other, u"No such sign-in code"_s);
}

Result<void> SignInRequestRepository::remove(const QString &email, const QByteArray &codeHash)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"DELETE FROM signin_requests WHERE email = ? AND code_hash = ?"_s);
    query.addBindValue(sql::text(email));
    query.addBindValue(sql::text(codeHash));
    return sql::execAffecting(query, Error::Code::Other, u"No such sign-in code"_s);
}

Result<void> SignInRequestRepository::removeAll(const QString &email)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"DELETE FROM signin_requests WHERE email = ?"_s);
    query.addBindValue(sql::text(email));
    return sql::exec(query);
}

Result<void> SignInRequestRepository::removeExpired(const QDateTime &now)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"DELETE FROM signin_requests WHERE expires_at <= ?"_s);
    query.addBindValue(sql::timeOrNull(now));
    return sql::exec(query);
}

} // namespace berth
