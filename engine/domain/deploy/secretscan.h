#pragma once

#include "domain/deploy/publishchecks.h"

#include <QByteArray>
#include <QString>
#include <optional>

// The pre-publish checks' look for secrets (PublishChecks): by a file's name, and in its first bytes.
namespace berth::SecretScan {

// A name that holds secrets by convention, whatever is in the file: an environment file, an SSH private key.
std::optional<PublishIssue::Finding> byName(const QString &path);

// What content gives away, if anything: a private key block (only the first "PRIVATE KEY-----" is looked at), else
// the first found of the key patterns of AWS, GitHub, Slack, Stripe and Google, in that order. Linear in the content.
std::optional<PublishIssue::Finding> inContent(const QByteArray &content);

} // namespace berth::SecretScan
