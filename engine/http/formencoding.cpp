#include "http/formencoding.h"

#include <QByteArray>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
QString decode(QByteArrayView part)
{
    QByteArray bytes = part.toByteArray();
    bytes.replace('+', ' '); // before percent-decoding, so that "%2B" stays a '+'
    return QString::fromUtf8(QByteArray::fromPercentEncoding(bytes));
}
} // namespace

FormFields parseUrlEncoded(QByteArrayView encoded)
{
    FormFields fields;
    qsizetype start = 0;
    while (start <= encoded.size()) {
        qsizetype end = encoded.indexOf('&', start);
        if (end < 0)
            end = encoded.size();
        const QByteArrayView pair = encoded.sliced(start, end - start);
        if (!pair.isEmpty()) {
            const qsizetype equals = pair.indexOf('=');
            if (equals < 0)
                fields.append({decode(pair), u""_s});
            else
                fields.append({decode(pair.first(equals)), decode(pair.sliced(equals + 1))});
        }
        start = end + 1;
    }
    return fields;
}

QString formValue(const FormFields &fields, const QString &name)
{
    for (const auto &field : fields) {
        if (field.first == name)
            return field.second;
    }
    return {};
}

} // namespace berth
