// Feeds arbitrary bytes to parseDeployRequest as the body of POST /deploy or PUT /deploy/:id (the first byte picks
// which). Whatever it accepts must satisfy its own rules: validateDeployRequest() passes, file paths are already
// normalised, and a refusal is a 400 or 413 with a message. And LiftedContent, which parseDeployRequest reads the
// body through, reads it as Qt does: values lifted only when free of escapes, the skeleton as the body once they are
// put back (when they are all printable ASCII; otherwise parseDeployRequest parses the whole body).
#include "../common/liftedjson.h"
#include "fuzzcheck.h"

#include <domain/deploy/deployrequest.h>
#include <domain/deploy/filepath.h>

using namespace berth;
using berth::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const auto mode = data[0] & 1 ? DeployRequest::Mode::Update : DeployRequest::Mode::Create;
    const QByteArray body = fuzz::bytes(data + 1, size - 1);

    const LiftedContent lifted(body, 1); // values of any length, to reach the scan's corners with short inputs
    for (qsizetype i = 0; i < lifted.count(); ++i)
        check(!lifted.value(i).contains('"') && !lifted.value(i).contains('\\'));
    if (lifted.allText())
        check(test::skeletonReadsAsBody(lifted, body));

    const Result<DeployRequest> parsed = parseDeployRequest(body, mode);
    if (!parsed) {
        const Error &error = parsed.error();
        check(error.kind == Error::Kind::BadRequest || error.kind == Error::Kind::TooLarge);
        check(!error.message.isEmpty());
        return 0;
    }
    const DeployRequest &request = parsed.value();
    check(validateDeployRequest(request).ok());
    check(request.contentBytes() >= 0);
    if (mode == DeployRequest::Mode::Update)
        check(!request.slug.has_value());
    if (request.files) {
        for (const FileUpload &file : *request.files) {
            const Result<QString> path = FilePath::normalise(file.path);
            check(path.ok() && path.value() == file.path);
            check(!file.contentType.isEmpty());
        }
    }
    return 0;
}
