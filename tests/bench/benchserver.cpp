// A tiny static file server over HttpService for tests/bench/serve-files.sh: files up to --memory-max bytes are
// served from memory, larger ones are streamed from disk. Not a product: no routing beyond exact paths. With --tls,
// HTTPS too on its own port (for tests/bench/https.sh).
//   berth_benchserver <directory> <port> [--memory-max BYTES] [--tls CERT KEY HTTPS_PORT]
#include <QCoreApplication>
#include <QDirIterator>
#include <QFile>
#include <QHash>
#include <cstdio>
#include <http/httpservice.h>
#include <http/requesthandler.h>
#include <http/tlscredentials.h>

using namespace berth;

namespace {

constexpr qint64 kDefaultMemoryMaxBytes = 1024 * 1024;

QByteArray contentTypeOf(const QString &path)
{
    if (path.endsWith(QLatin1String(".html")))
        return QByteArrayLiteral("text/html; charset=utf-8");
    if (path.endsWith(QLatin1String(".css")))
        return QByteArrayLiteral("text/css");
    if (path.endsWith(QLatin1String(".js")))
        return QByteArrayLiteral("text/javascript");
    return QByteArrayLiteral("application/octet-stream");
}

class FileHandler final : public RequestHandler
{
public:
    FileHandler(const QString &root, qint64 memoryMax)
    {
        QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString file = it.next();
            const QString urlPath = file.mid(root.size());
            Entry entry {contentTypeOf(file), {}, {}};
            QFile f(file);
            if (f.size() <= memoryMax && f.open(QIODevice::ReadOnly))
                entry.bytes = f.readAll();
            else
                entry.path = file;
            m_files.insert(urlPath, entry);
            if (urlPath.endsWith(QLatin1String("/index.html")))
                m_files.insert(urlPath.chopped(10), entry);
        }
    }

    void handle(const HttpRequest &request, ResponseSink sink) override
    {
        const auto it = m_files.constFind(request.path);
        if (it == m_files.constEnd() || (request.method != "GET" && request.method != "HEAD")) {
            sink.send(HttpResponse::jsonError(404, QStringLiteral("Not found")));
            return;
        }
        HttpResponse response;
        response.headers.append({QByteArrayLiteral("Content-Type"), it->contentType});
        if (it->path.isEmpty())
            response.body = it->bytes;
        else
            response.filePath = it->path;
        sink.send(response);
    }

    BodyLimit bodyLimit(const RequestHead &) const override { return {0, QStringLiteral("No bodies here")}; }

private:
    struct Entry
    {
        QByteArray contentType;
        QByteArray bytes;
        QString path;
    };
    QHash<QString, Entry> m_files;
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 3) {
        std::fprintf(
            stderr, "usage: berth_benchserver <directory> <port> [--memory-max BYTES] [--tls CERT KEY PORT]\n");
        return 2;
    }
    qint64 memoryMax = kDefaultMemoryMaxBytes;
    if (const qsizetype i = args.indexOf(QStringLiteral("--memory-max")); i > 0 && i + 1 < args.size())
        memoryMax = args.at(i + 1).toLongLong();
    FileHandler handler(QDir(args.at(1)).absolutePath(), memoryMax);
    HttpConfig config;
    config.maxConnections = 10000;
    HttpService service(handler, config);
    if (const qsizetype i = args.indexOf(QStringLiteral("--tls")); i > 0 && i + 3 < args.size()) {
        const Result<TlsCredentials> credentials = TlsCredentials::load(args.at(i + 1), args.at(i + 2));
        if (!credentials) {
            std::fprintf(stderr, "%s\n", qPrintable(credentials.error().message));
            return 1;
        }
        service.setTls(credentials.value().configuration, quint16(args.at(i + 3).toUInt()), false);
    }
    if (const Result<void> listening = service.listen(QHostAddress::LocalHost, quint16(args.at(2).toUInt()));
        !listening) {
        std::fprintf(stderr, "listen failed: %s\n", qPrintable(listening.error().message));
        return 1;
    }
    std::printf("berth_benchserver on 127.0.0.1:%u (HTTPS: %u)\n", service.serverPort(), service.httpsPort());
    std::fflush(stdout);
    return app.exec();
}
