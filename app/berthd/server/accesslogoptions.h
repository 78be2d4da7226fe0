#pragma once

#include <QCommandLineOption>
#include <QList>
#include <QString>

QT_BEGIN_NAMESPACE
class QCommandLineParser;
QT_END_NAMESPACE

namespace berth {

struct EngineSettings;

// berthd serve's access log options: --access-log, --access-log-keep, --access-log-anonymize.
namespace AccessLogOptions {

QList<QCommandLineOption> options();
// Fills settings from the parsed line (after the data folder is known: the log is in it by default); the usage
// error when a value does not fit, else empty.
QString apply(const QCommandLineParser &parser, EngineSettings *settings);

} // namespace AccessLogOptions
} // namespace berth
