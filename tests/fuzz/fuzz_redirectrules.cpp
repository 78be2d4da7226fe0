// A _redirects file and one request: the input's first line is the request-target (split and decoded as the front
// door does), the rest is the file. Parsing must report bad lines by number without failing, and whatever rule
// applies must answer with a supported status, a Location that cannot start a second host or a header line, and
// a rewrite path inside the site.
#include "fuzzcheck.h"

#include <domain/siterules/redirectrules.h>
#include <http/httprequest.h>

using namespace berth;
using berth::fuzz::check;

namespace {

bool isLocationSafe(const QString &location)
{
    if (location.isEmpty())
        return false;
    for (const QChar c : location) {
        if (c.unicode() <= 0x20 || c.unicode() == 0x7f)
            return false;
    }
    if (location.startsWith(u"http://", Qt::CaseInsensitive) || location.startsWith(u"https://", Qt::CaseInsensitive))
        return true;
    return location.startsWith(u'/') && !location.startsWith(u"//") && !location.startsWith(u"/\\");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto [target, text] = fuzz::splitFirstLine(fuzz::bytes(data, size));
    QStringList warnings;
    const RedirectRules rules = RedirectRules::parse(text, &warnings);
    const qsizetype lines = text.count('\n') + 1;
    for (const QString &warning : std::as_const(warnings)) {
        check(warning.startsWith(QStringLiteral("_redirects line ")));
        const qsizetype colon = warning.indexOf(u':');
        bool ok = false;
        const int line = QStringView(warning).sliced(16, colon - 16).toInt(&ok);
        check(ok && line >= 1 && line <= lines);
    }
    check(rules.size() <= RedirectRules::kMaxRules);

    QString path;
    QByteArray query;
    HttpRequest::splitTarget(target, &path, &query);
    for (const bool fileExists : {false, true}) {
        const auto match = rules.match(path, query, fileExists);
        if (!match)
            continue;
        switch (match->kind) {
        case RedirectMatch::Kind::Redirect:
            check(match->status == 301 || match->status == 302 || match->status == 303 || match->status == 307
                || match->status == 308);
            check(isLocationSafe(match->location));
            break;
        case RedirectMatch::Kind::Rewrite:
            check(match->status == 200 && match->path.startsWith(u'/'));
            break;
        case RedirectMatch::Kind::NotFound:
            check(match->status == 404 && match->path.startsWith(u'/'));
            break;
        }
    }
    return 0;
}
