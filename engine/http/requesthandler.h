#pragma once

#include "httpresponse.h"

#include <QPointer>

#include <functional>
#include <memory>

namespace berth {

// Where a handler sends its one response: at once, or later (after worker-thread work) from the
// thread the connection lives on. Copyable. Only the first send counts; sending after the client
// left is a harmless no-op.
class ResponseSink
{
public:
    using SendFunction = std::function<void(HttpResponse)>;

    ResponseSink(QObject *connection, SendFunction send);

    void send(HttpResponse response) const;
    bool isConnected() const;
    // An object on the connection's thread that is destroyed with the connection: the context to
    // continue on, e.g. QFuture::then(sink.context(), ...).
    QObject *context() const;

private:
    struct State
    {
        QPointer<QObject> connection;
        SendFunction send;
        bool sent = false;
    };
    std::shared_ptr<State> m_state;
};

// The one interface the HTTP core calls. Implemented by the dispatcher; tests implement it too.
class RequestHandler
{
public:
    virtual ~RequestHandler() = default;

    // Called on the connection's thread. Must lead to exactly one sink.send(), now or later; the
    // connection holds back later pipelined requests until then.
    virtual void handle(const HttpRequest &request, ResponseSink sink) = 0;

    // The body limit for a request whose head has arrived; asked before any body byte is read.
    virtual BodyLimit bodyLimit(const RequestHead &head) const = 0;
};

} // namespace berth
