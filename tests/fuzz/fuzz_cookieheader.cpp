// The Cookie header: cookieValue() (the private-site gate reads its access cookie with it) and the framer's joining
// of several Cookie fields into one (appendCookieField). The first input line is a cookie name, each further line
// one Cookie field. Checks: cookieValue answers as the plain split-trim-match reading below does; a value it
// returns ends in no whitespace, holds no ';' and stands in the header right after "name="; joining fields never
// changes which cookie a name finds (it is the one of the fields read one after another); and when RequestFramer
// accepts the fields as a request, its single joined Cookie header is exactly that join.
#include "fuzzcheck.h"

#include <cctype>
#include <http/cookieheader.h>
#include <http/requestframer.h>

using namespace berth;
using berth::fuzz::check;

namespace {

// The reading cookieValue() must match, written the obvious allocating way.
QByteArray reference(const QByteArrayList &fields, const QByteArray &name)
{
    for (const QByteArray &field : fields) {
        for (const QByteArray &part : field.split(';')) {
            const QByteArray pair = part.trimmed();
            if (pair.size() > name.size() && pair.startsWith(name) && pair.at(name.size()) == '=')
                return pair.mid(name.size() + 1);
        }
    }
    return {};
}

QByteArray trimmedOws(QByteArray value)
{
    while (!value.isEmpty() && (value.front() == ' ' || value.front() == '\t'))
        value.remove(0, 1);
    while (!value.isEmpty() && (value.back() == ' ' || value.back() == '\t'))
        value.chop(1);
    return value;
}

void checkFramed(const QByteArrayList &fields, const QByteArray &joined)
{
    QByteArray request = "GET / HTTP/1.1\r\nHost: a\r\n";
    for (const QByteArray &field : fields)
        request += "Cookie: " + field + "\r\n";
    request += "\r\n";
    RequestFramer framer;
    QByteArrayView rest(request);
    while (!rest.isEmpty() && framer.state() == RequestFramer::State::Head)
        rest = rest.sliced(framer.feed(rest));
    if (framer.state() != RequestFramer::State::HeadComplete)
        return;
    int cookieFields = 0;
    for (const auto &[name, value] : framer.head().headers) {
        if (name == "cookie") {
            ++cookieFields;
            check(value == joined);
        }
    }
    check(cookieFields == (fields.isEmpty() ? 0 : 1));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto [name, rest] = fuzz::splitFirstLine(fuzz::bytes(data, size));
    const QByteArrayList fields = rest.isEmpty() ? QByteArrayList() : rest.split('\n');

    QByteArray joined;
    QByteArrayList owsTrimmed;
    for (const QByteArray &field : fields) {
        const QByteArray value = cookieValue(field, name);
        check(value == reference({field}, name));
        if (!value.isEmpty()) {
            // The pair is trimmed, not the value: "name= x" reads " x", which matches no cookie Berth issued.
            check(!value.contains(';') && !std::isspace(static_cast<unsigned char>(value.back())));
            check(field.contains(name + '=' + value));
        }
        owsTrimmed << trimmedOws(field);
        appendCookieField(joined, owsTrimmed.back());
    }
    check(cookieValue(joined, name) == reference(owsTrimmed, name));
    checkFramed(fields, joined);
    return 0;
}
