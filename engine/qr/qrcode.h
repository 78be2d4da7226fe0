#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <optional>

namespace berth {

// A QR code as a square matrix of modules, for both front ends to draw their own way (the dashboard as vector
// rectangles, berthd as text). Encoded by libqrencode in byte mode with error correction level M (15 %), which
// keeps a phone's camera reading it from a screen at an angle.
class QrCode final
{
public:
    // The smallest symbol that holds text (as UTF-8); nothing when it does not fit (over about 2.3 KB).
    static std::optional<QrCode> encode(const QString &text);

    int size() const { return m_size; } // modules per side, without the quiet zone
    bool isDark(int x, int y) const; // false outside the symbol (the quiet zone)
    // The light border scanners need around the symbol, in modules (ISO/IEC 18004).
    static constexpr int kQuietZone = 4;

    // Two rows of modules per line of text, quiet zone included, with UTF-8 half blocks: '█' both light, '▀' the
    // upper light, '▄' the lower light, ' ' both dark. Light modules are the drawn ones, so that the code reads on
    // a terminal's usual dark background; each line ends with '\n'.
    QString toHalfBlocks() const;

private:
    QrCode(int size, QByteArray modules);

    int m_size = 0;
    QByteArray m_modules; // size * size, row by row; 1 is dark
};

} // namespace berth
