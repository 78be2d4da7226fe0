#pragma once

#include "core/error.h"

#include <QJsonObject>
#include <QStringList>

namespace berth {

// A POST /_submit body read into fields, by its Content-Type: a JSON object, a urlencoded form, or the text
// fields of a multipart form. A name sent more than once in a form becomes an array of its values.
struct SubmissionBody
{
    QJsonObject fields; // everything sent, _hp and _next included
    QStringList order; // fields' names in the order sent
    bool isJson = false;

    // BadRequest for an empty or malformed body, JSON that is not an object, a file part, or another type.
    static Result<SubmissionBody> parse(const QByteArray &contentType, const QByteArray &body);
};

} // namespace berth
