#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QString>

namespace berth {

// One form submission a visitor left on a site.
struct Submission
{
    QString id;           // "sub_" + base62
    QString deploymentId;
    QJsonObject data;     // the submitted fields, without _hp and _next
    QDateTime createdAt;  // UTC
};

} // namespace berth
