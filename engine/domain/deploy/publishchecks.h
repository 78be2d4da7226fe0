#pragma once

#include "domain/deploy/folderfiles.h"

#include <QList>
#include <QString>
#include <optional>

namespace berth {

// Something worth a second look before a folder is published. None of these stops a publish: the owner decides
// ("Publish anyway" in the dashboard, a question or --yes in `berthd deploy`).
struct PublishIssue
{
    enum class Kind
    {
        NoIndex, // no index.html at the root: the site's address shows Not found
        BrokenReference, // a relative href or src names a file that is not in the folder
        TooLarge, // a file, or the whole folder, is over a limit: the server will refuse it
        Secret, // a private key block, an .env file or a credential pattern
        LargeImage, // an image large enough to make pages slow
        LeftOut, // a symbolic link out of the folder: not published
    };
    // What exactly was found: a front end words each one in its own language from this and the fields below
    // (the dashboard in ui/publishissuetext.cpp); message is the English wording `berthd deploy` prints.
    enum class Finding
    {
        NoIndex,
        TooManyFiles, // amount files, limit
        FolderTooLarge, // amount bytes, limit bytes
        FileTooLarge, // path, amount bytes, limit bytes
        LargeImage, // path, amount bytes
        EnvFile, // path: named like an environment file
        SshKeyFile, // path: named like an SSH private key
        PrivateKeyBlock, // path contains "-----BEGIN ... PRIVATE KEY-----"
        AwsAccessKey, // path contains what looks like one
        GitHubToken,
        SlackToken,
        StripeSecretKey,
        GoogleApiKey,
        LinkMissing, // the page path links to reference (href), which is not in the folder
        LinkOutside, // ... which is outside the folder
        SourceMissing, // the page path loads reference (src), which is not in the folder
        SourceOutside,
        LinkLeftOut, // path is a symbolic link whose target is outside the folder, or nothing
        MoreOfKind, // amount further findings of kind were left out
    };
    Kind kind;
    QString path; // the file concerned, relative to the folder; empty for the folder as a whole
    QString message; // one line in English, naming the file and what was found
    Finding finding = Finding::NoIndex;
    QString reference = {}; // a broken link's href or src, as written
    qint64 amount = 0; // a count of files or findings, or a size in bytes (see Finding)
    qint64 limit = 0; // the limit amount is over
};

// The checks on a folder's listing (listFolder), for the dashboard's publish sheet and `berthd deploy` alike.
// Reading is bounded: HTML files are scanned (HtmlScanner, one linear pass) up to kMaxScannedHtmlBytes each, every
// other file's first kMaxScannedSecretBytes are searched for secret patterns with linear searches, and no more than
// kMaxScannedTotalBytes are read in all. Images and other media are judged by name and size only.
namespace PublishChecks {

constexpr qint64 kLargeImageBytes = 1024 * 1024;
constexpr qint64 kMaxScannedHtmlBytes = 2 * 1024 * 1024;
constexpr qint64 kMaxScannedSecretBytes = 256 * 1024;
constexpr qint64 kMaxScannedTotalBytes = 64 * 1024 * 1024;
constexpr int kMaxIssuesPerKind = 50; // then one line says how many more

// What the secret scan found in files whose bytes are known unchanged since (DigestCache keeps it beside a file's
// digest), so that the checks of an unchanged folder read none of its files again.
class SecretMemory
{
public:
    struct Scan
    {
        std::optional<PublishIssue::Finding> found; // nullopt: nothing
    };
    virtual ~SecretMemory() = default;
    // What scanning file found the last time, or nullopt when it has to be scanned (again).
    virtual std::optional<Scan> recall(const FolderFile &file) const = 0;
    // What scanning file found now (or recall() said).
    virtual void keep(const FolderFile &file, Scan scan) = 0;
};

QList<PublishIssue> check(const FolderListing &listing, SecretMemory *memory = nullptr);

// A short name of the kind, for lists ("Missing index.html", "Broken link", ...).
QString kindName(PublishIssue::Kind kind);

} // namespace PublishChecks
} // namespace berth
