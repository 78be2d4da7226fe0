#include "app/berthd/client/prepublish.h"

#include "app/berthd/cli.h"
#include "app/berthd/commands.h"

#include <QTextStream>
#include <cstdio>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace berth::PrePublish {

int confirm(const QList<PublishIssue> &issues, bool yes)
{
    if (issues.isEmpty())
        return ExitOk;

    QTextStream &err = Cli::err();
    err << "berthd: before publishing, " << issues.size() << (issues.size() == 1 ? " thing" : " things")
        << " to look at:\n";
    bool overLimit = false;
    for (const PublishIssue &issue : issues) {
        err << "  - " << PublishChecks::kindName(issue.kind) << ": " << issue.message << "\n";
        overLimit = overLimit || issue.kind == PublishIssue::Kind::TooLarge;
    }
    err.flush();
    if (overLimit || yes) // over a limit: the size check that follows refuses, there is nothing to ask
        return ExitOk;
    if (!isatty(fileno(stdin))) {
        err << "berthd: not published: there is no terminal to ask whether to publish anyway. Fix the above, or run "
               "again with --yes to publish as it is.\n";
        err.flush();
        return ExitUnconfirmed;
    }
    err << "Publish anyway? [y/N] ";
    err.flush();
    QTextStream in(stdin);
    const QString answer = in.readLine().trimmed().toLower();
    if (answer == u"y" || answer == u"yes")
        return ExitOk;
    err << "berthd: not published\n";
    err.flush();
    return ExitUnconfirmed;
}

} // namespace berth::PrePublish
