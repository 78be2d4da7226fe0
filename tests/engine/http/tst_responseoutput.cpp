// ResponseOutput over a real loopback connection: a large file sent with sendfile goes corked (TCP_CORK) together with
// its head, and the cork comes off once the file is sent or dropped; a small file and a HEAD are never corked.
#include "http/httpresponse.h"
#include "http/responseoutput.h"
#include "http/responsewriter.h"

#include <QFile>
#include <QRandomGenerator>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <memory>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

using namespace berth;
using namespace Qt::StringLiterals;

namespace {

// More than loopback's send and receive buffers hold together: the stream cannot be queued at once.
constexpr qsizetype kLargeBytes = 32 * 1024 * 1024;

bool isCorked(const QAbstractSocket &socket)
{
    int value = 0;
    socklen_t size = sizeof(value);
    return ::getsockopt(int(socket.socketDescriptor()), IPPROTO_TCP, TCP_CORK, &value, &size) == 0 && value != 0;
}

QByteArray contentOf(qsizetype size)
{
    QByteArray data(size, Qt::Uninitialized);
    QRandomGenerator generator(7);
    for (qsizetype i = 0; i < size; ++i)
        data[i] = char(generator.bounded(256));
    return data;
}

} // namespace

class TestResponseOutput final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_listener = std::make_unique<QTcpServer>();
        QVERIFY(m_listener->listen(QHostAddress::LocalHost, 0));
        m_client = std::make_unique<QTcpSocket>();
        // The client takes little until told to read: the server's send buffer fills and the file keeps streaming.
        m_client->setReadBufferSize(64 * 1024);
        m_client->connectToHost(QHostAddress::LocalHost, m_listener->serverPort());
        QVERIFY(m_client->waitForConnected(5000));
        QTRY_VERIFY(m_listener->hasPendingConnections());
        m_served.reset(m_listener->nextPendingConnection());
        m_served->setParent(nullptr);
        m_served->setSocketOption(QAbstractSocket::LowDelayOption, 1); // as every served connection has
    }
    void cleanup()
    {
        m_client.reset();
        m_served.reset();
        m_listener.reset();
    }

    void aLargeFileGoesCorkedWithItsHeadAndUncorkedAtItsEnd()
    {
        const QByteArray content = contentOf(kLargeBytes);
        ResponseWriter writer("test");
        ResponseOutput output(*m_served, true);
        ResponseOutput::Progress progress = output.start(writer, fileResponse(content), true, false);
        QCOMPARE(progress, ResponseOutput::Progress::Streaming);
        QVERIFY(isCorked(*m_served));

        connect(m_served.get(), &QTcpSocket::bytesWritten, this, [&] {
            if (progress == ResponseOutput::Progress::Streaming)
                progress = output.pump();
        });
        m_client->setReadBufferSize(0);
        QByteArray received;
        connect(m_client.get(), &QTcpSocket::readyRead, this, [&] { received += m_client->readAll(); });
        received += m_client->readAll();
        QTRY_COMPARE_WITH_TIMEOUT(progress, ResponseOutput::Progress::Done, 30000);
        QVERIFY(!isCorked(*m_served));
        const qsizetype headEnd = received.indexOf("\r\n\r\n") + 4;
        QVERIFY(headEnd >= 4);
        QTRY_COMPARE_WITH_TIMEOUT(received.size(), headEnd + content.size(), 30000);
        QVERIFY(received.startsWith("HTTP/1.1 200 "));
        QVERIFY(received.mid(headEnd) == content);
    }

    void aDroppedStreamLeavesNoCork()
    {
        ResponseWriter writer("test");
        ResponseOutput output(*m_served, true);
        QCOMPARE(output.start(writer, fileResponse(contentOf(kLargeBytes)), true, false),
            ResponseOutput::Progress::Streaming);
        QVERIFY(isCorked(*m_served));
        output.reset();
        QVERIFY(!isCorked(*m_served));
    }

    void smallFilesHeadsAndTlsAreNeverCorked()
    {
        ResponseWriter writer("test");
        {
            ResponseOutput output(*m_served, true);
            output.start(writer, fileResponse(contentOf(100 * 1024)), true, false);
            QVERIFY(!isCorked(*m_served));
        }
        {
            ResponseOutput output(*m_served, true);
            QCOMPARE(
                output.start(writer, fileResponse(contentOf(kLargeBytes)), true, true), ResponseOutput::Progress::Done);
            QVERIFY(!isCorked(*m_served));
        }
        {
            ResponseOutput output(*m_served, false); // pieces through Qt, as under TLS
            output.start(writer, fileResponse(contentOf(kLargeBytes)), true, false);
            QVERIFY(!isCorked(*m_served));
            output.reset();
        }
    }

private:
    HttpResponse fileResponse(const QByteArray &content)
    {
        const QString path = m_dir.filePath(u"file-%1"_s.arg(++m_files));
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size())
            qFatal("cannot write the test file");
        HttpResponse response;
        response.status = 200;
        response.filePath = path;
        return response;
    }

    QTemporaryDir m_dir;
    int m_files = 0;
    std::unique_ptr<QTcpServer> m_listener;
    std::unique_ptr<QTcpSocket> m_client;
    std::unique_ptr<QTcpSocket> m_served;
};

QTEST_GUILESS_MAIN(TestResponseOutput)
#include "tst_responseoutput.moc"
