#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QSet>
#include <QString>
#include <QStringList>

namespace berth {

// One form submission a visitor left on a site.
struct Submission
{
    QString id; // "sub_" + base62
    QString deploymentId;
    QJsonObject data; // the submitted fields, without _hp and _next
    QDateTime createdAt; // UTC
    // data's names in the order the visitor's form sent them (QJsonObject sorts its keys). Rows stored before the
    // order was kept have their names in alphabetical order here.
    QStringList fieldOrder = {};

    // data's names as they are shown: fieldOrder, then any name of data it lacks.
    QStringList fields() const
    {
        QStringList names;
        QSet<QString> seen; // a form may send thousands of names: no quadratic look-ups
        const auto add = [&](const QString &name) {
            if (!seen.contains(name)) {
                seen.insert(name);
                names.append(name);
            }
        };
        for (const QString &name : fieldOrder) {
            if (data.contains(name))
                add(name);
        }
        if (names.size() < data.size()) {
            for (auto it = data.constBegin(); it != data.constEnd(); ++it)
                add(it.key());
        }
        return names;
    }
};

} // namespace berth
