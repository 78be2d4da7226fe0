#include "ui/widgets/icons.h"

#include "ui/widgets/svgiconengine.h"

using namespace Qt::StringLiterals;

namespace berth::Icons {

QIcon icon(const QString &name)
{
    return QIcon(new SvgIconEngine(u":/icons/"_s + name + u".svg"_s));
}

QIcon appIcon()
{
    return icon(u"berth"_s);
}

} // namespace berth::Icons
