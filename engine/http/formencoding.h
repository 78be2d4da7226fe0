#pragma once

#include <QByteArrayView>
#include <QList>
#include <QPair>
#include <QString>

namespace berth {

using FormFields = QList<QPair<QString, QString>>;

// application/x-www-form-urlencoded (form bodies and query strings): '&'-separated name=value pairs, '+' as a
// space (QtHttpServer's query() never does that), percent-decoded, read as UTF-8. Empty pairs are skipped; a
// pair without '=' has an empty value. Order and repeated names are kept.
FormFields parseUrlEncoded(QByteArrayView encoded);

// The first value of a name in parsed fields, or a null QString.
QString formValue(const FormFields &fields, const QString &name);

} // namespace berth
