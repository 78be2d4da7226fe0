#include "storage/reconnectingblobbackend.h"

#include "storage/sqlhelpers.h"

namespace berth {

namespace {

// A dropped connection: sql::failure() reports it as Unavailable (a failed reconnect is Internal, and not retried).
template<typename T>
bool connectionDropped(const Result<T> &result, const char *what)
{
    if (result || result.error().kind != Error::Kind::Unavailable)
        return false;
    qCInfo(lcStorage).noquote() << what << "found the database connection dropped; trying once more";
    return true;
}

// The second try's answer, unless it could not connect at all (an Internal "cannot connect" from Database::open()):
// the database is away, which the first answer (Unavailable: 503) says.
template<typename T>
Result<T> secondTry(Result<T> first, Result<T> second)
{
    if (second || second.error().kind != Error::Kind::Internal)
        return second;
    qCWarning(lcStorage).noquote() << "the second try failed too:" << second.error().message;
    return first;
}

// Calls `call` once more when it failed on a dropped connection.
template<typename Call>
auto retriedOnce(const Call &call, const char *what) -> decltype(call())
{
    auto result = call();
    return connectionDropped(result, what) ? secondTry(std::move(result), call()) : result;
}

} // namespace

ReconnectingBlobBackend::ReconnectingBlobBackend(BlobBackend &backend)
    : m_backend(backend)
{
}

Result<bool> ReconnectingBlobBackend::store(const QByteArray &hash, const QByteArray &suffix, const QByteArray &data)
{
    return retriedOnce([&] { return m_backend.store(hash, suffix, data); }, "storing a blob");
}

Result<QList<bool>> ReconnectingBlobBackend::storeAll(const QList<Piece> &pieces)
{
    return retriedOnce([&] { return m_backend.storeAll(pieces); }, "storing blobs");
}

Result<bool> ReconnectingBlobBackend::retain(const QByteArray &hash)
{
    return retriedOnce([&] { return m_backend.retain(hash); }, "renewing a blob");
}

Result<QSet<QByteArray>> ReconnectingBlobBackend::retainAll(const QList<QByteArray> &hashes)
{
    return retriedOnce([&] { return m_backend.retainAll(hashes); }, "renewing blobs");
}

Result<bool> ReconnectingBlobBackend::has(const QByteArray &hash, const QByteArray &suffix)
{
    return retriedOnce([&] { return m_backend.has(hash, suffix); }, "looking for a blob");
}

Result<QHash<QByteArray, qint64>> ReconnectingBlobBackend::variantSizes(
    const QList<QByteArray> &hashes, const QByteArray &suffix)
{
    return retriedOnce([&] { return m_backend.variantSizes(hashes, suffix); }, "reading variant sizes");
}

Result<bool> ReconnectingBlobBackend::load(const QByteArray &hash, const QByteArray &suffix, const ChunkSink &sink)
{
    bool received = false;
    const ChunkSink noting = [&](const QByteArray &piece) {
        received = true;
        return sink(piece);
    };
    Result<bool> loaded = m_backend.load(hash, suffix, noting);
    if (received || !connectionDropped(loaded, "loading a blob"))
        return loaded;
    return secondTry(std::move(loaded), m_backend.load(hash, suffix, noting));
}

Result<bool> ReconnectingBlobBackend::remove(const QByteArray &hash)
{
    return retriedOnce([&] { return m_backend.remove(hash); }, "removing a blob");
}

Result<int> ReconnectingBlobBackend::removeAllExcept(const QSet<QByteArray> &keep)
{
    return retriedOnce([&] { return m_backend.removeAllExcept(keep); }, "sweeping blobs");
}

} // namespace berth
