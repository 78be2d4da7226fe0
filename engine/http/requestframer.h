#pragma once

#include "http/httpconfig.h"
#include "http/httprequest.h"

#include <QByteArray>
#include <QByteArrayView>

namespace berth {

// A request head as framed from the raw bytes.
struct FramedHead
{
    QByteArray method;
    QByteArray target; // raw request-target
    int minorVersion = 1; // HTTP/1.minorVersion
    HttpHeaders headers; // names lower-cased, arrival order; several Cookie fields joined into one with "; "
    QByteArray host; // raw Host value (empty when absent)
    qint64 contentLength = 0;
    bool keepAlive = true;
    bool expectContinue = false;
};

// Frames HTTP/1.1 requests from a byte stream: feed bytes, read heads, body boundaries and errors. Strict: anything
// QtHttpServer could read differently (bare LF, obs-fold, ambiguous lengths, chunked bodies) is refused, so that the
// framer and QtHttpServer always agree on where a request ends. Requests with an Upgrade header are refused (501):
// QtHttpServer 6.4 replays them (the handler runs twice, the next pipelined request is lost), and Berth speaks no
// other protocol to upgrade to. No sockets: fuzzed and unit-tested alone.
class RequestFramer final
{
public:
    enum class State
    {
        Head, // reading a request head
        HeadComplete, // head() is valid; call beginBody()
        Body, // reading bodyRemaining() more body bytes
        MessageComplete, // call reset() for the next request
        Failed, // errorStatus() / errorMessage() say why; the connection must close
    };

    RequestFramer() = default;
    Q_DISABLE_COPY_MOVE(RequestFramer)

    // Consumes bytes of the current head or body and returns how many it took. Stops at a state change, so
    // bytes past the end of a head or body are left to the caller.
    qsizetype feed(QByteArrayView bytes);
    void beginBody();
    void reset();

    State state() const { return m_state; }
    const FramedHead &head() const { return m_head; }
    FramedHead takeHead();
    qsizetype headBytes() const { return m_headBytes; } // head size on the wire, leading empty lines included
    qint64 bodyRemaining() const { return m_bodyRemaining; }
    int errorStatus() const { return m_errorStatus; }
    const char *errorMessage() const { return m_errorMessage; }

    static bool isToken(QByteArrayView text);

private:
    qsizetype feedHead(QByteArrayView bytes);
    void processLine(QByteArrayView line);
    void parseRequestLine(QByteArrayView line);
    void parseHeaderLine(QByteArrayView line);
    void finishHead();
    void fail(int status, const char *message);

    State m_state = State::Head;
    FramedHead m_head;
    QByteArray m_line; // the current partial line
    qsizetype m_headBytes = 0;
    qint64 m_bodyRemaining = 0;
    bool m_haveRequestLine = false;
    int m_hostCount = 0;
    int m_fieldCount = 0; // every field line, also those joined into one (Cookie)
    qsizetype m_cookieField = -1; // index in m_head.headers of the joined Cookie field
    bool m_upgrade = false;
    int m_contentLengthCount = 0;
    QByteArray m_contentLength;
    QByteArray m_transferEncoding;
    QByteArray m_connection;
    QByteArray m_expect;
    int m_errorStatus = 0;
    const char *m_errorMessage = "";
};

} // namespace berth
