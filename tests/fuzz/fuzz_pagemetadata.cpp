// The page metadata injection on arbitrary HTML. run-fuzz.sh gives this target a small -timeout, so a scan that is
// super-linear in the document (the crafted-HTML stall) fails as a timeout. Here it checks that the output stays
// linear in the input (at most three bytes per input byte, as invalid UTF-8 becomes U+FFFD, plus the injected
// block), that the block is always there, and that empty metadata leaves the document untouched (odd first byte).
#include "fuzzcheck.h"

#include <domain/deploy/pagemetadata.h>

using namespace berth;
using berth::fuzz::check;

namespace {

// Every field set, with characters that need escaping, kept short so that the bound below is tight.
PageMetadata fullMetadata()
{
    PageMetadata metadata;
    metadata.title = QStringLiteral("Fuzz \"title\" & <b>");
    metadata.description = QStringLiteral("A <description> with 'quotes' & \"more\"");
    metadata.favicon = QString::fromUtf8("\xF0\x9F\x9A\x80");
    metadata.ogImage = QStringLiteral("https://example.com/og.png?a=1&b=\"2\"");
    metadata.url = QStringLiteral("http://fuzz-site.localhost:8080");
    return metadata;
}

constexpr qsizetype kMaxInjectedBytes = 4096; // the block for fullMetadata() is about 1 KiB

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const QByteArray html = fuzz::bytes(data + 1, size - 1);
    if (data[0] & 1) {
        check(injectPageMetadata(html, PageMetadata()) == html);
        return 0;
    }
    static const PageMetadata metadata = fullMetadata();
    const QByteArray output = injectPageMetadata(html, metadata);
    check(output.size() <= 3 * html.size() + kMaxInjectedBytes);
    check(output.contains("og:url"));
    return 0;
}
