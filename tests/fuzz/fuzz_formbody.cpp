// Form bodies as the site's /_submit endpoint reads them: application/x-www-form-urlencoded (the whole input) and
// multipart/form-data (a Content-Type line, then the body). Besides sanitizer reports it checks what the parsers
// promise: urlencoded names and values carry no undecoded '+', a multipart part is never larger than the body,
// and parsing the same bytes twice gives the same result.
#include "fuzzcheck.h"

#include <http/formencoding.h>
#include <http/multipartform.h>

using namespace berth;
using berth::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray input = fuzz::bytes(data, size);

    const FormFields fields = parseUrlEncoded(input);
    check(fields.size() <= input.count('&') + 1);
    // A literal '+' is a space; a '+' can only come out of a percent escape (QByteArray::fromPercentEncoding reads
    // invalid escapes such as "%rB" as hex digits too, so any escape may give one).
    if (!input.contains('%')) {
        for (const auto &[name, value] : fields)
            check(!name.contains(u'+') && !value.contains(u'+'));
    }
    if (!fields.isEmpty())
        check(formValue(fields, fields.first().first) == fields.first().second);

    const auto [contentType, body] = fuzz::splitFirstLine(input);
    const std::optional<QList<MultipartPart>> parts = parseMultipartForm(contentType, body);
    if (parts) {
        for (const MultipartPart &part : *parts) {
            check(part.content.size() <= body.size());
        }
        const std::optional<QList<MultipartPart>> again = parseMultipartForm(contentType, body);
        check(again && again->size() == parts->size());
    }
    return 0;
}
