// ConnectionGuard on an HTTPS door: the client's hello is read for the name it asks for, then the handshake starts
// with that name's certificate (connectionguard.cpp accepts connections and reads requests).
#include "http/clienthello.h"
#include "http/connectionguard.h"
#include "http/frontdoor.h"
#include "http/httpconfig.h"
#include "http/tlscertificatestore.h"

#include <QSslSocket>

namespace berth {

void ConnectionGuard::startTls()
{
    // Encrypted bytes leave after the plain ones were counted as written: both move a response along.
    m_slots[3] = QObject::connect(m_tls, &QSslSocket::encryptedBytesWritten, m_tls, [this] { onBytesWritten(); });
    m_slots[4] = QObject::connect(m_tls, &QSslSocket::encrypted, m_tls, [this] { onEncrypted(); });
    m_slots[5] = QObject::connect(m_tls, &QAbstractSocket::errorOccurred, m_tls, [this] {
        if (m_phase == Phase::Handshake) // a failed handshake: nothing to answer in, only to close
            QMetaObject::invokeMethod(m_tls, &QAbstractSocket::abort, Qt::QueuedConnection);
    });
    m_phase = Phase::Hello;
    m_helloBytes = ClientHello::kRecordHeaderBytes;
    // The hello and the handshake are a phase like the header block: a client that starts them and stalls, or never
    // starts, is closed at the header timeout, and holds its place in the per-address cap until then.
    armTimer(m_door.config().headerTimeoutMs);
}

void ConnectionGuard::readClientHello()
{
    // Peeked, never read: the TLS library reads the same bytes from the socket once the handshake starts. Nothing is
    // parsed again until as much as the hello announced has arrived, so a client trickling it costs a size check per
    // piece; what one hello may make the guard look at is one TLS record, and the socket buffers at most
    // kReadBufferBytes meanwhile.
    const qint64 available = m_socket.bytesAvailable();
    if (available < m_helloBytes)
        return;
    QByteArray &scratch = m_door.scratch();
    const qint64 peeked = m_socket.peek(scratch.data(), qMin(available, qint64(ClientHello::kMaxRecordBytes)));
    if (peeked <= 0)
        return;
    const ClientHello hello = ClientHello::read(QByteArrayView(scratch.constData(), peeked));
    if (hello.status == ClientHello::Status::Incomplete) {
        m_helloBytes = hello.needed;
        return;
    }
    startHandshake(hello);
}

void ConnectionGuard::startHandshake(const ClientHello &hello)
{
    // One atomic load: a certificate installed a moment ago is in it, and the set stays whole while it is used.
    const std::shared_ptr<const TlsCertificateSet> certificates = m_door.certificates()->snapshot();
    m_tls->setSslConfiguration(certificates->forHello(hello));
    m_phase = Phase::Handshake;
    // From now on the socket shows QtHttpServer decrypted bytes only, which the guard holds until it framed them.
    m_door.handOver(m_tls);
    m_tls->startServerEncryption();
}

void ConnectionGuard::onEncrypted()
{
    if (m_phase != Phase::Handshake)
        return;
    m_phase = Phase::Idle;
    noteIdle();
    armTimer(m_door.config().idleTimeoutMs);
    if (m_socket.isTransactionStarted())
        m_socket.rollbackTransaction(); // anything that arrived with the handshake's end is the first request
    if (m_socket.bytesAvailable() > 0)
        QMetaObject::invokeMethod(
            &m_socket, [this] { resume(); }, Qt::QueuedConnection);
}

} // namespace berth
