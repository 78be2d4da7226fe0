#include "domain/deploy/archivestaging.h"

#include "domain/common/mimetypes.h"
#include "domain/deploy/deploymentaccess.h"
#include "domain/deploy/deploymentlimits.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/faultpoints.h"
#include "domain/deploy/filepath.h"
#include "storage/blobbatch.h"
#include "storage/blobstore.h"

#include <zlib.h>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

// Inflated bytes go to the tar reader in pieces of this size.
constexpr qsizetype kInflatePiece = 64 * 1024;

Error tooLarge(const QString &message)
{
    return {Error::Kind::TooLarge, message};
}

} // namespace

// zlib's streaming inflate of one gzip member.
struct ArchiveStaging::Inflater
{
    z_stream stream {};
    bool ended = false;
    QByteArray out = QByteArray(kInflatePiece, Qt::Uninitialized);

    Inflater() { inflateInit2(&stream, 16 + MAX_WBITS); } // 16: a gzip wrapper, never a bare zlib one
    ~Inflater() { inflateEnd(&stream); }
    Q_DISABLE_COPY_MOVE(Inflater)
};

ArchiveStaging::ArchiveStaging(BlobStore &blobs, Compression compression, const FaultPoints &faults)
    : m_blobs(blobs)
    , m_faults(faults)
    , m_batch(std::make_unique<BlobBatch>(blobs))
    , m_inflater(compression == Compression::Gzip ? std::make_unique<Inflater>() : nullptr)
    , m_tar(*this)
{
}

ArchiveStaging::~ArchiveStaging() = default;

Result<void> ArchiveStaging::feed(QByteArrayView bytes)
{
    if (m_tar.atEnd())
        return {}; // the rest of the body (a tar's zero padding, gzip's trailer) says nothing more
    return m_inflater ? inflate(bytes) : m_tar.feed(bytes);
}

Result<void> ArchiveStaging::inflate(QByteArrayView bytes)
{
    Inflater &inflater = *m_inflater;
    inflater.stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(bytes.data()));
    inflater.stream.avail_in = uInt(bytes.size());
    while (!inflater.ended && !m_tar.atEnd() && (inflater.stream.avail_in > 0 || inflater.stream.avail_out == 0)) {
        inflater.stream.next_out = reinterpret_cast<Bytef *>(inflater.out.data());
        inflater.stream.avail_out = uInt(inflater.out.size());
        const int code = ::inflate(&inflater.stream, Z_NO_FLUSH);
        if (code != Z_OK && code != Z_STREAM_END && code != Z_BUF_ERROR)
            return Error {Error::Kind::BadRequest, u"The body is not gzip-compressed, or it is damaged"_s};
        inflater.ended = code == Z_STREAM_END;
        const qsizetype produced = inflater.out.size() - qsizetype(inflater.stream.avail_out);
        if (const Result<void> fed = m_tar.feed(QByteArrayView(inflater.out.constData(), produced)); !fed)
            return fed;
        if (code == Z_BUF_ERROR || (produced == 0 && inflater.stream.avail_in == 0))
            break;
    }
    return {};
}

Result<void> ArchiveStaging::fileBegins(const QString &name, qint64 size)
{
    const Result<QString> path = FilePath::normalise(name);
    if (!path)
        return path.error();
    if (m_paths.contains(path.value()))
        return Error {Error::Kind::BadRequest, u"duplicate file path \"%1\""_s.arg(path.value())};
    // Every limit from the header, before a byte of the content is read.
    if (m_paths.size() >= kMaxFilesPerDeployment)
        return tooLarge(DeploymentLimits::tooManyFiles());
    if (size > kMaxFileBytes)
        return tooLarge(DeploymentLimits::fileTooLarge(path.value()));
    m_totalBytes += size;
    if (m_totalBytes > kMaxTotalBytes)
        return tooLarge(DeploymentLimits::totalTooLarge());
    m_paths.insert(path.value());
    m_path = path.value();
    return {};
}

Result<void> ArchiveStaging::fileEnds(const QString & /*name*/, QByteArray content)
{
    const Result<QByteArray> put = m_batch->put(content);
    if (!put)
        return DeploymentAccess::writeFailed(put.error(), u"Could not store \"%1\""_s.arg(m_path));
    const QByteArray hash = put.value();
    m_written.append(hash);
    m_faults.reach("blob-written");
    const QByteArray contentType = MimeTypes::forPath(m_path);
    m_variants.store(m_blobs, *m_batch, hash, content, contentType);
    if (m_path == u"index.html")
        m_staged.documentTitle = DeploymentService::titleOf(content);
    m_staged.files.append({m_path, hash, content.size(), contentType});
    return {};
}

Result<StagedArchive> ArchiveStaging::finish()
{
    if (m_inflater && !m_inflater->ended && !m_tar.atEnd())
        return Error {Error::Kind::BadRequest, TarStream::truncatedMessage()};
    if (const Result<void> finished = m_tar.finish(); !finished)
        return finished.error();
    if (m_staged.files.isEmpty())
        return Error {Error::Kind::BadRequest, u"The archive holds no file"_s};
    m_faults.reach("before-blob-flush");
    if (const Result<void> flushed = m_batch->flush(); !flushed)
        return DeploymentAccess::writeFailed(flushed.error(), u"Could not store the files"_s);
    m_faults.reach("after-blob-flush");
    return std::move(m_staged);
}

} // namespace berth
