#pragma once

#include "domain/acme/acmesettings.h"

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <memory>

namespace berth::test {

// What the ACME suites share: a ceiling for one issuance (pebble validates at once, PEBBLE_VA_NOSLEEP), the life of
// what pebble issues, and the custom domain ordered.
inline constexpr int kIssueTimeoutMs = 60 * 1000;
inline constexpr int kCertificateSeconds = 3000;
inline const QString kName = QStringLiteral("docs.example.test");

// Debian's pebble (a real ACME server) on loopback, with pebble-challtestsrv as its DNS: every name resolves to
// 127.0.0.1 unless pointAt() says otherwise, so pebble's validator reaches Berth's plain-HTTP port for any test name.
// Both run as child processes, stopped by their process ids.
class PebbleServer
{
public:
    // Picks the ports and the files' places in folder (made by the test), so that Berth can be told the directory
    // before pebble runs.
    explicit PebbleServer(const QString &folder);
    ~PebbleServer();

    static bool installed(); // both programs are on PATH

    // Where pebble's validator connects: Berth must listen there (plain HTTP, and HTTPS).
    quint16 berthPort() const { return m_berthPort; }
    quint16 berthHttpsPort() const { return m_berthHttpsPort; }
    // certificateSeconds: the life of what it issues; nonceReject: the percentage of nonces refused as bad.
    bool start(int certificateSeconds, int nonceReject = 0);
    void stop();

    QString directoryUrl() const; // https://127.0.0.1:<port>/dir
    // Berth's ACME settings for this server: its directory, its CA, quick polls, and checks only when the test calls
    // AcmeManager::check() itself (after moving the clock).
    AcmeSettings berthSettings() const;
    QString caFile() const { return m_caFile; } // PEM: what pebble's own HTTPS is signed by (--acme-ca)
    QByteArray rootPem() const; // the root of the certificates pebble issues (its management endpoint)
    bool pointAt(const QString &name, const QString &address); // DNS A record for a name

private:
    QByteArray fetch(const QString &url) const; // GET; empty on failure
    bool post(const QString &url, const QByteArray &body) const;
    bool send(const QString &url, const QByteArray &body, QByteArray *answer) const;

    const QString m_folder;
    const QString m_caFile;
    std::unique_ptr<QProcess> m_pebble;
    std::unique_ptr<QProcess> m_dns;
    quint16 m_port = 0;
    quint16 m_managementPort = 0;
    quint16 m_dnsManagementPort = 0;
    quint16 m_dnsPort = 0;
    quint16 m_berthPort = 0;
    quint16 m_berthHttpsPort = 0;
};

} // namespace berth::test
