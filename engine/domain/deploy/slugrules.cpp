#include "domain/deploy/slugrules.h"

#include <QRandomGenerator>
#include <QStringList>
#include <iterator>

using namespace Qt::StringLiterals;

namespace berth::SlugRules {

namespace {

// Short, friendly words: two of them plus a suffix stay far below kMaxLength.
constexpr const char16_t *kAdjectives[] = {
    u"amber",
    u"bold",
    u"brave",
    u"bright",
    u"calm",
    u"clever",
    u"cosy",
    u"crisp",
    u"eager",
    u"fancy",
    u"gentle",
    u"glad",
    u"golden",
    u"happy",
    u"jolly",
    u"keen",
    u"kind",
    u"lively",
    u"lucky",
    u"merry",
    u"misty",
    u"noble",
    u"proud",
    u"quick",
    u"quiet",
    u"rapid",
    u"shiny",
    u"silver",
    u"sunny",
    u"swift",
    u"tidy",
    u"vivid",
    u"warm",
    u"wise",
    u"witty",
    u"young",
};
constexpr const char16_t *kNouns[] = {
    u"bay",
    u"brook",
    u"cedar",
    u"cloud",
    u"comet",
    u"coral",
    u"dune",
    u"falcon",
    u"fern",
    u"field",
    u"forest",
    u"grove",
    u"harbor",
    u"hill",
    u"island",
    u"lake",
    u"meadow",
    u"moon",
    u"oak",
    u"ocean",
    u"orchid",
    u"otter",
    u"panda",
    u"peak",
    u"pine",
    u"planet",
    u"river",
    u"robin",
    u"shore",
    u"sky",
    u"spark",
    u"star",
    u"stone",
    u"tiger",
    u"valley",
    u"wave",
};

bool isSlugChar(QChar c)
{
    return (c >= u'a' && c <= u'z') || (c >= u'0' && c <= u'9');
}

QString pick(const char16_t *const *words, int count)
{
    return QString::fromUtf16(words[QRandomGenerator::system()->bounded(count)]);
}

// The name's words in slug characters, joined by single hyphens: "My Café!" -> "my-cafe".
QString words(const QString &name)
{
    // NFKD splits "é" into "e" + a combining accent, which the ASCII filter below then drops.
    const QString decomposed = name.normalized(QString::NormalizationForm_KD).toLower();
    QString slug;
    slug.reserve(decomposed.size());
    for (const QChar c : decomposed) {
        if (isSlugChar(c))
            slug += c;
        else if (c.unicode() < 0x80 && !slug.isEmpty() && !slug.endsWith(u'-'))
            slug += u'-'; // other ASCII separates words; non-ASCII leftovers (accents, symbols) vanish
    }
    return slug;
}

// At most length characters, never ending in a hyphen.
QString truncated(QString slug, int length)
{
    slug.truncate(length);
    while (slug.endsWith(u'-'))
        slug.chop(1);
    return slug;
}

// Each word once, where it first comes: "site-v2-site" -> "site-v2".
QString withoutRepeats(const QString &slug)
{
    QStringList parts = slug.split(u'-');
    parts.removeDuplicates();
    return parts.join(u'-');
}

// A slug needs a hyphen: a lone word gets "-site" after it, or "my-" before it when the word is "site" already.
QString withSecondWord(const QString &word)
{
    const QString second = u"site"_s;
    if (word == second)
        return u"my-"_s + second;
    return truncated(word, kMaxLength - int(second.size()) - 1) + u'-' + second;
}

} // namespace

QString validate(const QString &slug)
{
    const QString rule = u"slug must be 3 to 63 characters of a-z and 0-9 in groups joined by single hyphens, "
                         u"with at least one hyphen (e.g. \"my-site\")"_s;
    if (slug.size() < kMinLength || slug.size() > kMaxLength)
        return rule;
    bool hasHyphen = false;
    QChar previous = u'-'; // so that a leading hyphen is caught like a double one
    for (const QChar c : slug) {
        if (c == u'-') {
            if (previous == u'-')
                return rule;
            hasHyphen = true;
        } else if (!isSlugChar(c)) {
            return rule;
        }
        previous = c;
    }
    if (previous == u'-' || !hasHyphen)
        return rule;
    return {};
}

QString generate()
{
    static constexpr char kBase36[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    QString suffix;
    for (int i = 0; i < 3; ++i)
        suffix += QLatin1Char(kBase36[QRandomGenerator::system()->bounded(36)]);
    return pick(kAdjectives, int(std::size(kAdjectives))) + u'-' + pick(kNouns, int(std::size(kNouns))) + u'-' + suffix;
}

QString fromName(const QString &name)
{
    QString base = name.trimmed();
    // A file dropped on the dashboard: its extension says nothing about the site.
    for (const QLatin1String ext : {".html"_L1, ".htm"_L1, ".zip"_L1}) {
        if (base.endsWith(ext, Qt::CaseInsensitive) && base.size() > ext.size()) {
            base.chop(ext.size());
            break;
        }
    }

    QString slug = withoutRepeats(truncated(words(base), kMaxLength));
    if (slug.isEmpty())
        return generate();
    if (!slug.contains(u'-') || slug.size() < kMinLength)
        slug = withSecondWord(slug);
    return validate(slug).isEmpty() ? slug : generate();
}

} // namespace berth::SlugRules
