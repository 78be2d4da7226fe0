#include "ui/publishing/publishissuetext.h"

#include <QLocale>

namespace berth {

namespace {
QString size(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}
} // namespace

QString PublishIssueText::kindName(PublishIssue::Kind kind)
{
    switch (kind) {
    case PublishIssue::Kind::NoIndex:
        return tr("No index.html");
    case PublishIssue::Kind::BrokenReference:
        return tr("Broken link");
    case PublishIssue::Kind::TooLarge:
        return tr("Over a limit");
    case PublishIssue::Kind::Secret:
        return tr("Possible secret");
    case PublishIssue::Kind::LargeImage:
        return tr("Large image");
    case PublishIssue::Kind::LeftOut:
        return tr("Left out");
    }
    return {};
}

QString PublishIssueText::describe(const PublishIssue &issue)
{
    using Finding = PublishIssue::Finding;
    const QString &path = issue.path;
    switch (issue.finding) {
    case Finding::NoIndex:
        return tr("There is no index.html at the top of the folder: the site's address will show Not found");
    case Finding::TooManyFiles:
        return tr("The folder has %L1 files: a site can have at most %L2").arg(issue.amount).arg(issue.limit);
    case Finding::FolderTooLarge:
        return tr("The folder holds %1: over the %2 limit for a site").arg(size(issue.amount), size(issue.limit));
    case Finding::FileTooLarge:
        return tr("%1 is %2: over the %3 per-file limit").arg(path, size(issue.amount), size(issue.limit));
    case Finding::LargeImage:
        return tr("%1 is a %2 image: pages that show it load slowly; a smaller or compressed copy helps")
            .arg(path, size(issue.amount));
    case Finding::EnvFile:
        return tr("%1 looks like an environment file (.env), which usually holds passwords and keys").arg(path);
    case Finding::SshKeyFile:
        return tr("%1 looks like an SSH private key").arg(path);
    case Finding::PrivateKeyBlock:
        return tr("%1 contains a private key block").arg(path);
    case Finding::AwsAccessKey:
        return tr("%1 contains what looks like an AWS access key").arg(path);
    case Finding::GitHubToken:
        return tr("%1 contains what looks like a GitHub token").arg(path);
    case Finding::SlackToken:
        return tr("%1 contains what looks like a Slack token").arg(path);
    case Finding::StripeSecretKey:
        return tr("%1 contains what looks like a Stripe secret key").arg(path);
    case Finding::GoogleApiKey:
        return tr("%1 contains what looks like a Google API key").arg(path);
    case Finding::LinkMissing:
        return tr("%1 links to “%2”, which is not in the folder").arg(path, issue.reference);
    case Finding::LinkOutside:
        return tr("%1 links to “%2”, which is outside the folder").arg(path, issue.reference);
    case Finding::SourceMissing:
        return tr("%1 loads “%2”, which is not in the folder").arg(path, issue.reference);
    case Finding::SourceOutside:
        return tr("%1 loads “%2”, which is outside the folder").arg(path, issue.reference);
    case Finding::LinkLeftOut:
        return tr("%1 is a link to outside the folder (or to nothing): it is left out").arg(path);
    case Finding::MoreOfKind:
        return tr("… and %n more of this kind (%1)", nullptr, int(issue.amount)).arg(kindName(issue.kind));
    }
    return issue.message;
}

} // namespace berth
