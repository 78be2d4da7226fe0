#include "qrscan.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace berth::test::QrScan {

std::optional<QString> decodeFile(const QString &path)
{
    const QString zbarimg = QStandardPaths::findExecutable(u"zbarimg"_s);
    if (zbarimg.isEmpty()) {
        qWarning("zbarimg is not installed (Debian package zbar-tools)");
        return std::nullopt;
    }
    QProcess process;
    // --raw: the data only; -Sdisable -Sqrcode.enable: only QR codes count, so a stray barcode cannot pass.
    process.start(zbarimg, {u"--quiet"_s, u"--raw"_s, u"-Sdisable"_s, u"-Sqrcode.enable"_s, path});
    if (!process.waitForFinished(30000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        qWarning("zbarimg found no QR code: %s", process.readAllStandardError().constData());
        return std::nullopt;
    }
    QString text = QString::fromUtf8(process.readAllStandardOutput());
    if (text.endsWith(u'\n'))
        text.chop(1); // zbarimg ends each result with a newline
    if (text.contains(u'\n'))
        return std::nullopt;
    return text;
}

std::optional<QString> decodeHalfBlocks(const QString &text, int pixelsPerModule)
{
    // The code's lines: only blocks and spaces (each character is one module wide and two tall).
    QList<QString> lines;
    for (const QString &line : text.split(u'\n')) {
        const bool blocks = !line.isEmpty() && std::all_of(line.begin(), line.end(), [](QChar c) {
            return c == u' ' || c == QChar(0x2588) || c == QChar(0x2580) || c == QChar(0x2584);
        });
        if (blocks && !line.trimmed().isEmpty())
            lines.append(line);
    }
    if (lines.isEmpty())
        return std::nullopt;
    const int width = int(lines.first().size());
    const int height = int(lines.size()) * 2;
    // A plain PBM (P1): 1 is black. Light modules (the drawn halves) are white.
    QByteArray pbm = "P1\n" + QByteArray::number(width * pixelsPerModule) + ' '
        + QByteArray::number(height * pixelsPerModule) + '\n';
    for (int row = 0; row < height; ++row) {
        const QString &line = lines.at(row / 2);
        QByteArray pixels;
        for (int x = 0; x < width; ++x) {
            const QChar c = x < line.size() ? line.at(x) : u' ';
            const bool upper = row % 2 == 0;
            const bool light = c == QChar(0x2588) || (upper ? c == QChar(0x2580) : c == QChar(0x2584));
            for (int i = 0; i < pixelsPerModule; ++i)
                pixels += light ? "0 " : "1 ";
        }
        pixels += '\n';
        for (int i = 0; i < pixelsPerModule; ++i)
            pbm += pixels;
    }
    QTemporaryDir dir;
    const QString path = dir.filePath(u"code.pbm"_s);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(pbm) != pbm.size())
        return std::nullopt;
    file.close();
    return decodeFile(path);
}

} // namespace berth::test::QrScan
