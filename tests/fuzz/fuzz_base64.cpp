// Base64::decode against Qt's strict decoder, which it replaced on the deploy path: for any text, both refuse or
// both give the same bytes, read as Latin-1 bytes and as UTF-16 (where characters beyond Latin-1 must be refused).
#include "fuzzcheck.h"

#include <QString>
#include <domain/deploy/base64decoder.h>

using namespace berth;
using berth::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray text = fuzz::bytes(data, size);
    const auto qt
        = QByteArray::fromBase64Encoding(text, QByteArray::Base64Encoding | QByteArray::AbortOnBase64DecodingErrors);
    const std::optional<QByteArray> ours = Base64::decode(QByteArrayView(text));
    check(ours.has_value() == bool(qt));
    if (ours)
        check(*ours == qt.decoded);
    check(Base64::decode(QString::fromLatin1(text)) == ours);
    // Every character moved past Latin-1 keeps its low byte: none may pass for the letter it ends in.
    QString wide = QString::fromLatin1(text);
    if (!wide.isEmpty()) {
        wide[0] = QChar(char16_t(wide.at(0).unicode() | 0x100));
        check(!Base64::decode(QStringView(wide)).has_value());
    }
    return 0;
}
