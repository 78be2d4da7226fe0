#include "site/localtarget.h"

using namespace Qt::StringLiterals;

namespace berth::LocalTarget {

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
    return true;
}

QString orRoot(const QString &target)
{
    return isLocal(target) ? target : u"/"_s;
}

} // namespace berth::LocalTarget
