#pragma once

// What the archive deploy suites share: tar entries made by hand (for what tar(1) will not write), archives made by
// tar(1), uploads over a raw socket written while the server takes them (with the engine's largest resident size
// meanwhile, common/residentsize.h), and the blob count.
#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>

namespace berth::test {

class PostgresTestDatabase;

// A ustar header block made by the test, for what tar(1) will not write here (devices, "..", absolute names).
QByteArray tarHeader(const QByteArray &name, char type, qint64 size);
QByteArray tarPadding(qint64 size); // zeros to the next 512-byte block
QByteArray tarEntry(const QByteArray &name, const QByteArray &content, char type = '0');
inline const QByteArray kTarEnd(1024, '\0');
// The bytes of `size` pseudo-random bytes, the same for the same seed.
QByteArray randomBytes(quint32 seed, qint64 size);
// A folder archived by tar(1) ("." and everything in it), with tar's own options (-z, --format=pax).
QByteArray tarOf(const QString &folder, const QStringList &options = {});
bool writeFile(const QString &path, const QByteArray &content);
int blobCount(const QString &dataDir); // blobs in the folder, variants and temporary files aside

struct UploadReply
{
    int status = 0; // 0: no response
    QByteArray body;
    qint64 sent = 0; // body bytes the client had written when the answer came
    qint64 peakResidentKb = 0; // this process's (the engine's) largest resident size meanwhile

    QString error() const { return QJsonDocument::fromJson(body).object().value(QStringLiteral("error")).toString(); }
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
};

// An upload over a raw socket: the head, then the body as `next` makes it, written while the server takes it (at most
// 256 KiB waiting in the socket) and stopped as soon as an answer arrives, as a client that reads while it sends.
// With caCert, over TLS to a server whose certificate that authority signed.
UploadReply upload(quint16 port, const QByteArray &method, const QByteArray &target, const QByteArray &key,
    const QByteArray &type, qint64 length, const std::function<QByteArray()> &next, const QString &caCert = {});
// The whole body at once, in pieces of 64 KiB.
UploadReply upload(quint16 port, const QByteArray &method, const QByteArray &target, const QByteArray &key,
    const QByteArray &type, const QByteArray &body, const QString &caCert = {});
// An archive made while it is sent: files of these sizes of pseudo-random bytes, then the end blocks; the client
// never holds more than a piece of it.
std::function<QByteArray()> generatedArchive(const QList<qint64> &sizes, qint64 *length);

// The database of the berthd processes a test starts: on the suite's PostgreSQL run (BERTH_TEST_DATABASE=postgresql)
// a fresh one in the CTest fixture's cluster, named to them (and to `berthd key create`) by BERTH_DATABASE while this
// lives; on the SQLite runs none, and they keep SQLite in their data folder.
class ChildDatabase
{
    Q_DISABLE_COPY_MOVE(ChildDatabase)
public:
    ChildDatabase();
    ~ChildDatabase();
    bool create(QString *error); // false with the reason when the PostgreSQL run has no database to give
    bool onPostgres() const { return m_database != nullptr; }

private:
    std::unique_ptr<PostgresTestDatabase> m_database;
};

} // namespace berth::test
