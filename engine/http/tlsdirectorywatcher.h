#pragma once

#include "core/error.h"

#include <QFileSystemWatcher>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>
#include <QTimer>
#include <array>

namespace berth {

class TlsCertificateStore;

// The certificates of a folder (berthd serve --tls-dir): NAME.pem (the certificate, then any intermediates) with
// NAME.key (its unencrypted key) serve handshakes for the host NAME, in lower case; _wildcard.example.org.pem/.key
// serve the names one label under example.org. Pairs are read again when they change, without a restart: when the
// file-system watcher says so (after a short settling time, as a pair is rarely written at once) and, for changes
// it cannot see, every few minutes. A pair goes into the store only when both files parse and the key belongs to
// the certificate; a bad pair is logged by name once and the name keeps what it had. A .pem without its .key is no
// pair (a CA's file, or a key still to come) and is passed over. A name whose certificate file is gone goes back to
// the default certificate. Lives on the engine's thread, where its file reads run.
class TlsDirectoryWatcher final : public QObject
{
    Q_OBJECT

public:
    TlsDirectoryWatcher(TlsCertificateStore &store, QString folder, QObject *parent = nullptr);
    ~TlsDirectoryWatcher() override;
    Q_DISABLE_COPY_MOVE(TlsDirectoryWatcher)

    // Reads the folder and starts watching it. BadRequest, in words, when it is not a folder that can be read.
    Result<void> start();
    // Reads the pairs that changed since the last look.
    void rescan();

    static constexpr int kSettleMs = 200;
    static constexpr int kRescanMs = 5 * 60 * 1000;
    static constexpr int kMaxPairs = 10000; // names read from one folder; more are logged and left out

private:
    using Fingerprint = std::array<qint64, 8>; // of both files: inode, size, modification and change time

    void scheduleRescan();
    void loadPair(const QString &name, const QString &certPath, const QString &keyPath);

    TlsCertificateStore &m_store;
    const QString m_folder;
    QFileSystemWatcher m_watcher;
    QTimer m_settle;
    QTimer m_periodic;
    QHash<QString, Fingerprint> m_seen; // by certificate name: the files as last read, good or bad
    QSet<QString> m_installed; // names this folder put into the store
    bool m_warnedTooMany = false;
};

} // namespace berth
