#include "publishfixture.h"

#include <QDir>
#include <QFile>

using namespace Qt::StringLiterals;

namespace berth::test {

namespace {
bool write(const QString &dir, const QString &path, const QByteArray &content)
{
    const QString full = dir + u'/' + path;
    QDir().mkpath(QFileInfo(full).absolutePath());
    QFile file(full);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}
} // namespace

bool writeProblemFolder(const QString &dir)
{
    // The secrets are assembled here so that the test sources themselves hold no literal key.
    const QByteArray keyBlock = "-----BEGIN " + QByteArray("RSA PRIVATE") + " KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA "
        + "PRIVATE KEY-----\n";
    const QByteArray awsKey = "AKIA" + QByteArray("Q3EXAMPLEKEY7ZZZ");
    return write(dir, u"home.html"_s,
               "<!doctype html><title>Home</title><link rel=stylesheet href=\"css/site.css\">"
               "<a href=\"about.html\">About</a> <a href=\"docs/\">Docs</a> <a href=\"#top\">Top</a>"
               "<a href=\"https://example.com/\">Elsewhere</a> <a href=\"mailto:me@example.com\">Mail</a>"
               "<img src=\"img/missing.png\" alt=\"\"><img src=\"img/hero.jpg\" alt=\"\">"
               "<script src=\"../outside.js\"></script><script src=\"js/app.js\"></script>")
        && write(dir, u"about.html"_s, "<p>About <a href=\"home\">home</a></p>")
        && write(dir, u"css/site.css"_s, "body { color: teal }")
        && write(dir, u"docs/index.html"_s, "<p>Docs <a href=\"../about.html\">about</a></p>")
        && write(dir, u"video/big.bin"_s, QByteArray(10 * 1024 * 1024 + 1, 'x'))
        && write(dir, u"img/hero.jpg"_s, QByteArray(3 * 1024 * 1024 / 2, '\xff'))
        && write(dir, u"config.env"_s, "DATABASE_PASSWORD=hunter2\n") && write(dir, u"keys/server.pem"_s, keyBlock)
        && write(dir, u"js/app.js"_s, "const key = '" + awsKey + "';\n");
}

QStringList problemFolderFindings()
{
    return {u"index.html"_s, u"img/missing.png"_s, u"../outside.js"_s, u"video/big.bin"_s, u"config.env"_s,
        u"keys/server.pem"_s, u"js/app.js"_s, u"img/hero.jpg"_s};
}

} // namespace berth::test
