#include "web/builtinpages.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace berth::BuiltinPages {

namespace {

QString resource(const QString &fileName)
{
    QFile file(u":/pages/"_s + fileName);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

QByteArray mediaType(const QByteArray &contentType)
{
    return contentType.split(';').constFirst().trimmed().toLower();
}

QString titleFor(int status)
{
    switch (status) {
    case 413:
        return u"That is too much at once"_s;
    case 429:
        return u"Too many tries"_s;
    default:
        return u"That did not work"_s;
    }
}

// The refusal's own words, and for a rate limit when to try again.
QString messageFor(const HttpResponse &refusal)
{
    QString message = QJsonDocument::fromJson(refusal.body).object().value(u"error"_s).toString();
    if (message.isEmpty())
        message = u"The request was refused."_s;
    else if (!message.endsWith(u'.'))
        message += u'.';
    if (refusal.status == 429) {
        const int seconds = refusal.header("retry-after").toInt();
        if (seconds >= 3600)
            message += u" Try again in %1 hours."_s.arg((seconds + 3599) / 3600);
        else if (seconds >= 120)
            message += u" Try again in %1 minutes."_s.arg((seconds + 59) / 60);
        else if (seconds > 1)
            message += u" Try again in %1 seconds."_s.arg(seconds);
        else
            message += u" Try again in a moment."_s;
    }
    return message;
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

bool prefersPage(const HttpRequest &request)
{
    return prefersPage(request.header("accept"), request.header("content-type"));
}

bool prefersPage(const QByteArray &acceptHeader, const QByteArray &contentType)
{
    const QByteArray accept = acceptHeader.toLower();
    const bool acceptsHtml = accept.contains("text/html");
    if (accept.contains("application/json") && !acceptsHtml)
        return false;
    const QByteArray type = mediaType(contentType);
    if (type == "application/json")
        return false;
    return acceptsHtml || type == "application/x-www-form-urlencoded" || type == "multipart/form-data"
        || type == "text/plain";
}

HttpResponse refusalPage(const HttpResponse &jsonRefusal, const QString &back)
{
    HttpResponse page = response(jsonRefusal.status, u"refused"_s,
        {{u"title"_s, titleFor(jsonRefusal.status)}, {u"message"_s, messageFor(jsonRefusal)}, {u"back"_s, back}});
    for (const char *name : {"Retry-After", "Allow"}) {
        if (const QByteArray value = jsonRefusal.header(name); !value.isEmpty())
            page.setHeader(name, value);
    }
    return page;
}

} // namespace berth::BuiltinPages
