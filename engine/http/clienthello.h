#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QtGlobal>

namespace berth {

// What an HTTPS door needs from a client's first TLS record before its handshake starts: the name the client asks
// for (SNI), to pick the certificate, and whether it offers ACME's TLS-ALPN-01 protocol. Qt 6.4 has no server-side
// SNI callback, so the door peeks at these bytes itself and leaves them for the TLS library to read again.
// A stranger sends them: every length is checked against what encloses it, only one record (at most
// kMaxRecordBytes) is ever looked at, and anything that is not a ClientHello read whole from that record is
// Unreadable, which gets the default certificate (the TLS library then refuses what is really broken).
struct ClientHello
{
    enum class Status
    {
        Incomplete, // more bytes are needed: at least `needed` in all
        Complete, // a ClientHello, read whole from the first record
        Unreadable, // not a ClientHello in one record, or one that breaks its own lengths
    };

    static constexpr qsizetype kRecordHeaderBytes = 5;
    static constexpr qsizetype kMaxRecordBytes = kRecordHeaderBytes + 16 * 1024; // the header and TLS's largest body

    Status status = Status::Incomplete;
    qsizetype needed = kRecordHeaderBytes;
    QByteArray serverName; // normalisedServerName() of the SNI host_name; empty without one or when it is invalid
    bool offersAcmeTls = false; // its ALPN list holds "acme-tls/1" (RFC 8737)

    // bytes: what has arrived so far, from the connection's first byte.
    static ClientHello read(QByteArrayView bytes);
};

// A host name as certificates are looked up by it: lower case, one final dot dropped, labels of letters, digits,
// '-' and '_' (1 to 63 bytes each, 253 in all); with allowWildcard, "*." may lead. Empty when it is no such name.
QByteArray normalisedServerName(QByteArrayView name, bool allowWildcard = false);

} // namespace berth
