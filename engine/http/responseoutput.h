#pragma once

#include "http/httpresponse.h"

#include <memory>

QT_BEGIN_NAMESPACE
class QAbstractSocket;
QT_END_NAMESPACE

namespace berth {

class FileStreamer;
class ResponseWriter;

// Puts one response on a connection's socket: the head and a small in-memory body in one write, a large body queued
// by reference, or a file streamed in pieces as the client takes them (see FileStreamer). The connection's guard
// decides when; this only knows how.
class ResponseOutput final
{
public:
    enum class Progress
    {
        Done, // everything is queued on the socket
        Streaming, // a file is still being sent: call pump() as the client takes bytes
        Failed, // a file could not be read any more: the response is broken, drop the connection
    };

    // zeroCopy: files may go with sendfile(2) (a plain TCP socket; not under TLS).
    ResponseOutput(QAbstractSocket &socket, bool zeroCopy);
    ~ResponseOutput();
    Q_DISABLE_COPY_MOVE(ResponseOutput)

    // Writes the response; headOnly sends the head a GET would get. A file that cannot be opened is answered 500.
    Progress start(ResponseWriter &writer, HttpResponse response, bool keepAlive, bool headOnly);
    Progress pump();
    // Drops the file being streamed, if any (the connection is closing).
    void reset();
    // The last response start() wrote: its status and the bytes it puts on the wire, head included (a streamed
    // file counted whole).
    int sentStatus() const { return m_sentStatus; }
    qint64 sentBytes() const { return m_sentBytes; }

private:
    // A large file's head and bytes go corked (TCP_CORK), as whole segments only, the head in the first of them; the
    // connection has TCP_NODELAY, which would send each write's and sendfile call's last piece alone.
    void setCorked(bool corked);

    QAbstractSocket &m_socket;
    std::unique_ptr<FileStreamer> m_streamer;
    const bool m_zeroCopy;
    int m_sentStatus = 0;
    qint64 m_sentBytes = 0;
    bool m_corked = false;
};

} // namespace berth
