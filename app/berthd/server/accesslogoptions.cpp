#include "app/berthd/server/accesslogoptions.h"

#include "instance/enginesettings.h"

#include <QCommandLineParser>
#include <QDir>

using namespace Qt::StringLiterals;

namespace berth::AccessLogOptions {

namespace {

const QString kLog = u"access-log"_s;
const QString kKeep = u"access-log-keep"_s;
const QString kAnonymize = u"access-log-anonymize"_s;
constexpr int kMaxKeepDays = 3650;

} // namespace

QList<QCommandLineOption> options()
{
    return {
        {kLog,
            u"Write one line per request, in Apache's vhost_combined format, to FILE (default "
            "<data dir>/logs/access.log; '-': standard output; 'off': no access log)."_s,
            u"FILE"_s},
        {kKeep, u"Days of rotated access logs kept: access.log.1 ... access.log.DAYS (default 14)."_s, u"DAYS"_s},
        {kAnonymize, u"Write IPv4 addresses with the last octet zeroed and IPv6 addresses cut to /48."_s},
    };
}

QString apply(const QCommandLineParser &parser, EngineSettings *settings)
{
    const QString value = parser.isSet(kLog) ? parser.value(kLog) : QString();
    if (parser.isSet(kLog) && value.isEmpty())
        return u"--access-log expects a file, '-' or 'off'"_s;
    if (value == u"off"_s)
        settings->accessLog.clear();
    else if (value.isEmpty())
        settings->accessLog = u"logs/access.log"_s; // the engine reads it in the data folder
    else
        settings->accessLog = value == u"-"_s ? value : QDir().absoluteFilePath(value);
    if (parser.isSet(kKeep)) {
        bool ok = false;
        settings->accessLogKeepDays = parser.value(kKeep).toInt(&ok);
        if (!ok || settings->accessLogKeepDays < 0 || settings->accessLogKeepDays > kMaxKeepDays)
            return u"--access-log-keep expects a number of days from 0 to %1"_s.arg(kMaxKeepDays);
    }
    settings->accessLogAnonymize = parser.isSet(kAnonymize);
    return {};
}

} // namespace berth::AccessLogOptions
