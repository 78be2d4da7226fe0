#include "domain/deploy/secretscan.h"

#include <cstring>

namespace berth::SecretScan {

namespace {

using Finding = PublishIssue::Finding;

bool isAlnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool isUpperOrDigit(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool isTokenChar(char c)
{
    return isAlnum(c) || c == '-' || c == '_';
}

// A credential: a fixed prefix followed by at least `length` characters that `allowed` accepts.
struct TokenPattern
{
    QByteArrayView prefix;
    qsizetype length;
    bool (*allowed)(char);
    Finding finding;
};

// In the order a file is reported by: the first pattern found names it.
const TokenPattern kTokens[] = {
    {"AKIA", 16, isUpperOrDigit, Finding::AwsAccessKey},
    {"ghp_", 22, isAlnum, Finding::GitHubToken},
    {"gho_", 22, isAlnum, Finding::GitHubToken},
    {"ghs_", 22, isAlnum, Finding::GitHubToken},
    {"ghu_", 22, isAlnum, Finding::GitHubToken},
    {"github_pat_", 22, isAlnum, Finding::GitHubToken},
    {"xoxb-", 10, isTokenChar, Finding::SlackToken},
    {"xoxp-", 10, isTokenChar, Finding::SlackToken},
    {"xoxa-", 10, isTokenChar, Finding::SlackToken},
    {"sk_live_", 16, isAlnum, Finding::StripeSecretKey},
    {"rk_live_", 16, isAlnum, Finding::StripeSecretKey},
    {"AIza", 35, isTokenChar, Finding::GoogleApiKey},
};
constexpr QByteArrayView kKeyBlockEnd = "PRIVATE KEY-----";

// Whether rest begins with prefix; the first two bytes are compared first, which rules out nearly every place.
bool beginsWith(QByteArrayView rest, QByteArrayView prefix)
{
    return rest.size() >= prefix.size() && rest.at(0) == prefix.at(0) && rest.at(1) == prefix.at(1)
        && rest.startsWith(prefix);
}

// Whether rest begins with pattern's prefix followed by a whole token.
bool isToken(QByteArrayView rest, const TokenPattern &pattern)
{
    const qsizetype end = pattern.prefix.size() + pattern.length;
    if (rest.size() < end || !beginsWith(rest, pattern.prefix))
        return false;
    for (qsizetype i = pattern.prefix.size(); i < end; ++i) {
        if (!pattern.allowed(rest.at(i)))
            return false;
    }
    return true;
}

// Calls visit(at) for every place bytes holds byte, in order, until it returns false; memchr skips the bytes between
// many at a time.
template<typename Visit>
void forEachPlaceOf(QByteArrayView bytes, char byte, Visit visit)
{
    const char *begin = bytes.data();
    const char *end = begin + bytes.size();
    for (const char *at = begin; at < end; ++at) {
        at = static_cast<const char *>(std::memchr(at, byte, size_t(end - at)));
        if (!at || !visit(at - begin))
            return;
    }
}

} // namespace

// One memchr pass for each byte a pattern begins with, looking closer only where it stops (the scan of a 50 MB
// folder's files used to take a slower pass per pattern).
std::optional<Finding> inContent(const QByteArray &content)
{
    const QByteArrayView bytes(content);
    std::optional<Finding> keyBlock;
    forEachPlaceOf(bytes, kKeyBlockEnd.front(), [&](qsizetype at) {
        if (!beginsWith(bytes.sliced(at), kKeyBlockEnd))
            return true;
        if (bytes.sliced(qMax<qsizetype>(0, at - 40), qMin<qsizetype>(at, 40)).contains("-----BEGIN"))
            keyBlock = Finding::PrivateKeyBlock;
        return false;
    });
    if (keyBlock)
        return keyBlock;

    std::optional<qsizetype> best; // index into kTokens
    QByteArray firstBytes;
    for (const TokenPattern &pattern : kTokens) {
        const char first = pattern.prefix.front();
        if (firstBytes.contains(first))
            continue;
        firstBytes += first;
        forEachPlaceOf(bytes, first, [&](qsizetype at) {
            const QByteArrayView rest = bytes.sliced(at);
            for (qsizetype i = 0; i < qsizetype(std::size(kTokens)) && (!best || i < *best); ++i) {
                if (kTokens[i].prefix.front() == first && isToken(rest, kTokens[i]))
                    best = i;
            }
            return !best || *best > 0;
        });
    }
    return best ? std::optional(kTokens[*best].finding) : std::nullopt;
}

std::optional<Finding> byName(const QString &path)
{
    const QString name = path.sliced(path.lastIndexOf(u'/') + 1).toLower();
    if (name.endsWith(u".env") || name.startsWith(u"env.") || name == u"env")
        return Finding::EnvFile;
    for (const char *key : {"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"}) {
        if (name == QLatin1StringView(key))
            return Finding::SshKeyFile;
    }
    return std::nullopt;
}

} // namespace berth::SecretScan
