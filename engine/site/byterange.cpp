#include "site/byterange.h"

namespace berth {

namespace {
bool parseNumber(const QByteArray &text, qint64 *value)
{
    if (text.isEmpty() || text.size() > 18)
        return false;
    for (char c : text) {
        if (c < '0' || c > '9')
            return false;
    }
    *value = text.toLongLong();
    return true;
}
} // namespace

ByteRange ByteRange::parse(const QByteArray &header, qint64 size)
{
    const QByteArray spec = header.trimmed();
    if (!spec.startsWith("bytes=") || spec.contains(','))
        return {};
    const QByteArray range = spec.mid(6).trimmed();
    const qsizetype dash = range.indexOf('-');
    if (dash < 0)
        return {};
    const QByteArray start = range.left(dash).trimmed();
    const QByteArray end = range.mid(dash + 1).trimmed();

    qint64 first = 0;
    qint64 last = size - 1;
    if (start.isEmpty()) { // "bytes=-N": the last N bytes
        qint64 suffix = 0;
        if (!parseNumber(end, &suffix))
            return {};
        if (suffix == 0 || size == 0)
            return {Kind::Unsatisfiable, 0, 0};
        first = qMax<qint64>(0, size - suffix);
    } else {
        if (!parseNumber(start, &first))
            return {};
        if (!end.isEmpty()) {
            if (!parseNumber(end, &last) || last < first)
                return {};
            last = qMin(last, size - 1);
        }
        if (first >= size)
            return {Kind::Unsatisfiable, 0, 0};
    }
    return {Kind::Satisfiable, first, last - first + 1};
}

QByteArray ByteRange::contentRange(qint64 size) const
{
    if (kind != Kind::Satisfiable)
        return "bytes */" + QByteArray::number(size);
    return "bytes " + QByteArray::number(first) + '-' + QByteArray::number(first + length - 1) + '/'
        + QByteArray::number(size);
}

} // namespace berth
