#include "storage/orderedjson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

namespace berth::OrderedJson {

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// A string token (quotes included) as its text: plain ones directly, escaped ones through QJsonDocument.
QString decodeString(const QByteArray &token)
{
    if (!token.contains('\\'))
        return QString::fromUtf8(token.mid(1, token.size() - 2));
    const QJsonDocument wrapped = QJsonDocument::fromJson('[' + token + ']');
    return wrapped.array().at(0).toString();
}

} // namespace

// QJsonDocument writes arrays and objects only, so the value goes into one and out again.
QByteArray value(const QJsonValue &value)
{
    const QByteArray text = QJsonDocument(QJsonArray {value}).toJson(QJsonDocument::Compact);
    return text.mid(1, text.size() - 2);
}

QStringList keys(const QByteArray &objectText)
{
    QStringList found;
    QSet<QString> seen;
    qsizetype i = 0;
    const qsizetype size = objectText.size();
    while (i < size && isSpace(objectText.at(i)))
        ++i;
    if (i >= size || objectText.at(i) != '{')
        return found;
    int depth = 1;
    bool expectingKey = true;
    for (++i; i < size && depth > 0; ++i) {
        const char c = objectText.at(i);
        if (c == '"') {
            const qsizetype start = i;
            for (++i; i < size && objectText.at(i) != '"'; ++i) {
                if (objectText.at(i) == '\\')
                    ++i; // the escaped character cannot end the string
            }
            if (depth == 1 && expectingKey) {
                const QString key = decodeString(objectText.mid(start, i - start + 1));
                if (!seen.contains(key)) {
                    seen.insert(key);
                    found.append(key);
                }
                expectingKey = false;
            }
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            --depth;
        } else if (c == ',' && depth == 1) {
            expectingKey = true;
        }
    }
    return found;
}

QByteArray write(const QJsonObject &object, const QStringList &order)
{
    QByteArray text = "{";
    QSet<QString> written;
    const auto append = [&](const QString &key) {
        if (written.contains(key) || !object.contains(key))
            return;
        written.insert(key);
        if (text.size() > 1)
            text += ',';
        text += value(key) + ':' + value(object.value(key));
    };
    for (const QString &key : order)
        append(key);
    for (auto it = object.constBegin(); it != object.constEnd(); ++it)
        append(it.key());
    text += '}';
    return text;
}

} // namespace berth::OrderedJson
