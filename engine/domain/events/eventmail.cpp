#include "domain/events/eventmail.h"

#include "domain/common/clock.h"
#include "domain/events/eventtypes.h"
#include "storage/orderedjson.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace berth::EventMail {

namespace {

constexpr int kMaxAddressLength = 254;

QString withoutControls(QString text)
{
    for (QChar &c : text) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            c = u' ';
    }
    return text;
}

// A field's value as text: a string as it is, anything else as JSON.
QString valueText(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    return QString::fromUtf8(OrderedJson::value(value));
}

// The submission's fields in the order the form sent them: the order of the keys in the event's stored text.
QStringList fieldOrder(const QByteArray &body)
{
    // Berth writes "fields" last in data; inside a string the quote before the colon would be escaped, so the first
    // match is the key itself.
    const qsizetype at = body.indexOf("\"fields\":");
    return at < 0 ? QStringList() : OrderedJson::keys(body.mid(at + 9));
}

QString describe(const StoredEvent &event)
{
    const QJsonObject data = QJsonDocument::fromJson(event.body).object().value(u"data"_s).toObject();
    const QString slug = data.value(u"slug"_s).toString();
    QString text;
    if (event.type == QLatin1String(EventTypes::kSubmissionCreated)) {
        text = u"New submission on %1 (%2), %3:\n\n"_s.arg(
            slug, data.value(u"url"_s).toString(), isoTimestamp(event.createdAt));
        const QJsonObject fields = data.value(u"fields"_s).toObject();
        for (const QString &name : fieldOrder(event.body))
            text += name + u": "_s + valueText(fields.value(name)) + u'\n';
    } else if (event.type == QLatin1String(EventTypes::kPing)) {
        text = u"A test message from Berth, %1: this webhook reaches you.\n"_s.arg(isoTimestamp(event.createdAt));
    } else {
        text = u"%1 on %2 (%3), %4.\n"_s.arg(
            event.type, slug, data.value(u"url"_s).toString(), isoTimestamp(event.createdAt));
        if (const QString reason = data.value(u"reason"_s).toString(); !reason.isEmpty())
            text += u"Reason: %1\n"_s.arg(reason);
    }
    return text + u"Event %1\n"_s.arg(event.id);
}

QString subject(const QList<StoredEvent> &events)
{
    QStringList slugs;
    bool allSubmissions = true;
    for (const StoredEvent &event : events) {
        const QJsonObject data = QJsonDocument::fromJson(event.body).object().value(u"data"_s).toObject();
        const QString slug = data.value(u"slug"_s).toString();
        if (!slug.isEmpty() && !slugs.contains(slug))
            slugs.append(slug);
        allSubmissions = allSubmissions && event.type == QLatin1String(EventTypes::kSubmissionCreated);
    }
    const QString where = slugs.size() == 1 ? slugs.first() : u"your sites"_s;
    if (events.size() == 1 && events.first().type == QLatin1String(EventTypes::kPing))
        return u"Berth webhook test"_s;
    if (allSubmissions)
        return events.size() == 1 ? u"New submission on %1"_s.arg(where)
                                  : u"%1 new submissions on %2"_s.arg(events.size()).arg(where);
    if (events.size() == 1)
        return u"%1 on %2"_s.arg(events.first().type, where);
    return u"%1 events on %2"_s.arg(events.size()).arg(where);
}

} // namespace

Text compose(const QList<StoredEvent> &events)
{
    QStringList parts;
    for (const StoredEvent &event : events)
        parts.append(describe(event));
    return {withoutControls(subject(events)), parts.join(u"\n"_s)};
}

QString address(const QString &url)
{
    if (!url.startsWith(u"mailto:"_s))
        return {};
    const QString address = url.mid(7);
    static const QRegularExpression kAddress(u"^[^@\\s<>,;:\"()\\[\\]\\\\?&%]+@[A-Za-z0-9.-]+$"_s);
    if (address.size() > kMaxAddressLength || !kAddress.match(address).hasMatch()
        || address.contains(QRegularExpression(u"[\\x00-\\x1f\\x7f]"_s)))
        return {};
    return address;
}

} // namespace berth::EventMail
