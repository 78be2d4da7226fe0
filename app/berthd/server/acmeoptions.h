#pragma once

#include <QCommandLineOption>
#include <QList>
#include <QString>

QT_BEGIN_NAMESPACE
class QCommandLineParser;
QT_END_NAMESPACE

namespace berth {

struct EngineSettings;

// berthd serve's certificates by ACME: --acme-directory, --acme-email, --acme-ca, --acme-names,
// --acme-challenge.
namespace AcmeOptions {

QList<QCommandLineOption> options();
// Fills settings from the parsed line; the usage error when the options do not fit together, else empty.
QString apply(const QCommandLineParser &parser, EngineSettings *settings);

} // namespace AcmeOptions
} // namespace berth
