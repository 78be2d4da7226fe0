#include "domain/deploy/base64decoder.h"

#include <array>
#include <type_traits>

namespace berth::Base64 {

namespace {

constexpr signed char kInvalid = -1;

constexpr std::array<signed char, 256> makeValues()
{
    std::array<signed char, 256> values {};
    for (signed char &value : values)
        value = kInvalid;
    constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 64; ++i)
        values[static_cast<unsigned char>(kAlphabet[i])] = static_cast<signed char>(i);
    return values;
}
constexpr std::array<signed char, 256> kValues = makeValues();

// The six bits a character stands for, or kInvalid (also for every character beyond Latin-1).
template<typename Char>
int valueOf(Char c)
{
    const auto code = static_cast<std::make_unsigned_t<Char>>(c);
    return code < 256 ? kValues[code] : kInvalid;
}

template<typename Char>
std::optional<QByteArray> decodeText(const Char *text, qsizetype size)
{
    qsizetype padding = 0;
    while (padding < size && text[size - 1 - padding] == Char('='))
        ++padding;
    if (padding > 2 || (padding > 0 && size % 4 != 0))
        return std::nullopt;
    const qsizetype significant = size - padding;
    // A last group of one character carries no whole byte; Qt accepts and drops it, and so does this.
    const qsizetype tail = significant % 4;
    const qsizetype groups = significant / 4;
    QByteArray out(groups * 3 + (tail > 1 ? tail - 1 : 0), Qt::Uninitialized);
    auto *to = reinterpret_cast<unsigned char *>(out.data());
    const Char *from = text;
    for (qsizetype group = 0; group < groups; ++group, from += 4, to += 3) {
        const int a = valueOf(from[0]), b = valueOf(from[1]), c = valueOf(from[2]), d = valueOf(from[3]);
        if ((a | b | c | d) < 0)
            return std::nullopt;
        const quint32 bits = quint32(a) << 18 | quint32(b) << 12 | quint32(c) << 6 | quint32(d);
        to[0] = static_cast<unsigned char>(bits >> 16);
        to[1] = static_cast<unsigned char>(bits >> 8);
        to[2] = static_cast<unsigned char>(bits);
    }
    quint32 bits = 0;
    for (qsizetype i = 0; i < tail; ++i) {
        const int value = valueOf(from[i]);
        if (value < 0)
            return std::nullopt;
        bits = bits << 6 | quint32(value);
    }
    if (tail == 2) {
        to[0] = static_cast<unsigned char>(bits >> 4);
    } else if (tail == 3) {
        to[0] = static_cast<unsigned char>(bits >> 10);
        to[1] = static_cast<unsigned char>(bits >> 2);
    }
    return out;
}

} // namespace

std::optional<QByteArray> decode(QStringView text)
{
    return decodeText(text.utf16(), text.size());
}

std::optional<QByteArray> decode(QByteArrayView text)
{
    return decodeText(text.data(), text.size());
}

} // namespace berth::Base64
