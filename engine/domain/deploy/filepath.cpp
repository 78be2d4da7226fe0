#include "domain/deploy/filepath.h"

#include <QStringList>

using namespace Qt::StringLiterals;

namespace berth::FilePath {

namespace {

// Characters that show as nothing: a byte order mark, zero-width spaces and joiners, the word joiner and the
// bidirectional controls. Two paths that differ only by them look the same to every person reading them.
bool isInvisible(QChar c)
{
    const char16_t u = c.unicode();
    return u == 0xFEFF || (u >= 0x200B && u <= 0x200D) || u == 0x2060 || (u >= 0x202A && u <= 0x202E)
        || (u >= 0x2066 && u <= 0x2069);
}

// The path as it can safely appear in a message: control characters escaped, very long paths shortened.
QString quoted(const QString &path)
{
    QString shown;
    for (const QChar c : path.left(120)) {
        if (c.category() == QChar::Other_Control || isInvisible(c))
            shown += u"\\u"_s + QString::number(c.unicode(), 16).rightJustified(4, u'0');
        else
            shown += c;
    }
    if (path.size() > 120)
        shown += u"..."_s;
    return u'"' + shown + u'"';
}

Error fail(const QString &message)
{
    return {Error::Kind::BadRequest, message};
}

} // namespace

Result<QString> normalise(const QString &input)
{
    if (input.isEmpty())
        return fail(u"file path must not be empty"_s);
    // One spelling per name (NFC), so the database, memory and disk agree on it and a composed "é" and a decomposed
    // one are the same file.
    for (qsizetype i = 0; i < input.size(); ++i) {
        const QChar c = input.at(i);
        if (c.isHighSurrogate() && i + 1 < input.size() && input.at(i + 1).isLowSurrogate())
            ++i;
        else if (c.isSurrogate())
            return fail(u"file path %1 is not valid Unicode"_s.arg(quoted(input)));
    }
    const QString path = input.normalized(QString::NormalizationForm_C);
    for (qsizetype i = 0; i < path.size(); ++i) {
        const QChar c = path.at(i);
        if (c.category() == QChar::Other_Control)
            return fail(u"file path %1 contains a control character"_s.arg(quoted(path)));
        if (isInvisible(c))
            return fail(u"file path %1 contains an invisible character (U+%2)"_s.arg(quoted(path))
                            .arg(QString::number(c.unicode(), 16).toUpper().rightJustified(4, u'0')));
        if (c == u'\\')
            return fail(u"file path %1 contains a backslash; use \"/\" between folders"_s.arg(quoted(path)));
        if (c.isHighSurrogate() && i + 1 < path.size() && path.at(i + 1).isLowSurrogate())
            ++i;
        else if (c.isSurrogate())
            return fail(u"file path %1 is not valid Unicode"_s.arg(quoted(path)));
    }
    if (path.startsWith(u'/'))
        return fail(u"file path %1 must be relative, not start with \"/\""_s.arg(quoted(path)));
    if (path.endsWith(u'/'))
        return fail(u"file path %1 names a directory, not a file"_s.arg(quoted(path)));

    const QStringList segments = path.split(u'/');
    QStringList kept;
    kept.reserve(segments.size());
    for (const QString &segment : segments) {
        if (segment == u"..")
            return fail(u"file path %1 must not contain \"..\""_s.arg(quoted(path)));
        if (segment.isEmpty() || segment == u".")
            continue;
        if (segment.toUtf8().size() > kMaxSegmentBytes)
            return fail(u"file path %1 has a name longer than %2 bytes"_s.arg(quoted(path)).arg(kMaxSegmentBytes));
        kept.append(segment);
    }
    if (kept.isEmpty() || segments.constLast() == u".")
        return fail(u"file path %1 names a directory, not a file"_s.arg(quoted(path)));

    QString normalised = kept.join(u'/');
    if (normalised.toUtf8().size() > kMaxPathBytes)
        return fail(u"file path %1 is longer than %2 bytes"_s.arg(quoted(path)).arg(kMaxPathBytes));
    return normalised;
}

} // namespace berth::FilePath
