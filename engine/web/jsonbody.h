#pragma once

#include "core/error.h"

#include <QJsonObject>

namespace berth::JsonBody {

// A request body that must be one JSON object; the 400 texts match the deploy endpoints'.
Result<QJsonObject> parseObject(const QByteArray &body);

} // namespace berth::JsonBody
