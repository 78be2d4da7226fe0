#include "domain/siterules/pathpattern.h"

#include <QUrl>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

bool isNameChar(QChar c)
{
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') || c == u'_';
}

} // namespace

PathSegments::PathSegments(QStringView path)
{
    qsizetype start = 0;
    for (qsizetype i = 0; i <= path.size(); ++i) {
        if (i < path.size() && path.at(i) != u'/')
            continue;
        if (i > start)
            m_segments.append(path.sliced(start, i - start));
        start = i + 1;
    }
}

QString PathSegments::joinedFrom(qsizetype first) const
{
    QString joined;
    for (qsizetype i = first; i < m_segments.size(); ++i) {
        if (i > first)
            joined += u'/';
        joined += m_segments.at(i);
    }
    return joined;
}

Result<PathPattern> PathPattern::parse(QStringView text)
{
    PathPattern pattern;
    const auto fail = [](const QString &why) { return Error {Error::Kind::BadRequest, why}; };
    if (!text.startsWith(u'/'))
        return fail(u"a path must start with \"/\""_s);
    const QString decoded = QUrl::fromPercentEncoding(text.toUtf8());
    const PathSegments segments(decoded);
    if (segments.size() > kMaxSegments)
        return fail(u"a path may have at most %1 segments"_s.arg(kMaxSegments));
    for (qsizetype i = 0; i < segments.size(); ++i) {
        const QStringView segment = segments.at(i);
        if (segment == u"*") {
            if (i + 1 != segments.size())
                return fail(u"\"*\" is only supported as the last segment"_s);
            pattern.m_splat = true;
            break;
        }
        if (segment.contains(u'*'))
            return fail(u"\"*\" is only supported as a whole last segment (\"/path/*\")"_s);
        if (segment == u"." || segment == u"..")
            return fail(u"\".\" and \"..\" segments are not allowed"_s);
        if (segment.startsWith(u':')) {
            const QStringView name = segment.sliced(1);
            if (name.isEmpty() || !std::all_of(name.begin(), name.end(), isNameChar))
                return fail(u"a placeholder is \":\" and a name of letters, digits and \"_\""_s);
            if (name == u"splat")
                return fail(u"\":splat\" names what \"*\" matched; use \"*\" in the path"_s);
            if (pattern.m_names.contains(name))
                return fail(u"placeholder \":%1\" appears twice"_s.arg(name));
            if (pattern.m_names.size() >= kMaxPlaceholders)
                return fail(u"a path may have at most %1 placeholders"_s.arg(kMaxPlaceholders));
            pattern.m_segments.append({QString(), int(pattern.m_names.size())});
            pattern.m_names.append(name.toString());
            continue;
        }
        pattern.m_segments.append({segment.toString(), -1});
    }
    pattern.m_valid = true;
    return pattern;
}

QString PathPattern::literalKey() const
{
    QString key;
    for (const Segment &segment : m_segments) {
        if (!key.isEmpty())
            key += u'/';
        key += segment.literal;
    }
    return key;
}

bool PathPattern::match(const PathSegments &path, QList<QStringView> *captures, QString *splat) const
{
    const qsizetype fixed = m_segments.size();
    if (path.size() < fixed || (!m_splat && path.size() != fixed))
        return false;
    if (captures)
        captures->resize(m_names.size());
    for (qsizetype i = 0; i < fixed; ++i) {
        const Segment &segment = m_segments.at(i);
        if (segment.placeholder < 0) {
            if (path.at(i) != segment.literal)
                return false;
        } else if (captures) {
            (*captures)[segment.placeholder] = path.at(i);
        }
    }
    if (m_splat && splat)
        *splat = path.joinedFrom(fixed);
    return true;
}

} // namespace berth
