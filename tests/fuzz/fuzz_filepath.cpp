// File paths of a multi-file deploy. The input is read as UTF-8, or (odd first byte) as raw UTF-16 so that lone
// surrogates reach the parser too. An accepted path must be in normal form (relative, no empty, "." or ".."
// segment, no backslash or control character, within the byte limits) and normalising it again must not change it.
#include "fuzzcheck.h"

#include <QStringList>
#include <domain/deploy/filepath.h>

using namespace berth;
using berth::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    QString path;
    if (data[0] & 1)
        path = QString(reinterpret_cast<const QChar *>(data + 1), qsizetype((size - 1) / 2));
    else
        path = QString::fromUtf8(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));

    const Result<QString> result = FilePath::normalise(path);
    if (!result) {
        check(!result.error().message.isEmpty());
        return 0;
    }
    const QString normalised = result.value();
    check(!normalised.isEmpty() && !normalised.startsWith(u'/') && !normalised.endsWith(u'/'));
    check(!normalised.contains(u'\\'));
    check(normalised.toUtf8().size() <= FilePath::kMaxPathBytes);
    for (const QChar c : normalised)
        check(c.category() != QChar::Other_Control);
    for (const QString &segment : normalised.split(u'/')) {
        check(!segment.isEmpty() && segment != u"." && segment != u"..");
        check(segment.toUtf8().size() <= FilePath::kMaxSegmentBytes);
    }
    const Result<QString> again = FilePath::normalise(normalised);
    check(again.ok() && again.value() == normalised);
    return 0;
}
