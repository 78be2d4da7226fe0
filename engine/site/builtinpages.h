#pragma once

#include "http/httpresponse.h"

#include <QHash>
#include <QString>

namespace berth {

// The HTML pages Berth itself serves on site hosts (404, no site, private, password gate, ...),
// compiled in from resources/pages. A page may hold {{name}} placeholders (values are HTML-escaped)
// and includes the shared stylesheet with {{> page.css}}.
namespace BuiltinPages {

QByteArray render(const QString &name, const QHash<QString, QString> &values = {});
HttpResponse response(int status, const QString &name, const QHash<QString, QString> &values = {});

} // namespace BuiltinPages
} // namespace berth
