#pragma once

// Shared by tst_liftedcontent and fuzz_deployrequest: what parseDeployRequest relies on LiftedContent for.
#include "domain/deploy/liftedcontent.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace berth::test {

// The value with every placeholder of `lifted` replaced by the text it stands for.
inline QJsonValue withLiftedText(const QJsonValue &value, const LiftedContent &lifted)
{
    if (value.isString()) {
        const std::optional<qsizetype> index = lifted.indexOf(value.toString());
        return index ? QJsonValue(QString::fromLatin1(lifted.value(*index))) : value;
    }
    if (value.isArray()) {
        QJsonArray array;
        for (const QJsonValue &item : value.toArray())
            array.append(withLiftedText(item, lifted));
        return array;
    }
    if (value.isObject()) {
        QJsonObject object;
        const QJsonObject original = value.toObject();
        for (auto it = original.begin(); it != original.end(); ++it)
            object.insert(it.key(), withLiftedText(it.value(), lifted));
        return object;
    }
    return value;
}

// For a body whose lifted values are all printable ASCII (lifted.allText()): the skeleton parses exactly when the
// body does, and to the same document once the placeholders are put back.
inline bool skeletonReadsAsBody(const LiftedContent &lifted, const QByteArray &body)
{
    QJsonParseError bodyError, skeletonError;
    const QJsonDocument whole = QJsonDocument::fromJson(body, &bodyError);
    const QJsonDocument skeleton = QJsonDocument::fromJson(lifted.skeleton(), &skeletonError);
    if ((bodyError.error == QJsonParseError::NoError) != (skeletonError.error == QJsonParseError::NoError))
        return false;
    if (bodyError.error != QJsonParseError::NoError)
        return true;
    const auto root = [](const QJsonDocument &document) {
        return document.isArray() ? QJsonValue(document.array()) : QJsonValue(document.object());
    };
    return withLiftedText(root(skeleton), lifted) == root(whole);
}

} // namespace berth::test
