#include "domain/siterules/redirectrules.h"

#include <QUrl>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

bool isNameChar(QChar c)
{
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') || c == u'_';
}

bool isSpace(QChar c)
{
    return c == u' ' || c == u'\t';
}

// The whitespace-separated fields of a line, in one pass.
QList<QStringView> fieldsOf(QStringView line)
{
    QList<QStringView> fields;
    qsizetype start = -1;
    for (qsizetype i = 0; i <= line.size(); ++i) {
        const bool space = i == line.size() || isSpace(line.at(i));
        if (space && start >= 0) {
            fields.append(line.sliced(start, i - start));
            start = -1;
        } else if (!space && start < 0) {
            start = i;
        }
    }
    return fields;
}

bool isExternal(QStringView target)
{
    return target.startsWith(u"http://", Qt::CaseInsensitive) || target.startsWith(u"https://", Qt::CaseInsensitive);
}

bool hasControl(QStringView text)
{
    return std::any_of(text.begin(), text.end(), [](QChar c) {
        return c.unicode() < 0x20 || c.unicode() == 0x7f || (c.unicode() >= 0x80 && c.unicode() <= 0x9f);
    });
}

// The status field: "301", "200!", ...; 0 when it is not one Berth supports.
int statusOf(QStringView field, bool *force)
{
    *force = field.endsWith(u'!');
    const QStringView digits = *force ? field.chopped(1) : field;
    bool ok = false;
    const int status = digits.toInt(&ok);
    if (!ok)
        return 0;
    switch (status) {
    case 200:
    case 301:
    case 302:
    case 303:
    case 307:
    case 308:
    case 404:
        return status;
    default:
        return 0;
    }
}

// A query string safe to copy into a Location header (it arrived encoded; anything else is dropped).
bool isPlainQuery(const QByteArray &query)
{
    return std::all_of(query.begin(), query.end(), [](char c) { return c > 0x20 && c < 0x7f; });
}

} // namespace

RedirectRules RedirectRules::parse(const QByteArray &text, QStringList *warnings)
{
    RedirectRules rules;
    const QString content = QString::fromUtf8(text);
    const auto warn = [&](int line, const QString &why) {
        if (warnings)
            warnings->append(u"_redirects line %1: %2"_s.arg(line).arg(why));
    };
    int lineNumber = 0;
    qsizetype lineStart = 0;
    while (lineStart <= content.size()) {
        qsizetype lineEnd = content.indexOf(u'\n', lineStart);
        if (lineEnd < 0)
            lineEnd = content.size();
        const QStringView line = QStringView(content).sliced(lineStart, lineEnd - lineStart).trimmed();
        lineStart = lineEnd + 1;
        ++lineNumber;
        if (line.isEmpty() || line.startsWith(u'#'))
            continue;
        if (line.size() > kMaxLineLength) {
            warn(lineNumber, u"the line is longer than %1 characters"_s.arg(kMaxLineLength));
            continue;
        }
        if (rules.m_rules.size() >= kMaxRules) {
            warn(lineNumber,
                u"only the first %1 rules are used; this line and those after it are ignored"_s.arg(kMaxRules));
            break;
        }
        if (hasControl(line)) {
            warn(lineNumber, u"the line contains control characters"_s);
            continue;
        }
        const QList<QStringView> fields = fieldsOf(line);
        if (fields.size() < 2) {
            warn(lineNumber, u"a rule needs a path and a target (\"/from /to [status]\")"_s);
            continue;
        }
        if (isExternal(fields.at(0))) {
            warn(lineNumber, u"rules for other domains are not supported; \"from\" must be a path"_s);
            continue;
        }
        if (fields.at(1).contains(u'=') && !fields.at(1).startsWith(u'/') && !isExternal(fields.at(1))) {
            warn(lineNumber, u"query parameter conditions are not supported"_s);
            continue;
        }
        if (fields.at(0).contains(u'?') || fields.at(0).contains(u'#')) {
            warn(lineNumber, u"rules match the path only; \"from\" cannot hold a query or a fragment"_s);
            continue;
        }
        Result<PathPattern> from = PathPattern::parse(fields.at(0));
        if (!from) {
            warn(lineNumber, from.error().message);
            continue;
        }
        Rule rule;
        rule.from = std::move(from).value();
        const QStringView to = fields.at(1);
        rule.external = isExternal(to);
        if (!rule.external && (!to.startsWith(u'/') || to.startsWith(u"//") || to.startsWith(u"/\\"))) {
            warn(lineNumber, u"the target must be a path starting with one \"/\" or an http(s) URL"_s);
            continue;
        }
        if (fields.size() >= 3) {
            rule.status = statusOf(fields.at(2), &rule.force);
            if (rule.status == 0) {
                warn(lineNumber,
                    u"unsupported status \"%1\" (use 200, 301, 302, 303, 307, 308 or 404, optionally with \"!\")"_s.arg(
                        fields.at(2)));
                continue;
            }
        }
        if (fields.size() > 3) {
            warn(lineNumber, u"conditions (\"%1\") are not supported"_s.arg(fields.at(3)));
            continue;
        }
        if (rule.external && (rule.status == 200 || rule.status == 404)) {
            warn(lineNumber, u"proxying to another site is not supported; a URL target needs a redirect status"_s);
            continue;
        }
        // The target's text and its references to what `from` captured, resolved now so a request only fills them.
        const QStringList &names = rule.from.placeholderNames();
        QString literal;
        for (qsizetype i = 0; i < to.size();) {
            if (to.at(i) == u':') {
                qsizetype end = i + 1;
                while (end < to.size() && isNameChar(to.at(end)))
                    ++end;
                const QStringView name = to.sliced(i + 1, end - i - 1);
                int reference = -1;
                if (name == u"splat" && rule.from.hasSplat())
                    reference = kSplatReference;
                else if (!name.isEmpty())
                    reference = int(names.indexOf(name));
                if (reference >= 0) {
                    rule.to.append({literal, reference});
                    literal.clear();
                    i = end;
                    continue;
                }
            }
            literal += to.at(i);
            ++i;
        }
        rule.to.append({literal, -1});
        rule.hasQuery = to.contains(u'?');

        const int index = int(rules.m_rules.size());
        if (rule.from.isLiteral())
            rules.m_literal[rule.from.literalKey()].append(index);
        else
            rules.m_patterned.append(index);
        rules.m_anyForced = rules.m_anyForced || rule.force;
        rules.m_rules.append(std::move(rule));
    }
    return rules;
}

