#include "storage/blobbatch.h"

#include "storage/blobfiles.h"
#include "storage/blobstore.h"
#include "storage/sqlhelpers.h"

#include <cerrno>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

// What the backend is sent at a time while the folder is written: a deploy of large files need not hold a second
// copy of them all until the end. Sending costs about twice this again while a group goes out (its chunks, then
// each statement's escaped text), so this keeps an upload's memory within its bound on PostgreSQL too.
constexpr qsizetype kUnsentBytes = 8 * 1024 * 1024;

} // namespace

BlobBatch::BlobBatch(BlobStore &store)
    : m_store(store)
    , m_folders(std::make_unique<blobfiles::ShardFolders>(store.rootDir(), false))
{
}

BlobBatch::~BlobBatch() = default;

Result<QByteArray> BlobBatch::put(const QByteArray &data)
{
    const QByteArray hash = BlobStore::hashOf(data);
    const Result<bool> written = m_store.storeFile(*m_folders, hash, {}, data, false);
    if (!written)
        return written.error();
    m_unflushed = m_unflushed || written.value();
    m_blobs.insert(hash);
    if (!written.value())
        m_cached.insert(hash);
    if (m_store.hasBackend()) {
        m_unsent.append({hash, {}, data});
        m_unsentBytes += data.size();
        if (m_unsentBytes >= kUnsentBytes) {
            if (const Result<void> sent = sendToBackend(); !sent)
                return sent.error();
        }
    }
    return hash;
}

Result<void> BlobBatch::putVariant(const QByteArray &hash, const QByteArray &suffix, const QByteArray &data)
{
    if (!BlobStore::isValidSuffix(suffix))
        return Error {Error::Kind::Internal, u"invalid variant suffix"_s};
    if (!m_blobs.contains(hash) && !m_store.contains(hash))
        return Error {
            Error::Kind::Internal, u"no blob %1 to add a variant to"_s.arg(QString::fromLatin1(hash.left(64)))};
    const Result<bool> written = m_store.storeFile(*m_folders, hash, suffix, data, false);
    if (!written)
        return written.error();
    m_unflushed = m_unflushed || written.value();
    if (m_store.hasBackend()) {
        m_unsent.append({hash, suffix, data});
        m_unsentBytes += data.size();
    }
    return {};
}

Result<void> BlobBatch::flush()
{
    if (const Result<void> sent = sendToBackend(); !sent)
        return sent;
    if (!m_unflushed)
        return {};
    int code = m_store.m_flushFault ? m_store.m_flushFault() : 0;
    if (code == 0)
        code = blobfiles::syncFileSystem(m_store.rootDir());
    if (code != 0) {
        qCWarning(lcStorage).noquote() << "cannot flush the blob folder" << m_store.rootDir() << qt_error_string(code);
        return code == ENOSPC || code == EDQUOT
            ? Error::insufficientStorage()
            : Error {Error::Kind::Internal, u"cannot flush the blob folder: %1"_s.arg(qt_error_string(code))};
    }
    m_unflushed = false;
    return {};
}

Result<void> BlobBatch::sendToBackend()
{
    if (m_unsent.isEmpty())
        return {};
    const Result<QList<bool>> stored = m_store.m_backend->storeAll(m_unsent);
    if (!stored) {
        qCWarning(lcStorage).noquote() << "cannot store blobs in the database:" << stored.error().message;
        return stored.error();
    }
    // Written again: a removal took their variants too. Those this folder held before go back with them (the
    // variants made for this deploy are among the pieces already).
    for (qsizetype i = 0; i < m_unsent.size(); ++i) {
        if (stored.value().value(i) && m_unsent.at(i).suffix.isEmpty() && m_cached.contains(m_unsent.at(i).hash))
            m_store.restoreVariants(m_unsent.at(i).hash);
    }
    m_unsent.clear();
    m_unsentBytes = 0;
    return {};
}

} // namespace berth
