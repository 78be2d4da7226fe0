#include "archivetestsupport.h"

#include "berthdprocess.h"
#include "common/residentsize.h"
#include "domain/deploy/deploymentlimits.h"
#include "domain/deploy/tarstream.h"
#include "enginefixture.h"
#include "httptestclient.h"
#include "postgrescluster.h"
#include "testcertificates.h"

#include <QDirIterator>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <sys/stat.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace berth::test {

// A ustar header block made by the test, for what tar(1) will not write here (devices, "..", absolute names).
QByteArray tarHeader(const QByteArray &name, char type, qint64 size)
{
    QByteArray block(512, '\0');
    const auto put = [&block](int offset, const QByteArray &value) {
        std::copy(value.begin(), value.end(), block.begin() + offset);
    };
    put(0, name.left(100));
    put(100, "0000644");
    put(108, "0000000");
    put(116, "0000000");
    put(124, QByteArray::number(size, 8).rightJustified(11, '0'));
    put(136, "00000000000");
    put(148, "        ");
    block[156] = type;
    put(257,
        QByteArray("ustar\0"
                   "00",
            8));
    int sum = 0;
    for (const char c : std::as_const(block))
        sum += static_cast<unsigned char>(c);
    put(148, QByteArray::number(sum, 8).rightJustified(6, '0') + '\0' + ' ');
    return block;
}

QByteArray tarPadding(qint64 size)
{
    return QByteArray((512 - size % 512) % 512, '\0');
}

QByteArray tarEntry(const QByteArray &name, const QByteArray &content, char type)
{
    return tarHeader(name, type, content.size()) + content + tarPadding(content.size());
}

// The bytes of `size` pseudo-random bytes, the same for the same seed, made in pieces.
QByteArray randomBytes(quint32 seed, qint64 size)
{
    QByteArray bytes(size, Qt::Uninitialized);
    QRandomGenerator generator(seed);
    generator.fillRange(reinterpret_cast<quint32 *>(bytes.data()), size / 4);
    for (qint64 i = size / 4 * 4; i < size; ++i)
        bytes[i] = char(generator.bounded(256));
    return bytes;
}

// A folder archived by tar(1) ("." and everything in it), with tar's own options (-z, --format=pax).
QByteArray tarOf(const QString &folder, const QStringList &options)
{
    QProcess tar;
    tar.start(u"tar"_s, options + QStringList {u"-C"_s, folder, u"-cf"_s, u"-"_s, u"."_s});
    if (!tar.waitForFinished(30000) || tar.exitCode() != 0)
        return {};
    return tar.readAllStandardOutput();
}

bool writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

int blobCount(const QString &dataDir)
{
    int count = 0;
    QDirIterator it(dataDir + u"/blobs"_s, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        if (!it.fileName().contains(u'.'))
            ++count; // variants (.gz, .br, .zst) and temporary files aside
    }
    return count;
}

