#pragma once

#include "domain/deploy/publishchecks.h"

#include <QCoreApplication>

namespace berth {

// The dashboard's wording for what the pre-publish checks found, in the user's language, chosen by the finding
// (PublishIssue::Finding) and its parameters, never by the engine's English message.
class PublishIssueText final
{
    Q_DECLARE_TR_FUNCTIONS(berth::PublishIssueText)

public:
    static QString describe(const PublishIssue &issue);
    static QString kindName(PublishIssue::Kind kind);
};

} // namespace berth
