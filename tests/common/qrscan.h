#pragma once

#include <QList>
#include <QString>
#include <optional>

namespace berth::test {

// Reads QR codes back the way a phone would, with zbarimg (Debian's zbar-tools): what a test draws or prints must
// decode to exactly the text it stands for.
namespace QrScan {

// The text of the one QR code in an image file (any format zbarimg reads: PNG, PBM, ...); nothing when none is
// found, zbarimg is missing, or it finds more than one.
std::optional<QString> decodeFile(const QString &path);

// Terminal QR text (UTF-8 half blocks, light modules drawn, as `berthd qr` prints it) drawn into a black-and-white
// image at pixelsPerModule, then decoded. Lines of other text around the code are ignored.
std::optional<QString> decodeHalfBlocks(const QString &text, int pixelsPerModule = 4);

} // namespace QrScan
} // namespace berth::test
