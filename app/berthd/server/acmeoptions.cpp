#include "app/berthd/server/acmeoptions.h"

#include "instance/enginesettings.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace berth::AcmeOptions {

namespace {

const QString kDirectory = u"acme-directory"_s;
const QString kEmail = u"acme-email"_s;
const QString kCa = u"acme-ca"_s;
const QString kNames = u"acme-names"_s;
const QString kChallenge = u"acme-challenge"_s;

} // namespace

QList<QCommandLineOption> options()
{
    return {
        {kDirectory,
            u"Obtain and renew a certificate for every custom domain from this ACME server's directory (e.g. "
            "https://acme-v02.api.letsencrypt.org/directory), answering its challenges itself (--acme-challenge), and "
            "serve each on the HTTPS port (--https-port), also without --tls-cert. Needs --acme-email."_s,
            u"URL"_s},
        {kEmail, u"The ACME account's contact address (the CA writes about expiring certificates)."_s, u"ADDRESS"_s},
        {kCa, u"Trust this PEM CA for the ACME server's own HTTPS (a private ACME server such as step-ca)."_s,
            u"FILE"_s},
        {kNames, u"Also obtain certificates for the API's host and every site's name (<slug>.<site domain>)."_s},
        {kChallenge,
            u"How the CA checks a name: http-01 (default; on the plain-HTTP port) or tls-alpn-01 (on the HTTPS port)."_s,
            u"TYPE"_s},
    };
}

QString apply(const QCommandLineParser &parser, EngineSettings *settings)
{
    const bool acme = parser.isSet(kDirectory);
    if (!acme && (parser.isSet(kEmail) || parser.isSet(kCa) || parser.isSet(kNames) || parser.isSet(kChallenge)))
        return u"--acme-email, --acme-ca, --acme-names and --acme-challenge need --acme-directory"_s;
    if (!acme)
        return {};
    const QUrl directory(parser.value(kDirectory));
    if (!directory.isValid() || (directory.scheme() != u"https"_s && directory.scheme() != u"http"_s)
        || directory.host().isEmpty())
        return u"--acme-directory expects the ACME server's directory URL, e.g. "
               "https://acme-v02.api.letsencrypt.org/directory"_s;
    const QString email = parser.value(kEmail);
    if (!email.contains(u'@'))
        return u"--acme-directory needs --acme-email ADDRESS"_s;
    if (parser.isSet(kCa) && !QFileInfo(parser.value(kCa)).isReadable())
        return u"--acme-ca expects a readable PEM file, not '%1'"_s.arg(parser.value(kCa));
    settings->acme.directoryUrl = directory.toString();
    settings->acme.email = email;
    settings->acme.caFile = parser.isSet(kCa) ? QFileInfo(parser.value(kCa)).absoluteFilePath() : QString();
    settings->acme.apiAndSiteNames = parser.isSet(kNames);
    if (parser.isSet(kChallenge)) {
        const QString challenge = parser.value(kChallenge);
        if (challenge != u"http-01"_s && challenge != u"tls-alpn-01"_s)
            return u"--acme-challenge expects http-01 or tls-alpn-01, not '%1'"_s.arg(challenge);
        settings->acme.challenge = challenge;
    }
    return {};
}

} // namespace berth::AcmeOptions
