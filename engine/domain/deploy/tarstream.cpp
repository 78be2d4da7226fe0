#include "domain/deploy/tarstream.h"

#include <QStringList>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

constexpr qsizetype kBlock = 512;
// A file's content is reserved up to this at its header; beyond, it grows as it arrives.
constexpr qint64 kMaxReserveBytes = 16 * 1024 * 1024;

Error badRequest(const QString &message)
{
    return {Error::Kind::BadRequest, message};
}

Error damaged()
{
    return badRequest(u"The body is not a tar archive, or the archive is damaged"_s);
}

// A field of a header block, up to its first NUL.
QByteArrayView field(const QByteArray &block, qsizetype offset, qsizetype length)
{
    const QByteArrayView view(block.constData() + offset, length);
    const qsizetype nul = view.indexOf('\0');
    return nul < 0 ? view : view.first(nul);
}

// A numeric field: octal digits between optional spaces (and NULs), or GNU's base-256 for large values. -1 when it
// is neither.
qint64 number(const QByteArray &block, qsizetype offset, qsizetype length)
{
    const auto *bytes = reinterpret_cast<const unsigned char *>(block.constData() + offset);
    if (bytes[0] & 0x80) {
        if (bytes[0] != 0x80)
            return -1; // negative, or too large for a size
        qint64 value = 0;
        for (qsizetype i = 1; i < length; ++i) {
            if (value > (std::numeric_limits<qint64>::max() >> 8))
                return -1;
            value = (value << 8) | bytes[i];
        }
        return value;
    }
    qsizetype i = 0;
    while (i < length && bytes[i] == ' ')
        ++i;
    qint64 value = 0;
    bool digits = false;
    for (; i < length && bytes[i] >= '0' && bytes[i] <= '7'; ++i) {
        if (value > (std::numeric_limits<qint64>::max() >> 3))
            return -1;
        value = value * 8 + (bytes[i] - '0');
        digits = true;
    }
    for (; i < length; ++i) {
        if (bytes[i] != ' ' && bytes[i] != '\0')
            return -1;
    }
    return digits ? value : -1;
}

bool checksumMatches(const QByteArray &block)
{
    const qint64 stored = number(block, 148, 8);
    qint64 unsignedSum = 0;
    qint64 signedSum = 0;
    for (qsizetype i = 0; i < kBlock; ++i) {
        const bool inChecksum = i >= 148 && i < 156; // counted as spaces
        unsignedSum += inChecksum ? ' ' : static_cast<unsigned char>(block.at(i));
        signedSum += inChecksum ? ' ' : static_cast<signed char>(block.at(i));
    }
    return stored >= 0 && (stored == unsignedSum || stored == signedSum); // old tars summed signed bytes
}

// An entry's name as a message may show it: control characters replaced, very long names shortened.
QString shown(const QString &name)
{
    QString text = name.left(120);
    for (QChar &c : text) {
        if (c.category() == QChar::Other_Control)
            c = u'?';
    }
    return u'"' + text + (name.size() > 120 ? u"...\""_s : u"\""_s);
}

// Absolute names and names with a ".." segment leave the folder the archive is unpacked into, whatever the entry.
Result<void> checkName(const QString &name)
{
    if (name.startsWith(u'/'))
        return badRequest(u"archive entry %1 has an absolute path"_s.arg(shown(name)));
    if (name.split(u'/').contains(u".."_s))
        return badRequest(u"archive entry %1 leaves the archive's root with \"..\""_s.arg(shown(name)));
    return {};
}

QString kindOf(char type)
{
    switch (type) {
    case '1':
        return u"a hard link"_s;
    case '2':
        return u"a symbolic link"_s;
    case '3':
        return u"a character device"_s;
    case '4':
        return u"a block device"_s;
    case '6':
        return u"a FIFO"_s;
    default:
        return u"an entry of type '%1'"_s.arg(QChar::fromLatin1(type >= 0x20 && type < 0x7f ? type : '?'));
    }
}

} // namespace

TarStream::TarStream(Receiver &receiver)
    : m_receiver(receiver)
{
    m_block.reserve(kBlock);
}

QString TarStream::truncatedMessage()
{
    return u"The archive is truncated: it ends before its end-of-archive blocks"_s;
}

Result<void> TarStream::fail(Error error)
{
    m_state = State::Failed;
    m_error = error;
    m_content = QByteArray();
    return error;
}

Result<void> TarStream::feed(QByteArrayView bytes)
{
    while (!bytes.isEmpty()) {
        switch (m_state) {
        case State::Failed:
            return m_error;
        case State::End:
            return {};
        case State::Header: {
            const qsizetype taken = qMin(kBlock - m_block.size(), bytes.size());
            m_block.append(bytes.first(taken));
            bytes = bytes.sliced(taken);
            if (m_block.size() == kBlock) {
                const Result<void> read = readHeader();
                m_block.clear();
                if (!read)
                    return fail(read.error());
            }
            break;
        }
        case State::Content: {
            const qsizetype taken = qsizetype(qMin<qint64>(m_remaining, bytes.size()));
            if (m_target != Target::Skip)
                m_content.append(bytes.first(taken));
            bytes = bytes.sliced(taken);
            m_remaining -= taken;
            if (m_remaining == 0) {
                if (const Result<void> ended = endContent(); !ended)
                    return fail(ended.error());
            }
            break;
        }
        case State::Padding: {
            const qsizetype taken = qsizetype(qMin<qint64>(m_padding, bytes.size()));
            bytes = bytes.sliced(taken);
            m_padding -= taken;
            if (m_padding == 0)
                m_state = State::Header;
            break;
        }
        }
    }
    return m_state == State::Failed ? Result<void>(m_error) : Result<void>();
}

