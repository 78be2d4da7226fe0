// The TLS ClientHello an HTTPS door peeks at for the name the client asks for (SNI), before any handshake: the
// bytes are a stranger's. Checks: an incomplete hello asks for more than it has and never more than one record;
// a name read is one normalisedServerName() leaves as it is (lower case, at most 253 bytes, no wildcard); only the
// first record counts (bytes after it change nothing); every prefix of an input is incomplete or reads the same as
// soon as the record is whole; an unreadable hello carries no name and no ALPN offer.
#include "fuzzcheck.h"

#include <http/clienthello.h>

using namespace berth;
using berth::fuzz::check;

namespace {

bool same(const ClientHello &a, const ClientHello &b)
{
    return a.status == b.status && a.serverName == b.serverName && a.offersAcmeTls == b.offersAcmeTls;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray input = fuzz::bytes(data, size).first(qMin(qsizetype(size), ClientHello::kMaxRecordBytes + 64));
    const ClientHello hello = ClientHello::read(input);
    switch (hello.status) {
    case ClientHello::Status::Incomplete:
        check(hello.needed > input.size() && hello.needed <= ClientHello::kMaxRecordBytes);
        check(hello.serverName.isEmpty() && !hello.offersAcmeTls);
        return 0;
    case ClientHello::Status::Unreadable:
        check(hello.serverName.isEmpty() && !hello.offersAcmeTls);
        break;
    case ClientHello::Status::Complete:
        check(hello.serverName.size() <= 253);
        check(hello.serverName == hello.serverName.toLower());
        check(!hello.serverName.startsWith('*'));
        check(hello.serverName.isEmpty() || normalisedServerName(hello.serverName) == hello.serverName);
        break;
    }
    // The record's end, when the header was readable: nothing after it matters, nothing before it completes.
    if (input.size() >= ClientHello::kRecordHeaderBytes && hello.status == ClientHello::Status::Complete) {
        const qsizetype end = ClientHello::kRecordHeaderBytes + ((quint8(input[3]) << 8) | quint8(input[4]));
        check(same(ClientHello::read(input.first(end)), hello));
        check(same(ClientHello::read(input.first(end) + "trailing bytes"), hello));
        const ClientHello shorter = ClientHello::read(input.first(end - 1));
        check(shorter.status == ClientHello::Status::Incomplete && shorter.needed == end);
    }
    return 0;
}
