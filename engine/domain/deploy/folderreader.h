#pragma once

#include "core/error.h"
#include "domain/deploy/deployrequest.h"
#include "domain/deploy/publishchecks.h"

#include <QStringList>
#include <functional>

namespace berth {

class DigestCache;

// Why a folder or file cannot be published: what a front end words in its own language (the dashboard, translated);
// the Error that FolderReader returns carries the same in English (what `berthd deploy` prints).
struct FolderRefusal
{
    enum class Reason
    {
        Missing, // name does not exist (any more)
        NotPublishable, // a file that is not .html or .htm
        NeitherFileNorFolder, // a device, a socket, ...
        EmptyPage, // a single .html file with nothing in it
        NoFiles, // a folder with nothing to publish once hidden files and outside links are left out
        TooManyFiles, // amount files, limit
        UnusableName, // name cannot be part of a web address; detail: why, in English
        PageTooLarge, // a single .html file: amount bytes (0: it grew while read), limit
        FileTooLarge, // a file of a folder: amount bytes (0: it grew while read), limit
        FolderTooLarge, // amount bytes in all, limit
        Unreadable, // detail: the system's words
        Cancelled, // the progress callback said stop
    };
    Reason reason = Reason::Missing;
    QString name; // the file or folder at fault, as its owner knows it (a folder by its own name)
    qint64 amount = 0;
    qint64 limit = 0;
    QString detail;
};

// A folder or .html file read into deployable content.
struct FolderContent
{
    QString sourcePath; // absolute
    bool singleHtml = false;
    DeployRequest content; // only html, or only files, set
    int fileCount = 0;
    qint64 totalBytes = 0;
    int skippedHidden = 0; // hidden files and folders (.git, .DS_Store, ...) left out
    QStringList linksOutside; // links to outside the folder, left out (FolderListing)
    bool hasIndex = false; // a multi-file site without index.html shows "Not found" at its root
    QStringList sourceFiles; // the absolute path of each of content.files, in the same order
};

// The one reader of what a folder publishes, for the dashboard, `berthd deploy` and live folders alike: hidden files
// and links out of the folder are left out (listFolder), and the deploy limits (file count, each file's size, the
// total, a single page's size, names a web address can hold) are checked from the listing before a byte is read, so
// a refusal names the file at fault and nothing large is read for nothing. Synchronous: callers run it on a worker.
namespace FolderReader {

// progress(done, total) hears each file read and returns false to stop (a Cancelled refusal).
using Progress = std::function<bool(int done, int total)>;

// TooLarge for a limit, BadRequest otherwise, with an English message; `refusal`, when given, receives the same for
// a front end to word. `issues`, when given, receives what the pre-publish checks find in a folder (PublishChecks),
// also when the folder is then refused.
Result<FolderContent> read(const QString &path, const Progress &progress = {}, FolderRefusal *refusal = nullptr,
    QList<PublishIssue> *issues = nullptr);

// As read(), but a folder's files come named by their SHA-256 and size (FileUpload::isReference()), not with their
// content: what a deploy that sends only the content the server lacks sends first. A digest comes from cache (may be
// null) when it holds one for the file's unchanged stamp; every other file is read and hashed, and cache remembers
// it (the caller saves it). A single .html file is read as by read().
Result<FolderContent> readDigests(const QString &path, DigestCache *cache, const Progress &progress = {},
    FolderRefusal *refusal = nullptr, QList<PublishIssue> *issues = nullptr);

// The bytes of content's file at index (content from readDigests), for the files the server turns out to lack:
// read now, so a file that grew over the limit since is refused (FileTooLarge), as by read().
Result<QByteArray> contentOf(const FolderContent &content, qsizetype index);

// The English words of a refusal, as in read()'s Error.
QString message(const FolderRefusal &refusal);

} // namespace FolderReader
} // namespace berth
