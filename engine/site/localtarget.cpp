#include "site/localtarget.h"

#include <QByteArray>
#include <QList>

using namespace Qt::StringLiterals;

namespace berth::LocalTarget {

namespace {

// Whether the path of `target` (before any '?' or '#'), percent-decoded once and with its "." and ".." segments
// removed as a browser or a proxy resolves them, starts with "//" or "/\\": "/.%2F/evil.example" and
// "/a/..//evil.example" both come to "//evil.example". Linear: one decoding, one pass over the segments.
bool resolvesToAnotherHost(QStringView target)
{
    qsizetype end = 0;
    while (end < target.size() && target.at(end) != u'?' && target.at(end) != u'#')
        ++end;
    // Browsers read '\\' as '/' in http(s) paths.
    const QString path
        = QString::fromUtf8(QByteArray::fromPercentEncoding(target.first(end).toUtf8())).replace(u'\\', u'/');
    QList<QStringView> kept;
    const QList<QStringView> segments = QStringView(path).sliced(1).split(u'/');
    for (qsizetype i = 0; i < segments.size(); ++i) {
        const QStringView segment = segments.at(i);
        const bool last = i + 1 == segments.size();
        if (segment == u"..") {
            if (!kept.isEmpty())
                kept.removeLast();
            if (last)
                kept.append(QStringView());
        } else if (segment == u".") {
            if (last)
                kept.append(QStringView());
        } else {
            kept.append(segment);
        }
    }
    // The resolved path is "/" followed by the kept segments joined with "/".
    return kept.size() > 1 && kept.first().isEmpty();
}

} // namespace

bool isLocal(QStringView target)
{
    if (target.isEmpty() || target.front() != u'/')
        return false;
    if (target.size() > 1 && (target.at(1) == u'/' || target.at(1) == u'\\'))
        return false;
    for (const QChar c : target) {
        // Controls and spaces are dropped or trimmed by URL parsers, so they could hide a second slash.
        if (c.unicode() <= 0x20 || c.unicode() == 0x7f || c == u'\\' || (c.unicode() >= 0x80 && c.unicode() <= 0x9f))
            return false;
    }
    return !resolvesToAnotherHost(target);
}

QString orRoot(const QString &target)
{
    return isLocal(target) ? target : u"/"_s;
}

} // namespace berth::LocalTarget
