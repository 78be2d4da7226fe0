#pragma once

#include <QCommandLineOption>
#include <QList>
#include <QString>

QT_BEGIN_NAMESPACE
class QCommandLineParser;
QT_END_NAMESPACE

namespace berth {

struct EngineSettings;

// berthd serve's HTTPS options: --tls-cert, --tls-key, --tls-dir, --https-port, --https-redirect.
namespace TlsOptions {

QList<QCommandLineOption> options();
// Fills settings from the parsed line; the usage error when the options do not fit together, else empty.
QString apply(const QCommandLineParser &parser, EngineSettings *settings);

} // namespace TlsOptions
} // namespace berth
