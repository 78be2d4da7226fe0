#pragma once

#include "domain/deploy/publishchecks.h"

namespace berth {

// `berthd deploy`'s pre-publish checks (PublishChecks): what they find in a folder is printed to standard error,
// then the user is asked whether to publish anyway, unless --yes answered already. Without a terminal to ask on and
// without --yes, nothing is published (ExitUnconfirmed). A file over a limit is only listed: the deploy's own size
// check refuses it right after, as before. A single .html file is not checked (it has no issues).
namespace PrePublish {

constexpr int ExitUnconfirmed = 8; // issues found and not confirmed (declined, or no terminal and no --yes)

// issues: what the checks found (SiteFolder::read). ExitOk (0) to go on with the deploy, else the exit status (the
// reason printed).
int confirm(const QList<PublishIssue> &issues, bool yes);

} // namespace PrePublish
} // namespace berth
