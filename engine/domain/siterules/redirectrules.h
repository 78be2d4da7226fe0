#pragma once

#include "domain/siterules/pathpattern.h"

#include <QHash>
#include <QStringList>
#include <optional>

namespace berth {

// What a _redirects rule asks for a request it matches.
struct RedirectMatch
{
    enum class Kind
    {
        Redirect,
        Rewrite,
        NotFound
    };
    Kind kind = Kind::Redirect;
    int status = 301; // 301, 302, 303, 307, 308 for Redirect; 200 for Rewrite; 404 for NotFound
    QString location; // Redirect: the Location value, placeholders filled in and percent-encoded
    QString path; // Rewrite and NotFound: the path inside the deployment to serve (decoded)
};

// The rules of a deployment's _redirects file, compiled once per version (Site::make), matched per request.
//
// Supported subset of Netlify's syntax, one rule per line: `from to [status][!]`, "#" comments, blank lines.
// `from` is a path with literal segments, ":name" placeholders (one segment each) and an optional final "*";
// `to` is a path on the site or, for redirects only, an absolute http(s) URL, and may use ":name" and ":splat".
// Status 301 (the default), 302, 303, 307, 308 redirect; 200 rewrites to a file of the same deployment; 404 serves
// that file with status 404. Without "!" a rule applies only when no file answers the path (shadowing); with "!"
// it always does. Rules are tried in file order and the first that applies wins. Matching ignores the query
// string; a redirect passes the request's query on when its target has none. Not supported (the line is skipped
// with a warning): query-parameter conditions, country/language/role/cookie conditions, proxying (200 to another
// origin), domain-level "from" URLs and other statuses.
class RedirectRules final
{
public:
    static constexpr int kMaxRules = 10000;
    static constexpr int kMaxLineLength = 4096;

    RedirectRules() = default;
    // Compiles `text` (the file's bytes); every skipped line adds "_redirects line N: why" to `warnings`.
    static RedirectRules parse(const QByteArray &text, QStringList *warnings);

    bool isEmpty() const { return m_rules.isEmpty(); }
    qsizetype size() const { return m_rules.size(); }
    // The first rule that applies to `path` (a decoded request path without its query). `fileExists` says whether
    // a file of the deployment answers the path as it is, which holds back every rule without "!".
    std::optional<RedirectMatch> match(QStringView path, const QByteArray &query, bool fileExists) const;

private:
    struct Target
    {
        QString text; // the literal text between references
        int reference = -1; // -1: none; 0..n-1: placeholder n; kSplatReference: the splat
    };
    struct Rule
    {
        PathPattern from;
        QList<Target> to;
        int status = 301;
        bool force = false;
        bool external = false; // `to` is an absolute URL
        bool hasQuery = false; // `to` carries its own query
    };
    static constexpr int kSplatReference = 1000;

    std::optional<RedirectMatch> apply(const Rule &rule, const PathSegments &segments, const QByteArray &query) const;

    QList<Rule> m_rules;
    QHash<QString, QList<int>> m_literal; // rules whose `from` names one path, by that path: found without a scan
    QList<int> m_patterned; // the others, in file order
    bool m_anyForced = false;
};

} // namespace berth
