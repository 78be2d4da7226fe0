#include "app/berthd/server/tlsoptions.h"

#include "instance/enginesettings.h"

#include <QCommandLineParser>

using namespace Qt::StringLiterals;

namespace berth::TlsOptions {

namespace {

const QString kCert = u"tls-cert"_s;
const QString kKey = u"tls-key"_s;
const QString kDir = u"tls-dir"_s;
const QString kPort = u"https-port"_s;
const QString kRedirect = u"https-redirect"_s;

} // namespace

QList<QCommandLineOption> options()
{
    return {
        {kCert, u"Serve HTTPS too, with this PEM certificate (then any intermediates); needs --tls-key."_s, u"FILE"_s},
        {kKey, u"The certificate's PEM private key (RSA or EC, not encrypted)."_s, u"FILE"_s},
        {kDir,
            u"Also serve the NAME.pem/NAME.key pairs of this folder, each to clients asking for NAME (SNI); "
            "read again when they change. Needs --tls-cert."_s,
            u"DIR"_s},
        {kPort, u"Port for HTTPS on the --listen address (default 8443; 0 picks a free one)."_s, u"PORT"_s},
        {kRedirect, u"Answer every plain-HTTP request with a redirect (308) to HTTPS."_s},
    };
}

QString apply(const QCommandLineParser &parser, EngineSettings *settings)
{
    settings->tlsCertFile = parser.value(kCert);
    settings->tlsKeyFile = parser.value(kKey);
    const bool tls = parser.isSet(kCert) || parser.isSet(kKey);
    if (tls && (settings->tlsCertFile.isEmpty() || settings->tlsKeyFile.isEmpty()))
        return u"--tls-cert and --tls-key go together"_s;
    // ACME alone serves HTTPS too (acmeoptions.cpp), with only the certificates it obtains.
    const bool acme = parser.isSet(u"acme-directory"_s);
    if (!tls && !acme && (parser.isSet(kPort) || parser.isSet(kRedirect) || parser.isSet(kDir)))
        return u"--https-port, --https-redirect and --tls-dir need --tls-cert and --tls-key"_s;
    if (!tls && parser.isSet(kDir))
        return u"--tls-dir needs --tls-cert and --tls-key, also with --acme-directory"_s;
    settings->tlsDir = parser.value(kDir);
    if (parser.isSet(kDir) && settings->tlsDir.isEmpty())
        return u"--tls-dir expects a folder"_s;
    if (parser.isSet(kPort)) {
        bool ok = false;
        const uint port = parser.value(kPort).toUInt(&ok);
        if (!ok || port > 65535)
            return u"--https-port expects a port number, not '%1'"_s.arg(parser.value(kPort));
        settings->httpsPort = quint16(port);
    }
    settings->httpsRedirect = parser.isSet(kRedirect);
    return {};
}

} // namespace berth::TlsOptions
