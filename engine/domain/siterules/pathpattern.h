#pragma once

#include "core/error.h"

#include <QList>
#include <QString>
#include <QStringView>

namespace berth {

// A request path cut into its non-empty segments once, so every rule compares segments instead of rescanning
// characters: "/a//b/" gives ["a", "b"]; "/" gives none. The views point into the path, which must outlive this.
class PathSegments final
{
public:
    explicit PathSegments(QStringView path);

    qsizetype size() const { return m_segments.size(); }
    QStringView at(qsizetype i) const { return m_segments.at(i); }
    // Segments from `first` on, joined by single slashes ("" when none).
    QString joinedFrom(qsizetype first) const;

private:
    QList<QStringView> m_segments;
};

// One "from" pattern of a _redirects or _headers rule, in the subset of Netlify's syntax that Berth supports:
// literal segments, ":name" segments that match exactly one segment, and a final "*" that matches the rest
// (none too). Matching walks the pattern's segments once, left to right, with no backtracking: a literal
// compares equal or the rule fails, a placeholder takes one segment, the splat takes whatever is left. A
// trailing slash does not matter ("/blog" and "/blog/" are the same), case does (as on Netlify).
class PathPattern final
{
public:
    static constexpr int kMaxSegments = 64;
    static constexpr int kMaxPlaceholders = 16;

    PathPattern() = default;
    // The pattern of `text` (percent-decoded once, like request paths), or a BadRequest Error saying what is wrong.
    static Result<PathPattern> parse(QStringView text);

    bool isValid() const { return m_valid; }
    bool hasSplat() const { return m_splat; }
    bool isLiteral() const { return !m_splat && m_names.isEmpty(); } // matches one path only (see literalKey)
    QString literalKey() const; // for a literal pattern: its segments joined by "/"
    const QStringList &placeholderNames() const { return m_names; }

    // Whether `path` matches; when it does and `captures` is given, it receives one value per placeholder (in the
    // order of placeholderNames()) and then, for a splat, the rest of the path.
    bool match(const PathSegments &path, QList<QStringView> *captures = nullptr, QString *splat = nullptr) const;

private:
    struct Segment
    {
        QString literal; // empty for a placeholder
        int placeholder = -1; // index into m_names
    };
    QList<Segment> m_segments;
    QStringList m_names;
    bool m_splat = false;
    bool m_valid = false;
};

} // namespace berth
