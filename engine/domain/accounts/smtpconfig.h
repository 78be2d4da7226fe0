#pragma once

#include <QJsonObject>
#include <QString>
#include <optional>

namespace berth {

// How Berth reaches its SMTP server to mail sign-in codes. Kept in the settings table (the password too, as the
// server needs it in the clear: protect the data directory).
struct SmtpConfig
{
    enum class Security
    {
        None, // plain SMTP (a relay on this machine or the LAN)
        StartTls, // SMTP upgraded with STARTTLS, required (port 587)
        Tls, // SMTP over TLS from the first byte (port 465)
    };
    static constexpr int kDefaultPort = 587;

    QString host;
    int port = kDefaultPort;
    QString user; // empty: no authentication
    QString password;
    QString from; // the sender address
    Security security = Security::StartTls;

    bool isConfigured() const { return !host.isEmpty() && !from.isEmpty(); }
    // Why the settings cannot be used (an empty host, a port out of range, a bad sender, a line break), or an
    // empty string.
    QString validationError() const;

    QJsonObject toJson() const; // {"host", "port", "user", "password", "from", "security"}
    static std::optional<SmtpConfig> fromJson(const QJsonObject &json);

    static QString securityName(Security security); // "none", "starttls", "tls"
    static std::optional<Security> securityFromName(const QString &name);
};

} // namespace berth
