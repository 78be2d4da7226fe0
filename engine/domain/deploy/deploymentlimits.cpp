#include "domain/deploy/deploymentlimits.h"

using namespace Qt::StringLiterals;

namespace berth::DeploymentLimits {

namespace {
QString megabytes(qint64 bytes)
{
    return QString::number(bytes / kMiB);
}

// A size over a limit in MB, with as many decimals as it takes not to read as the limit itself ("5.000001", never
// "5.0" for 5 MB and a byte).
QString mebibytesOver(qint64 bytes, qint64 limit)
{
    const double value = double(bytes) / double(kMiB);
    const double bound = double(limit) / double(kMiB);
    for (int decimals = 1; decimals < 7; ++decimals) {
        const QString shown = QString::number(value, 'f', decimals);
        if (shown.toDouble() > bound)
            return shown;
    }
    return QString::number(value, 'f', 7);
}
} // namespace

QString htmlTooLarge(qint64 bytes)
{
    return u"HTML exceeds the %1 MB limit (%2 MB)"_s.arg(megabytes(kMaxHtmlBytes), mebibytesOver(bytes, kMaxHtmlBytes));
}

QString fileTooLarge(const QString &path)
{
    return u"File \"%1\" exceeds the %2 MB per-file limit"_s.arg(path, megabytes(kMaxFileBytes));
}

QString totalTooLarge()
{
    return u"Total deployment size exceeds the %1 MB limit"_s.arg(megabytes(kMaxTotalBytes));
}

QString tooManyFiles()
{
    return u"A deployment can have at most %1 files"_s.arg(kMaxFilesPerDeployment);
}

QString tooManyDomains()
{
    return u"A site can have at most %1 domains"_s.arg(kMaxDomainsPerSite);
}

} // namespace berth::DeploymentLimits
