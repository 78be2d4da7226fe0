#include "app/berthd/client/archivebody.h"

#include "domain/deploy/folderreader.h"

#include <QUrl>

using namespace Qt::StringLiterals;

namespace berth::ArchiveBody {

namespace {

constexpr qsizetype kBlock = 512;
constexpr qsizetype kNameBytes = 100;

void put(QByteArray &block, qsizetype offset, const QByteArray &value)
{
    std::copy(value.begin(), value.end(), block.begin() + offset);
}

QByteArray octal(qint64 value, int digits)
{
    return QByteArray::number(value, 8).rightJustified(digits, '0');
}

QByteArray header(const QByteArray &name, char type, qint64 size)
{
    QByteArray block(kBlock, '\0');
    put(block, 0, name.left(kNameBytes));
    put(block, 100, "0000644");
    put(block, 108, "0000000");
    put(block, 116, "0000000");
    put(block, 124, octal(size, 11));
    put(block, 136, "00000000000");
    put(block, 148, "        "); // the checksum counts its own field as spaces
    block[156] = type;
    put(block, 257,
        QByteArrayLiteral("ustar\0"
                          "00"));
    qint64 sum = 0;
    for (const char c : std::as_const(block))
        sum += static_cast<unsigned char>(c);
    put(block, 148, octal(sum, 6) + '\0' + ' ');
    return block;
}

void appendEntry(QByteArray &tar, const QByteArray &name, char type, const QByteArray &content)
{
    tar += header(name, type, content.size());
    tar += content;
    tar += QByteArray((kBlock - content.size() % kBlock) % kBlock, '\0');
}

// A pax record "<length> path=<value>\n", whose length counts its own digits.
QByteArray paxPath(const QByteArray &path)
{
    const QByteArray rest = " path=" + path + '\n';
    qsizetype length = rest.size() + 1;
    while (QByteArray::number(length).size() + rest.size() != length)
        ++length;
    return QByteArray::number(length) + rest;
}

} // namespace

Result<QByteArray> tarOf(const FolderContent &folder)
{
    const QList<FileUpload> &files = *folder.content.files;
    QByteArray tar;
    tar.reserve(folder.totalBytes + files.size() * 3 * kBlock + 2 * kBlock);
    for (qsizetype i = 0; i < files.size(); ++i) {
        const Result<QByteArray> content = FolderReader::contentOf(folder, i);
        if (!content)
            return content.error();
        const QByteArray path = files.at(i).path.toUtf8();
        if (path.size() > kNameBytes)
            appendEntry(tar, "PaxHeader", 'x', paxPath(path));
        appendEntry(tar, path, '0', content.value());
    }
    tar += QByteArray(2 * kBlock, '\0');
    return tar;
}

std::optional<QString> queryOf(const QJsonObject &fields)
{
    QStringList pairs;
    for (auto it = fields.begin(); it != fields.end(); ++it) {
        QString value;
        if (it.key() == u"password")
            return std::nullopt;
        if (it.value().isString())
            value = it.value().toString();
        else if (it.value().isBool())
            value = it.value().toBool() ? u"true"_s : u"false"_s;
        else if (it.value().isDouble())
            value = QString::number(it.value().toInteger());
        else
            return std::nullopt;
        pairs.append(it.key() + u'=' + QString::fromLatin1(QUrl::toPercentEncoding(value)));
    }
    return pairs.join(u'&');
}

} // namespace berth::ArchiveBody
