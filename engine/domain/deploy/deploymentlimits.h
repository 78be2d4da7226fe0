#pragma once

#include <QString>

namespace berth {

// How large a deployment may be (docs/configuration.md, with the plans), and the words of each refusal, made from
// the numbers so that they cannot drift apart. 1 MB is 1,048,576 bytes throughout.
constexpr qint64 kMiB = 1048576;
constexpr qint64 kMaxHtmlBytes = 5 * kMiB;
constexpr qint64 kMaxFileBytes = 10 * kMiB;
constexpr qint64 kMaxTotalBytes = 50 * kMiB;
constexpr int kMaxFilesPerDeployment = 10000;
constexpr int kMaxDomainsPerSite = 10; // custom domains

namespace DeploymentLimits {

QString htmlTooLarge(qint64 bytes); // "HTML exceeds the 5 MB limit (7.2 MB)"
QString fileTooLarge(const QString &path); // "File \"a.bin\" exceeds the 10 MB per-file limit"
QString totalTooLarge(); // "Total deployment size exceeds the 50 MB limit"
QString tooManyFiles(); // "A deployment can have at most 10000 files"
QString tooManyDomains(); // "A site can have at most 10 domains"

} // namespace DeploymentLimits
} // namespace berth
