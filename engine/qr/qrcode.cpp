#include "qr/qrcode.h"

#include <qrencode.h>

namespace berth {

QrCode::QrCode(int size, QByteArray modules)
    : m_size(size)
    , m_modules(std::move(modules))
{
}

std::optional<QrCode> QrCode::encode(const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    // Version 0: the smallest version the data fits in.
    QRcode *code = QRcode_encodeData(
        int(bytes.size()), reinterpret_cast<const unsigned char *>(bytes.constData()), 0, QR_ECLEVEL_M);
    if (!code)
        return std::nullopt;
    const int size = code->width;
    QByteArray modules(qsizetype(size) * size, Qt::Uninitialized);
    for (qsizetype i = 0; i < modules.size(); ++i)
        modules[i] = char(code->data[i] & 1); // the other bits say which part of the symbol a module belongs to
    QRcode_free(code);
    return QrCode(size, std::move(modules));
}

bool QrCode::isDark(int x, int y) const
{
    if (x < 0 || y < 0 || x >= m_size || y >= m_size)
        return false;
    return m_modules.at(qsizetype(y) * m_size + x) != 0;
}

QString QrCode::toHalfBlocks() const
{
    const int first = -kQuietZone;
    const int last = m_size + kQuietZone; // exclusive
    QString text;
    for (int y = first; y < last; y += 2) {
        for (int x = first; x < last; ++x) {
            const bool upperLight = !isDark(x, y);
            // An odd number of rows leaves the last line's lower half outside: drawn light, like the quiet zone.
            const bool lowerLight = y + 1 >= last || !isDark(x, y + 1);
            if (upperLight && lowerLight)
                text += QChar(0x2588); // full block
            else if (upperLight)
                text += QChar(0x2580); // upper half block
            else if (lowerLight)
                text += QChar(0x2584); // lower half block
            else
                text += QLatin1Char(' ');
        }
        text += QLatin1Char('\n');
    }
    return text;
}

} // namespace berth
