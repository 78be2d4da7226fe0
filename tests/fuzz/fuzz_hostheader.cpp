// The Host header, read by normalisedHost() both where the front door picks a body limit from the raw head and
// where the dispatcher picks a site or the API from the framed request. The first input line is a Host value.
// Checks: the result is lower-case, no longer than the value, without a port (outside an IPv6 literal) or
// surrounding whitespace, and normalising it again changes nothing; and when RequestFramer accepts a request with
// that Host, the head's raw host and the framed header give the same normalised host (the two readings agree).
#include "fuzzcheck.h"

#include <http/hostheader.h>
#include <http/httprequest.h>
#include <http/requestframer.h>

using namespace berth;
using berth::fuzz::check;

namespace {

void checkFramedAgreement(const QByteArray &value)
{
    RequestFramer framer;
    const QByteArray request = "GET / HTTP/1.1\r\nHost: " + value + "\r\n\r\n";
    QByteArrayView rest(request);
    while (!rest.isEmpty() && framer.state() == RequestFramer::State::Head)
        rest = rest.sliced(framer.feed(rest));
    if (framer.state() != RequestFramer::State::HeadComplete)
        return;
    HttpRequest framed;
    framed.headers = framer.head().headers;
    check(framed.host() == normalisedHost(framer.head().host));
    check(framed.host() == normalisedHost(value));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray value = fuzz::splitFirstLine(fuzz::bytes(data, size)).first;
    const QString host = normalisedHost(value);
    check(host == host.toLower());
    check(host.size() <= value.size());
    if (!host.startsWith(u'['))
        check(!host.contains(u':'));
    else if (host.contains(u']'))
        check(host.endsWith(u']'));
    // Lower-casing keeps Latin-1 in Latin-1, so the host can be sent again as a header.
    const QByteArray again = host.toLatin1();
    check(QString::fromLatin1(again) == host);
    check(again == again.trimmed()); // ASCII whitespace only: Latin-1's no-break space is a byte like any other
    check(normalisedHost(again) == host);
    checkFramedAgreement(value);
    return 0;
}