std::optional<RedirectMatch> RedirectRules::match(QStringView path, const QByteArray &query, bool fileExists) const
{
    if (m_rules.isEmpty() || (fileExists && !m_anyForced))
        return std::nullopt;
    const PathSegments segments(path);
    static const QList<int> none;
    const QList<int> *literal = &none;
    if (!m_literal.isEmpty()) {
        const auto it = m_literal.constFind(segments.joinedFrom(0));
        if (it != m_literal.constEnd())
            literal = &it.value();
    }
    // Both lists are in file order: walking them together keeps "first rule wins" without trying every rule.
    qsizetype a = 0;
    qsizetype b = 0;
    while (a < literal->size() || b < m_patterned.size()) {
        const bool takeLiteral = b >= m_patterned.size() || (a < literal->size() && literal->at(a) < m_patterned.at(b));
        const int index = takeLiteral ? literal->at(a++) : m_patterned.at(b++);
        const Rule &rule = m_rules.at(index);
        if (fileExists && !rule.force)
            continue;
        if (takeLiteral || rule.from.match(segments))
            return apply(rule, segments, query);
    }
    return std::nullopt;
}

std::optional<RedirectMatch> RedirectRules::apply(
    const Rule &rule, const PathSegments &segments, const QByteArray &query) const
{
    QList<QStringView> captures;
    QString splat;
    rule.from.match(segments, &captures, &splat);
    // Captured values are decoded request text: encoded again, so that neither a Location nor a rewritten path
    // can gain a "?", "#", "\", a control character or a second leading slash from what the visitor typed.
    QString target;
    for (const Target &part : rule.to) {
        target += part.text;
        if (part.reference == kSplatReference)
            target += QString::fromLatin1(QUrl::toPercentEncoding(splat, "/"));
        else if (part.reference >= 0)
            target += QString::fromLatin1(QUrl::toPercentEncoding(captures.at(part.reference).toString()));
    }
    // An empty splat or capture can still join two of the target's own slashes ("/:splat/x" for "/news/"): a path
    // starting "//" would name another host in a Location, so the leading slashes become one.
    if (!rule.external) {
        qsizetype slashes = 0;
        while (slashes < target.size() && target.at(slashes) == u'/')
            ++slashes;
        if (slashes > 1)
            target.remove(0, slashes - 1);
    }

    RedirectMatch match;
    match.status = rule.status;
    if (rule.status == 200 || rule.status == 404) {
        match.kind = rule.status == 200 ? RedirectMatch::Kind::Rewrite : RedirectMatch::Kind::NotFound;
        qsizetype end = target.size();
        for (const QChar stop : {u'?', u'#'}) {
            const qsizetype at = target.indexOf(stop);
            if (at >= 0 && at < end)
                end = at;
        }
        match.path = QUrl::fromPercentEncoding(target.left(end).toUtf8());
        return match;
    }
    match.kind = RedirectMatch::Kind::Redirect;
    if (!rule.hasQuery && !query.isEmpty() && isPlainQuery(query))
        target += u'?' + QString::fromLatin1(query);
    match.location = target;
    return match;
}

} // namespace berth
