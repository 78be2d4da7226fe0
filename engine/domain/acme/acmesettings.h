#pragma once

#include <QString>

namespace berth {

// Certificates by ACME (RFC 8555): off unless a directory URL is given.
struct AcmeSettings
{
    QString directoryUrl; // e.g. Let's Encrypt's https://acme-v02.api.letsencrypt.org/directory; empty: off
    QString email; // the account's contact
    QString caFile; // PEM certificates trusted for the ACME server's own HTTPS (a private CA); empty: the system's
    // The challenge answered: "http-01" on the plain-HTTP port, or "tls-alpn-01" on the HTTPS port (RFC 8737). When the
    // CA does not offer it, the other one.
    QString challenge = QStringLiteral("http-01");
    bool apiAndSiteNames = false; // also the API host and every site's name, not only names attached to a site
    int checkIntervalMs = 60 * 1000; // how often the names are looked at: orders due, renewals, retries
    int pollIntervalMs = 1000; // while the ACME server validates or issues
    int retryBaseSeconds = 60; // the first retry after a failure; each further failure doubles it
    int retryMaxSeconds = 24 * 60 * 60;

    bool enabled() const { return !directoryUrl.isEmpty(); }
};

} // namespace berth
