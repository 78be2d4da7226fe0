#include "domain/common/randomid.h"

#include <QList>
#include <QRandomGenerator>
#include <array>
#include <cstring>

namespace berth::RandomId {

QString base62(int length)
{
    static constexpr char kAlphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    QString id;
    if (length <= 0)
        return id;
    id.reserve(length);
    // Rejection sampling: a 6-bit draw is kept only when below 62, so every character is equally likely
    // (bounded(62) or "% 62" would favour some).
    std::array<quint32, 8> words;
    while (id.size() < length) {
        QRandomGenerator::system()->fillRange(words.data(), qsizetype(words.size()));
        for (quint32 word : words) {
            for (int i = 0; i < 5 && id.size() < length; ++i, word >>= 6) {
                const quint32 draw = word & 0x3f;
                if (draw < 62)
                    id += QLatin1Char(kAlphabet[draw]);
            }
        }
    }
    return id;
}

QString make(QStringView prefix, int length)
{
    return prefix.toString() + base62(length);
}

QByteArray token(int bytes)
{
    if (bytes <= 0)
        return {};
    QByteArray raw(bytes, Qt::Uninitialized);
    QList<quint32> words((bytes + 3) / 4);
    QRandomGenerator::system()->fillRange(words.data(), words.size());
    memcpy(raw.data(), words.constData(), size_t(bytes));
    return raw.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

} // namespace berth::RandomId
