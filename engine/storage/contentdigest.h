#pragma once

#include <QByteArray>
#include <memory>

struct evp_md_ctx_st; // OpenSSL's EVP_MD_CTX

namespace berth {

// The SHA-256 of content (what names a blob), through OpenSSL's libcrypto, which uses the CPU's SHA instructions
// where it has them. For the 50 MB of a deploy's files (one core): Qt 6.4's QCryptographicHash, which copies its
// input one byte at a time, 275 ms; libsodium's portable code 151 ms; OpenSSL 29 ms with SHA-NI.
class ContentDigest final
{
public:
    ContentDigest();
    ~ContentDigest();
    Q_DISABLE_COPY_MOVE(ContentDigest)

    void addData(QByteArrayView bytes);
    QByteArray hexResult(); // 64 lower-case hex digits; once, at the end

    static QByteArray hexOf(QByteArrayView bytes);

private:
    struct FreeContext
    {
        void operator()(evp_md_ctx_st *context) const;
    };
    std::unique_ptr<evp_md_ctx_st, FreeContext> m_context;
};

} // namespace berth
