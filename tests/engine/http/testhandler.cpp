#include "testhandler.h"

#include <QFuture>
#include <QtConcurrentRun>

namespace berth::test {

using namespace Qt::StringLiterals;

void TestHandler::handle(const HttpRequest &request, ResponseSink sink)
{
    ++calls;
    paths.append(request.path);
    last = request;
    const QString &path = request.path;
    if (path == "/echo"_L1) {
        sink.send(HttpResponse::bytes(200, "application/octet-stream", request.body));
    } else if (path == "/file"_L1) {
        HttpResponse response;
        response.setHeader("Content-Type", "application/octet-stream");
        response.filePath = filePath;
        sink.send(response);
    } else if (path == "/slow"_L1) {
        QtConcurrent::run([this] {
            gate.acquire();
            ++workersDone;
            return QByteArrayLiteral("slow done");
        }).then([this, sink](const QByteArray &body) { // on the worker: send() carries the answer over
            ++continuations;
            sink.send(HttpResponse::bytes(200, "text/plain", body));
        });
    } else if (path == "/later"_L1) {
        laterSink = sink;
    } else if (path == "/204"_L1) {
        sink.send(HttpResponse::bytes(204, "text/plain", {}));
    } else if (path == "/304"_L1) {
        HttpResponse response;
        response.status = 304;
        response.setHeader("ETag", "\"x\"");
        sink.send(response);
    } else if (path == "/headers"_L1) {
        HttpResponse response = HttpResponse::bytes(405, "text/plain", "no");
        response.headers.append(qMakePair(QByteArray("Allow"), QByteArray("GET, HEAD")));
        response.headers.append(qMakePair(QByteArray("x-twin"), QByteArray("1")));
        response.headers.append(qMakePair(QByteArray("X-Twin"), QByteArray("2")));
        response.headers.append(qMakePair(QByteArray("Content-Length"), QByteArray("999")));
        response.headers.append(qMakePair(QByteArray("Set-Cookie"), QByteArray("a=1")));
        response.headers.append(qMakePair(QByteArray("Set-Cookie"), QByteArray("b=2")));
        response.headers.append(qMakePair(QByteArray("X-Evil"), QByteArray("a\r\nInjected: yes")));
        sink.send(response);
    } else {
        sink.send(HttpResponse::bytes(200, "text/plain", "hello"));
    }
}

BodyLimit TestHandler::bodyLimit(const RequestHead &head) const
{
    if (head.target.startsWith("/upload"))
        return {1000, u"Upload exceeds the 1000 byte limit"_s};
    return {defaultLimit, {}};
}

} // namespace berth::test
