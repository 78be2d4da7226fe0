#pragma once

#include "storage/webhook.h"

#include <QList>
#include <QString>

namespace berth {

// What a mailto: webhook sends: one plain-text mail for the events of one delivery (several, when they were grouped
// within a minute). For a submission the subject is "New submission on <slug>" and the body lists its fields in the
// form's order. Nothing a visitor or an owner wrote reaches the subject: it is built from the event type, the count
// and the slug, which a slug's rules keep to [a-z0-9-]; control characters are dropped from it all the same.
namespace EventMail {

struct Text
{
    QString subject;
    QString body;
};

Text compose(const QList<StoredEvent> &events);

// The address of a mailto: URL ("mailto:ada@example.com"), or an empty string when it is not one Berth mails to:
// exactly one address, no parameters, no whitespace, control characters or angle brackets.
QString address(const QString &url);

} // namespace EventMail
} // namespace berth
