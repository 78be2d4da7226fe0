#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QStringList>

namespace berth::OrderedJson {

// QJsonObject keeps its keys sorted; these keep a JSON object's keys in the order they were written, for what a
// person reads in that order (a form's fields). Both are linear in the text's length.

// The top-level keys of a JSON object's text in the order written, each once (its first place); empty when the text
// does not start with an object. Meant for text QJsonDocument accepted.
QStringList keys(const QByteArray &objectText);

// object as compact JSON text with its keys in `order` first (names it does not hold are skipped), then the rest
// in QJsonObject's order.
QByteArray write(const QJsonObject &object, const QStringList &order);

// One value as compact JSON text (a string quoted and escaped), for text put together around write()'s.
QByteArray value(const QJsonValue &value);

} // namespace berth::OrderedJson
