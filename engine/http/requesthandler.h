#pragma once

#include "http/httpresponse.h"

#include <QMutex>
#include <QPointer>

QT_BEGIN_NAMESPACE
class QThread;
QT_END_NAMESPACE

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace berth {

// A serving thread's post box: the object on that thread that stays alive for as long as the thread serves (its
// front door). Responses made on other threads are posted through it; once the thread stops serving, closed()
// makes every later post a no-op instead of a post to a deleted object.
class ThreadMailbox final
{
public:
    explicit ThreadMailbox(QObject *anchor)
        : m_anchor(anchor)
    {
    }
    Q_DISABLE_COPY_MOVE(ThreadMailbox)

    // Runs task on the anchor's thread (queued), unless the mailbox is closed. Callable from any thread.
    void post(std::function<void()> task);
    void close();

private:
    // A std::mutex, not a QMutex: the receiving thread takes it too before it runs a task, so that ThreadSanitizer
    // sees the hand-over (Qt's locks and event queue are invisible to it). Uncontended, it costs an atomic each.
    std::mutex m_mutex;
    QObject *m_anchor;
};

// Where a handler sends its one response: at once, or later from any thread (after worker or engine-thread work);
// a send from another thread is carried to the connection's thread. Copyable. Only the first send counts; sending
// after the client left is a harmless no-op.
class ResponseSink
{
public:
    using SendFunction = std::function<void(HttpResponse)>;

    ResponseSink(QObject *connection, std::shared_ptr<ThreadMailbox> mailbox, SendFunction send);
    // For a long-lived object answered only on its own thread (the MCP controller's inner calls): it is the context.
    ResponseSink(QObject *owner, SendFunction send);

    void send(HttpResponse response) const;
    // Whether the client is still there; on the connection's thread only.
    bool isConnected() const;
    // The object to continue on after asynchronous work, e.g. QFuture::then(sink.context(), ...): the long-lived
    // object a dispatcher named with continueOn() (the engine thread's), or the owner given to the constructor. Null
    // for a request answered on its serving thread: its continuations take no context, since send() may be called
    // from any thread. Never the connection: a client may leave while the work runs, and Qt 6.4's
    // QFuture::then(context) does not cope with a context destroyed before the future finishes.
    QObject *context() const;
    // Names the object on whose thread a handler's continuations should run (the engine thread's, for handlers
    // that were carried there).
    void continueOn(QObject *context);
    // Shows the response to observer on the connection's thread just before it is written (what a handler counts
    // of its answers, e.g. page views). Set by the handler before the first send; one observer per request.
    using Observer = std::function<void(const HttpResponse &)>;
    void observe(Observer observer) { m_state->observer = std::move(observer); }

private:
    struct State
    {
        QPointer<QObject> connection; // read on the connection's thread only
        QThread *connectionThread = nullptr; // serving threads outlive every sink
        QObject *context = nullptr;
        std::shared_ptr<ThreadMailbox> mailbox;
        SendFunction send;
        Observer observer;
        std::atomic<bool> sent {false};
    };
    std::shared_ptr<State> m_state;
};

// The one interface the HTTP core calls. Implemented by the dispatcher; tests implement it too.
class RequestHandler
{
public:
    virtual ~RequestHandler() = default;

    // Called on the connection's thread (one of the serving threads). Must lead to exactly one sink.send(), now or
    // later, from any thread; the connection holds back later pipelined requests until then.
    virtual void handle(const HttpRequest &request, ResponseSink sink) = 0;

    // What the front door needs to know of a request whose head has arrived, before any body byte is read: its
    // body limit, and whether it may take a large body at all (a route that needs a key refuses an unauthenticated
    // upload from its headers). Called on the serving thread: must not wait.
    virtual BodyLimit bodyLimit(const RequestHead &head) const = 0;
    // The 413 for a body over bodyLimit(head), sent before any of it is read (a browser's form post may get a page).
    // Called on a serving thread: must not wait.
    virtual HttpResponse tooLarge(const RequestHead &head, const BodyLimit &limit) const;

    // For a request whose BodyLimit needs authorization and whose body is large: decides from the head whether the
    // caller may send it, before a byte of it is read. done(std::nullopt) lets the body in; done(refusal) answers
    // with that response (a 401 with its WWW-Authenticate) and closes. May answer later and from any thread. The
    // default lets everything in.
    using AuthorizationDone = std::function<void(std::optional<HttpResponse> refusal)>;
    virtual void authorizeUpload(const RequestHead & /*head*/, AuthorizationDone done) { done(std::nullopt); }
};

} // namespace berth

namespace berth {

// Runs task on the thread of context (an object that outlives the task's sender): at once when the caller is
// already there, queued otherwise. How serving threads hand work that must not run on them (SQL) to the engine.
void runOnThreadOf(QObject *context, std::function<void()> task);

} // namespace berth