Result<void> TarStream::finish()
{
    if (m_state == State::Failed)
        return m_error;
    // A single zero block is as far as some writers go; two are the standard end.
    if (m_state == State::End || (m_state == State::Header && m_block.isEmpty() && m_zeroBlocks == 1))
        return {};
    return fail(badRequest(truncatedMessage()));
}

Result<void> TarStream::readHeader()
{
    if (m_block.count('\0') == kBlock) {
        if (++m_zeroBlocks == 2)
            m_state = State::End;
        return {};
    }
    m_zeroBlocks = 0;
    if (++m_headers > kMaxHeaders)
        return badRequest(u"The archive holds more than %1 entries"_s.arg(kMaxHeaders));
    if (!checksumMatches(m_block))
        return damaged();
    qint64 size = number(m_block, 124, 12);
    if (size < 0)
        return damaged();
    if (m_paxSize >= 0)
        size = m_paxSize;
    const char type = m_block.at(156);

    QString name;
    if (!m_longName.isNull()) {
        name = m_longName;
    } else {
        const QByteArrayView prefix = field(m_block, 345, 155);
        const bool posix = QByteArrayView(m_block.constData() + 257, 6) == QByteArrayView("ustar\0", 6);
        const QByteArray whole = posix && !prefix.isEmpty()
            ? prefix.toByteArray() + '/' + field(m_block, 0, 100).toByteArray()
            : field(m_block, 0, 100).toByteArray();
        name = QString::fromUtf8(whole);
    }
    // What the extended headers said applies to this entry alone; further extended headers apply to the next.
    if (type != 'x' && type != 'L' && type != 'g' && type != 'K') {
        m_longName = QString();
        m_paxSize = -1;
    }
    return beginEntry(type, name, size);
}

Result<void> TarStream::beginEntry(char type, const QString &name, qint64 size)
{
    switch (type) {
    case 'x':
    case 'L':
    case 'g':
    case 'K':
        if (size > kMaxExtendedHeaderBytes)
            return badRequest(
                u"An extended header of the archive is larger than %1 bytes"_s.arg(kMaxExtendedHeaderBytes));
        return beginContent(type == 'x' ? Target::Pax : type == 'L' ? Target::LongName : Target::Skip, size);
    case '5': // a directory: its files name it
        if (const Result<void> checked = checkName(name); !checked)
            return checked;
        if (size > kMaxExtendedHeaderBytes)
            return damaged();
        return beginContent(Target::Skip, size);
    case '0':
    case '\0':
    case '7': // contiguous: a regular file to every reader but a few old ones
        if (const Result<void> checked = checkName(name); !checked)
            return checked;
        if (const Result<void> accepted = m_receiver.fileBegins(name, size); !accepted)
            return accepted;
        m_name = name;
        return beginContent(Target::File, size);
    default:
        if (const Result<void> checked = checkName(name); !checked)
            return checked;
        return badRequest(
            u"archive entry %1 is %2; only regular files can be deployed"_s.arg(shown(name), kindOf(type)));
    }
}

Result<void> TarStream::beginContent(Target target, qint64 size)
{
    m_target = target;
    m_content = QByteArray();
    if (target != Target::Skip)
        m_content.reserve(qsizetype(qMin(size, kMaxReserveBytes)));
    m_remaining = size;
    m_padding = (kBlock - size % kBlock) % kBlock;
    m_state = State::Content;
    if (size == 0)
        return endContent();
    return {};
}

Result<void> TarStream::endContent()
{
    m_state = m_padding > 0 ? State::Padding : State::Header;
    switch (m_target) {
    case Target::File:
        return m_receiver.fileEnds(std::exchange(m_name, QString()), std::exchange(m_content, QByteArray()));
    case Target::LongName: {
        const qsizetype nul = m_content.indexOf('\0');
        m_longName = QString::fromUtf8(nul < 0 ? m_content : m_content.first(nul));
        m_content = QByteArray();
        return {};
    }
    case Target::Pax: {
        const Result<void> read = readPaxRecords();
        m_content = QByteArray();
        return read;
    }
    case Target::Skip:
        return {};
    }
    return {};
}

Result<void> TarStream::readPaxRecords()
{
    // Records "<length> <key>=<value>\n", the length counting the whole record.
    QByteArrayView rest(m_content);
    while (!rest.isEmpty()) {
        const qsizetype space = rest.indexOf(' ');
        bool ok = false;
        const qsizetype length = space > 0 ? rest.first(space).toLongLong(&ok) : 0;
        if (!ok || length <= space + 1 || length > rest.size() || rest.at(length - 1) != '\n')
            return damaged();
        const QByteArrayView record = rest.sliced(space + 1, length - space - 2);
        rest = rest.sliced(length);
        const qsizetype equals = record.indexOf('=');
        if (equals <= 0)
            return damaged();
        const QByteArrayView key = record.first(equals);
        const QByteArrayView value = record.sliced(equals + 1);
        if (key == "path") {
            m_longName = QString::fromUtf8(value);
        } else if (key == "size") {
            const qint64 size = value.toLongLong(&ok);
            if (!ok || size < 0)
                return damaged();
            m_paxSize = size;
        }
    }
    return {};
}

} // namespace berth
