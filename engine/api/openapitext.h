#pragma once

#include <QByteArray>

namespace berth::OpenApiText {

// JSON: {"METHOD /pattern": {tag, summary, description?, query?, body?, ok, errors?}, ...}
QByteArray operations();
// JSON: the document's components.schemas.
QByteArray components();

} // namespace berth::OpenApiText
