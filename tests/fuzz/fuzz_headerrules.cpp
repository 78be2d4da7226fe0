// A _headers file and one request path: the input's first line is the request-target, the rest is the file.
// Parsing must report bad lines by number without failing; the headers a path gets must be well-formed fields
// (no line breaks or NUL), never one that Berth reserves, and at most the per-response cap of them.
#include "fuzzcheck.h"

#include <domain/siterules/headerrules.h>
#include <http/httprequest.h>

using namespace berth;
using berth::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto [target, text] = fuzz::splitFirstLine(fuzz::bytes(data, size));
    QStringList warnings;
    const HeaderRules rules = HeaderRules::parse(text, &warnings);
    const qsizetype lines = text.count('\n') + 1;
    for (const QString &warning : std::as_const(warnings)) {
        check(warning.startsWith(QStringLiteral("_headers line ")));
        const qsizetype colon = warning.indexOf(u':');
        bool ok = false;
        const int line = QStringView(warning).sliced(14, colon - 14).toInt(&ok);
        check(ok && line >= 1 && line <= lines);
    }
    check(rules.size() <= HeaderRules::kMaxRules);

    QString path;
    QByteArray query;
    HttpRequest::splitTarget(target, &path, &query);
    const HeaderRules::Headers headers = rules.match(path);
    check(headers.size() <= HeaderRules::kMaxHeadersPerResponse);
    for (const auto &[name, value] : headers) {
        check(!name.isEmpty() && !name.contains(':') && !name.contains(' '));
        check(!value.contains('\r') && !value.contains('\n') && !value.contains('\0'));
        const QByteArray lower = name.toLower();
        check(lower != "set-cookie" && lower != "content-length" && lower != "transfer-encoding" && lower != "location"
            && lower != "vary" && lower != "etag");
        if (lower == "x-content-type-options")
            check(value.toLower().split(',').first().trimmed() == "nosniff");
    }
    return 0;
}
