#pragma once

#include "domain/siterules/pathpattern.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QStringList>

namespace berth {

// The rules of a deployment's _headers file, compiled once per version (Site::make), matched per request.
//
// Supported subset of Netlify's syntax: a path pattern on a line of its own (same patterns as _redirects: literal
// segments, ":name", a final "*"), followed by indented "Name: value" lines; "#" comments and blank lines. Every
// rule whose pattern matches the request path adds its headers; a name given more than once (in one rule or in
// several) gets the values joined by ", ".
//
// Headers that Berth itself must set (ranges, encodings, ETag, Vary, cookies, Location), hop-by-hop and framing
// names (Connection, Content-Length, Transfer-Encoding, TE, Host, Status...) and Clear-Site-Data cannot be set here,
// and X-Content-Type-Options only to "nosniff": such lines are skipped with a warning. On a private site the
// Cache-Control that keeps its pages out of shared caches stays: the site layer skips every cache policy of the
// rules there (isCachePolicy), as the site can turn private after the rules were read.
class HeaderRules final
{
public:
    static constexpr int kMaxRules = 2000;
    static constexpr int kMaxHeadersPerRule = 64;
    static constexpr int kMaxHeaderLines = 1000; // in the whole file
    static constexpr int kMaxHeadersPerResponse = 64; // distinct names a response gets from the rules
    static constexpr int kMaxLineLength = 8192;

    using Headers = QList<QPair<QByteArray, QByteArray>>;

    HeaderRules() = default;
    // Compiles `text` (the file's bytes); every skipped line adds "_headers line N: why" to `warnings`.
    static HeaderRules parse(const QByteArray &text, QStringList *warnings);

    bool isEmpty() const { return m_rules.isEmpty(); }
    qsizetype size() const { return m_rules.size(); }
    // The headers for a request path (decoded, without its query), in the order of the file.
    Headers match(QStringView path) const;
    // Whether a name tells caches how to keep a response: Cache-Control and what CDNs read before it
    // (CDN-Cache-Control, any "<vendor>-CDN-Cache-Control", Surrogate-Control), Expires and Pragma.
    static bool isCachePolicy(QByteArrayView name);

private:
    struct Rule
    {
        PathPattern path;
        Headers headers; // names as written; repeated names already joined
    };
    QList<Rule> m_rules;
};

} // namespace berth
