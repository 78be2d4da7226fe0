#include "api/archiveupload.h"

#include "domain/deploy/archiveintake.h"
#include "domain/deploy/deploymentservice.h"
#include "http/formencoding.h"
#include "http/requestbodystream.h"

#include <QFuture>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace berth::ArchiveUpload {

namespace {

// The request body as the domain's archive source.
class BodySource final : public ArchiveSource
{
public:
    explicit BodySource(std::shared_ptr<RequestBodyStream> body)
        : m_body(std::move(body))
    {
    }

    QByteArray take() override { return m_body->take(); }
    State state() const override
    {
        switch (m_body->state()) {
        case RequestBodyStream::State::Open:
            return State::Open;
        case RequestBodyStream::State::Complete:
            return State::Complete;
        case RequestBodyStream::State::Failed:
            break;
        }
        return State::Failed;
    }
    void whenReadable(std::function<void()> wake) override { m_body->whenReadable(std::move(wake)); }
    void stop() override { m_body->stop(); }

private:
    std::shared_ptr<RequestBodyStream> m_body;
};

// The query's fields as the JSON body would carry them: booleans and numbers where those names take them, so that
// parseDeployFields() applies the JSON deploy's names, types and rules.
QJsonObject fieldsOf(const FormFields &query)
{
    static const QStringList booleans {
        u"is_spa"_s, u"protect"_s, u"remove_password"_s, u"rotate_share_link"_s, u"publish"_s};
    QJsonObject fields;
    for (const auto &[name, value] : query) {
        if (booleans.contains(name) && (value == u"true" || value == u"false"))
            fields.insert(name, value == u"true");
        else if (name == u"expires_in" && !value.isEmpty() && value.toLongLong() > 0)
            fields.insert(name, value.toLongLong());
        else
            fields.insert(name, value);
    }
    return fields;
}

ArchiveInput inputOf(const ApiCall &call)
{
    const QByteArray type = call.request.header("content-type").split(';').first().trimmed().toLower();
    return {std::make_shared<BodySource>(call.request.bodyStream),
        type == "application/x-tar" ? ArchiveStaging::Compression::None : ArchiveStaging::Compression::Gzip};
}

QFuture<Result<Deployment>> refused(const ApiCall &call, const Error &error)
{
    call.request.bodyStream->stop(); // nothing of it will be read
    return QtFuture::makeReadyFuture(Result<Deployment>(error));
}

Result<DeployRequest> fieldsFor(const ApiCall &call, DeployRequest::Mode mode)
{
    const FormFields query = parseUrlEncoded(call.request.query);
    if (!formValue(query, u"password"_s).isNull())
        return Error {Error::Kind::BadRequest, passwordInQueryMessage()};
    return parseDeployFields(fieldsOf(query), mode);
}

} // namespace

QByteArrayList mediaTypes()
{
    return {"application/x-tar", "application/gzip", "application/x-gzip"};
}

QString passwordInQueryMessage()
{
    return u"password cannot be sent in the query string of an archive upload; set it afterwards with a JSON "
           u"PUT /deploy/:id"_s;
}

QFuture<Result<Deployment>> create(DeploymentService &service, const ApiCall &call)
{
    Result<DeployRequest> fields = fieldsFor(call, DeployRequest::Mode::Create);
    if (!fields)
        return refused(call, fields.error());
    return service.createFromArchive(call.user, std::move(fields).value(), inputOf(call));
}

QFuture<Result<Deployment>> update(DeploymentService &service, const ApiCall &call)
{
    Result<DeployRequest> fields = fieldsFor(call, DeployRequest::Mode::Update);
    if (!fields)
        return refused(call, fields.error());
    return service.updateFromArchive(call.user, call.params.at(0), std::move(fields).value(), inputOf(call));
}

} // namespace berth::ArchiveUpload