// An upload over a raw socket: the head, then the body as `next` makes it, written while the server takes it (at most
// 256 KiB waiting in the socket) and stopped as soon as an answer arrives, as a client that reads while it sends.
// With caCert, over TLS to a server whose certificate that authority signed.
UploadReply upload(quint16 port, const QByteArray &method, const QByteArray &target, const QByteArray &key,
    const QByteArray &type, qint64 length, const std::function<QByteArray()> &next, const QString &caCert)
{
    UploadReply reply;
    QSslSocket socket;
    QByteArray received;
    QEventLoop loop;
    const auto answered = [&received] {
        const qsizetype end = received.indexOf("\r\n\r\n");
        if (end < 0)
            return false;
        const qsizetype at = received.toLower().indexOf("content-length:");
        const qint64 bodyLength
            = at < 0 ? 0 : received.mid(at + 15, received.indexOf("\r\n", at) - at - 15).trimmed().toLongLong();
        return received.size() >= end + 4 + bodyLength;
    };
    const auto pump = [&] {
        while (received.isEmpty() && reply.sent < length && socket.bytesToWrite() < 256 * 1024) {
            const QByteArray piece = next();
            if (piece.isEmpty())
                break;
            socket.write(piece);
            reply.sent += piece.size();
        }
    };
    QObject::connect(&socket, caCert.isEmpty() ? &QSslSocket::connected : &QSslSocket::encrypted, &loop, [&] {
        socket.write(method + ' ' + target + " HTTP/1.1\r\nHost: localhost:" + QByteArray::number(port)
            + "\r\nAuthorization: Bearer " + key + "\r\nContent-Type: " + type
            + "\r\nContent-Length: " + QByteArray::number(length) + "\r\n\r\n");
        pump();
    });
    QObject::connect(&socket, &QTcpSocket::bytesWritten, &loop, pump);
    QObject::connect(&socket, &QTcpSocket::readyRead, &loop, [&] {
        received += socket.readAll();
        if (answered())
            loop.quit();
    });
    QObject::connect(&socket, &QTcpSocket::disconnected, &loop, &QEventLoop::quit);
    QObject::connect(&socket, &QTcpSocket::errorOccurred, &loop, &QEventLoop::quit);
    QTimer sampler;
    QObject::connect(&sampler, &QTimer::timeout, &loop,
        [&reply] { reply.peakResidentKb = qMax(reply.peakResidentKb, residentKiB()); });
    sampler.start(10);
    QTimer::singleShot(180000, &loop, &QEventLoop::quit);
    // A small send buffer, so that what the client has sent is closer to what the server has taken.
    socket.setSocketOption(QAbstractSocket::SendBufferSizeSocketOption, 64 * 1024);
    if (caCert.isEmpty()) {
        socket.connectToHost(QHostAddress::LocalHost, port);
    } else {
        QSslConfiguration tls = socket.sslConfiguration();
        tls.setCaCertificates(QSslCertificate::fromPath(caCert));
        socket.setSslConfiguration(tls);
        socket.connectToHostEncrypted(u"localhost"_s, port);
    }
    loop.exec();
    reply.peakResidentKb = qMax(reply.peakResidentKb, residentKiB());
    received += socket.readAll();
    const qsizetype end = received.indexOf("\r\n\r\n");
    if (received.startsWith("HTTP/1.1 ") && end > 0) {
        reply.status = received.mid(9, 3).toInt();
        reply.body = received.mid(end + 4);
    }
    return reply;
}

// The whole body at once, in pieces of 64 KiB.
UploadReply upload(quint16 port, const QByteArray &method, const QByteArray &target, const QByteArray &key,
    const QByteArray &type, const QByteArray &body, const QString &caCert)
{
    qint64 at = 0;
    return upload(
        port, method, target, key, type, body.size(),
        [&body, &at] {
            const QByteArray piece = body.mid(at, 64 * 1024);
            at += piece.size();
            return piece;
        },
        caCert);
}

// An archive made while it is sent: files of these sizes of pseudo-random bytes, then the end blocks; the client
// never holds more than a piece of it.
std::function<QByteArray()> generatedArchive(const QList<qint64> &sizes, qint64 *length)
{
    *length = kTarEnd.size();
    for (const qint64 size : sizes)
        *length += 512 + size + tarPadding(size).size();
    struct State
    {
        int file = 0;
        qint64 left = -1; // of the current file's content; -1: its header is next
    };
    auto state = std::make_shared<State>();
    const int count = int(sizes.size());
    return [state, sizes, count]() -> QByteArray {
        const qint64 size = state->file < count ? sizes.at(state->file) : 0;
        if (state->file == count) {
            ++state->file;
            return kTarEnd;
        }
        if (state->file > count)
            return {};
        if (state->left < 0) {
            state->left = size;
            return tarHeader("data/file" + QByteArray::number(state->file) + ".bin", '0', size);
        }
        const qint64 piece = qMin<qint64>(state->left, 256 * 1024);
        QByteArray bytes = randomBytes(quint32(state->file * 100000 + state->left), piece);
        state->left -= piece;
        if (state->left == 0) {
            bytes += tarPadding(size);
            ++state->file;
            state->left = -1;
        }
        return bytes;
    };
}

ChildDatabase::ChildDatabase() = default;

ChildDatabase::~ChildDatabase()
{
    if (m_database)
        qunsetenv("BERTH_DATABASE");
}

bool ChildDatabase::create(QString *error)
{
    if (qEnvironmentVariable("BERTH_TEST_DATABASE") != u"postgresql"_s)
        return true;
    QString noCluster;
    m_database = PostgresTestDatabase::createInFixtureCluster(&noCluster, error);
    if (!m_database) {
        if (error->isEmpty())
            *error = noCluster;
        return false;
    }
    qputenv("BERTH_DATABASE", m_database->url().toUtf8());
    return true;
}

} // namespace berth::test
