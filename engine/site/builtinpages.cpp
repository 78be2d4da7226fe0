#include "builtinpages.h"

#include <QFile>

using namespace Qt::StringLiterals;

namespace berth::BuiltinPages {

namespace {
QString resource(const QString &fileName)
{
    QFile file(u":/pages/"_s + fileName);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}
} // namespace

QByteArray render(const QString &name, const QHash<QString, QString> &values)
{
    QString page = resource(name + u".html"_s);
    if (page.isEmpty())
        return QByteArrayLiteral("<!doctype html><title>Berth</title>");
    page.replace(u"{{> page.css}}"_s, resource(u"page.css"_s)); // the shared stylesheet, as is
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
