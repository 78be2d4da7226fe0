#include "builtinpages.h"

#include <QFile>

using namespace Qt::StringLiterals;

namespace berth::BuiltinPages {

QByteArray render(const QString &name, const QHash<QString, QString> &values)
{
    QFile file(u":/pages/%1.html"_s.arg(name));
    if (!file.open(QIODevice::ReadOnly))
        return QByteArrayLiteral("<!doctype html><title>Berth</title>");
    QString page = QString::fromUtf8(file.readAll());
    for (auto it = values.constBegin(); it != values.constEnd(); ++it)
        page.replace(u"{{"_s + it.key() + u"}}"_s, it.value().toHtmlEscaped());
    return page.toUtf8();
}

HttpResponse response(int status, const QString &name, const QHash<QString, QString> &values)
{
    HttpResponse response = HttpResponse::bytes(status, "text/html; charset=utf-8", render(name, values));
    response.setHeader("Cache-Control", "no-store");
    return response;
}

} // namespace berth::BuiltinPages
