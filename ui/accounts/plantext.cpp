#include "ui/accounts/plantext.h"

using namespace Qt::StringLiterals;

namespace berth {

QString PlanText::name(const QString &plan)
{
    if (plan == u"agent")
        return tr("Agent");
    if (plan == u"free")
        return tr("Free");
    if (plan == u"pro")
        return tr("Pro");
    return plan;
}

} // namespace berth
