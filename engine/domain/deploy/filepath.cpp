#include "domain/deploy/filepath.h"

#include <QStringList>

using namespace Qt::StringLiterals;

namespace berth::FilePath {

namespace {

// Characters that show as nothing: every Unicode Default_Ignorable_Code_Point (soft hyphen, zero-width spaces and
// joiners, bidirectional controls, fillers, variation selectors, tags...) and the line and paragraph separators. Two
// paths that differ only by them look the same to every person reading them.
bool isInvisible(char32_t u)
{
    if (u < 0xAD)
        return false; // the common case, ASCII and Latin-1 letters, in one comparison
    return u == 0xAD || u == 0x34F || u == 0x61C || (u >= 0x115F && u <= 0x1160) || (u >= 0x17B4 && u <= 0x17B5)
        || (u >= 0x180B && u <= 0x180F) || (u >= 0x200B && u <= 0x200F) || (u >= 0x2028 && u <= 0x202E)
        || (u >= 0x2060 && u <= 0x206F) || u == 0x3164 || (u >= 0xFE00 && u <= 0xFE0F) || u == 0xFEFF || u == 0xFFA0
        || (u >= 0xFFF0 && u <= 0xFFF8) || (u >= 0x1BCA0 && u <= 0x1BCA3) || (u >= 0x1D173 && u <= 0x1D17A)
        || (u >= 0xE0000 && u <= 0xE0FFF);
}

// The code point at `i` (a surrogate pair read as one); `i` moves to its last unit. A lone surrogate is returned as
// itself.
char32_t codePointAt(const QString &text, qsizetype &i)
{
    const QChar c = text.at(i);
    if (c.isHighSurrogate() && i + 1 < text.size() && text.at(i + 1).isLowSurrogate())
        return QChar::surrogateToUcs4(c, text.at(++i));
    return c.unicode();
}

QString codePointName(char32_t u)
{
    return u"U+"_s + QString::number(u, 16).toUpper().rightJustified(4, u'0');
}

// The path as it can safely appear in a message: control and invisible characters escaped ("\u00ad",
// "\U000e0041"), very long paths shortened.
QString quoted(const QString &path)
{
    const QString shown = path.left(120);
    QString escaped;
    for (qsizetype i = 0; i < shown.size(); ++i) {
        const qsizetype start = i;
        const char32_t u = codePointAt(shown, i);
        if (QChar::category(u) == QChar::Other_Control || isInvisible(u))
            escaped
                += (u > 0xFFFF ? u"\\U"_s : u"\\u"_s) + QString::number(u, 16).rightJustified(u > 0xFFFF ? 8 : 4, u'0');
        else
            escaped += QStringView(shown).sliced(start, i - start + 1);
    }
    if (path.size() > 120)
        escaped += u"..."_s;
    return u'"' + escaped + u'"';
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
        if (QChar::isSurrogate(codePointAt(input, i)))
            return fail(u"file path %1 is not valid Unicode"_s.arg(quoted(input)));
    }
    const QString path = input.normalized(QString::NormalizationForm_C);
    for (qsizetype i = 0; i < path.size(); ++i) {
        const char32_t u = codePointAt(path, i);
        if (QChar::category(u) == QChar::Other_Control)
            return fail(u"file path %1 contains a control character"_s.arg(quoted(path)));
        if (isInvisible(u))
            return fail(u"file path %1 contains an invisible character (%2)"_s.arg(quoted(path), codePointName(u)));
        if (u == u'\\')
            return fail(u"file path %1 contains a backslash; use \"/\" between folders"_s.arg(quoted(path)));
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
