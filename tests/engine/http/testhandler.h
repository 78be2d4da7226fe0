#pragma once

#include <QList>
#include <QSemaphore>
#include <QString>
#include <atomic>
#include <http/requesthandler.h>
#include <optional>

namespace berth::test {

// A RequestHandler for the socket tests: counts calls and answers by path.
//   /            200 "hello"                      /echo      the request body back
//   /file        streams filePath (set by test)   /slow      answers from a worker thread after `gate` opens
//   /later       keeps the sink for the test      /204 /304  bodiless statuses
//   /headers     duplicate and case-twin headers, a handler-set Content-Length, and a 405 Allow
//   /upload      body limit 1000 bytes with its own message; anything else: defaultLimit
class TestHandler final : public RequestHandler
{
public:
    TestHandler() = default;
    Q_DISABLE_COPY_MOVE(TestHandler)

    void handle(const HttpRequest &request, ResponseSink sink) override;
    BodyLimit bodyLimit(const RequestHead &head) const override;

    int calls = 0;
    QList<QString> paths; // in the order handled
    HttpRequest last;
    QString filePath;
    qint64 defaultLimit = 10 * 1024 * 1024;
    std::optional<ResponseSink> laterSink;
    QSemaphore gate; // /slow waits for a release()
    std::atomic<int> workersDone {0}; // /slow workers that finished their work
    std::atomic<int> continuations {0}; // /slow continuations that ran on the connection's thread
};

} // namespace berth::test
