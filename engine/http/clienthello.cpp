#include "http/clienthello.h"

namespace berth {

namespace {

constexpr quint32 kHandshakeRecord = 22;
constexpr quint32 kClientHelloMessage = 1;
constexpr quint32 kServerNameExtension = 0;
constexpr quint32 kAlpnExtension = 16;
constexpr quint32 kHostNameType = 0;
constexpr qsizetype kRandomBytes = 32;
constexpr quint32 kMaxSessionIdBytes = 32;
constexpr qsizetype kMaxHostNameBytes = 253;
constexpr qsizetype kMaxLabelBytes = 63;

// Big-endian integers and length-prefixed vectors, never past the end of the bytes it was given.
class Reader
{
public:
    explicit Reader(QByteArrayView bytes)
        : m_bytes(bytes)
    {
    }

    bool atEnd() const { return m_position == m_bytes.size(); }

    bool integer(int width, quint32 *value)
    {
        if (m_bytes.size() - m_position < width)
            return false;
        quint32 result = 0;
        for (int i = 0; i < width; ++i)
            result = (result << 8) | quint8(m_bytes[m_position + i]);
        m_position += width;
        *value = result;
        return true;
    }

    bool take(qsizetype size, QByteArrayView *taken)
    {
        if (size < 0 || m_bytes.size() - m_position < size)
            return false;
        *taken = m_bytes.sliced(m_position, size);
        m_position += size;
        return true;
    }

    // A vector with a length of lengthWidth bytes in front, of minSize to maxSize bytes.
    bool vector(int lengthWidth, quint32 minSize, quint32 maxSize, QByteArrayView *contents)
    {
        quint32 size = 0;
        return integer(lengthWidth, &size) && size >= minSize && size <= maxSize && take(size, contents);
    }

private:
    QByteArrayView m_bytes;
    qsizetype m_position = 0;
};

constexpr quint32 kAnySize = 0xffffff;

// RFC 6066: a list of names, at most one of each type; the first host_name is the one.
bool readServerName(QByteArrayView extension, QByteArray *serverName)
{
    Reader outer(extension);
    QByteArrayView list;
    if (!outer.vector(2, 1, kAnySize, &list) || !outer.atEnd())
        return false;
    Reader names(list);
    bool found = false;
    while (!names.atEnd()) {
        quint32 type = 0;
        QByteArrayView name;
        if (!names.integer(1, &type) || !names.vector(2, 1, kAnySize, &name))
            return false;
        if (type == kHostNameType && !found) {
            *serverName = normalisedServerName(name);
            found = true;
        }
    }
    return true;
}

// RFC 7301: a list of non-empty protocol names.
bool readAlpn(QByteArrayView extension, bool *offersAcmeTls)
{
    Reader outer(extension);
    QByteArrayView list;
    if (!outer.vector(2, 2, kAnySize, &list) || !outer.atEnd())
        return false;
    Reader protocols(list);
    while (!protocols.atEnd()) {
        QByteArrayView protocol;
        if (!protocols.vector(1, 1, 255, &protocol))
            return false;
        if (protocol == QByteArrayView("acme-tls/1"))
            *offersAcmeTls = true;
    }
    return true;
}

bool readExtensions(QByteArrayView extensions, ClientHello *hello)
{
    Reader reader(extensions);
    bool sawServerName = false;
    bool sawAlpn = false;
    while (!reader.atEnd()) {
        quint32 type = 0;
        QByteArrayView data;
        if (!reader.integer(2, &type) || !reader.vector(2, 0, kAnySize, &data))
            return false;
        // An extension twice is a broken hello (RFC 8446): it must not choose between two names.
        if (type == kServerNameExtension && (sawServerName || !readServerName(data, &hello->serverName)))
            return false;
        if (type == kAlpnExtension && (sawAlpn || !readAlpn(data, &hello->offersAcmeTls)))
            return false;
        sawServerName = sawServerName || type == kServerNameExtension;
        sawAlpn = sawAlpn || type == kAlpnExtension;
    }
    return true;
}

// The handshake message inside the record (RFC 8446, 4.1.2; the same layout since TLS 1.0).
bool readClientHelloMessage(QByteArrayView record, ClientHello *hello)
{
    Reader reader(record);
    quint32 messageType = 0;
    QByteArrayView message;
    // The message must lie within this record: a hello split over records is left to the TLS library.
    if (!reader.integer(1, &messageType) || messageType != kClientHelloMessage
        || !reader.vector(3, 0, kAnySize, &message))
        return false;
    Reader body(message);
    QByteArrayView skipped;
    if (!body.take(2 + kRandomBytes, &skipped) || !body.vector(1, 0, kMaxSessionIdBytes, &skipped)
        || !body.vector(2, 2, kAnySize, &skipped) || !body.vector(1, 1, kAnySize, &skipped))
        return false;
    if (body.atEnd())
        return true; // no extensions at all: no name
    QByteArrayView extensions;
    return body.vector(2, 0, kAnySize, &extensions) && body.atEnd() && readExtensions(extensions, hello);
}

} // namespace

ClientHello ClientHello::read(QByteArrayView bytes)
{
    ClientHello hello;
    if (!bytes.isEmpty() && quint8(bytes[0]) != kHandshakeRecord) {
        hello.status = Status::Unreadable; // plain HTTP to the HTTPS port, say: no need to wait for more
        return hello;
    }
    Reader header(bytes);
    quint32 type = 0;
    quint32 majorVersion = 0;
    quint32 minorVersion = 0;
    quint32 length = 0;
    if (!header.integer(1, &type) || !header.integer(1, &majorVersion) || !header.integer(1, &minorVersion)
        || !header.integer(2, &length))
        return hello; // Incomplete: the record header first
    if (majorVersion != 3 || length == 0 || kRecordHeaderBytes + qsizetype(length) > kMaxRecordBytes) {
        hello.status = Status::Unreadable;
        return hello;
    }
    hello.needed = kRecordHeaderBytes + qsizetype(length);
    if (bytes.size() < hello.needed)
        return hello;
    if (!readClientHelloMessage(bytes.sliced(kRecordHeaderBytes, length), &hello)) {
        hello.serverName.clear();
        hello.offersAcmeTls = false;
        hello.status = Status::Unreadable;
        return hello;
    }
    hello.status = Status::Complete;
    return hello;
}

QByteArray normalisedServerName(QByteArrayView name, bool allowWildcard)
{
    if (name.endsWith('.'))
        name.chop(1);
    const bool wildcard = allowWildcard && name.startsWith("*.");
    const QByteArrayView rest = wildcard ? name.sliced(2) : name;
    if (rest.isEmpty() || rest.size() > kMaxHostNameBytes)
        return {};
    qsizetype labelBytes = 0;
    for (const char c : rest) {
        const bool letterOrDigit = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (c == '.') {
            if (labelBytes == 0)
                return {};
            labelBytes = 0;
        } else if (letterOrDigit || c == '-' || c == '_') {
            if (++labelBytes > kMaxLabelBytes)
                return {};
        } else {
            return {};
        }
    }
    if (labelBytes == 0)
        return {};
    return name.toByteArray().toLower();
}

} // namespace berth
