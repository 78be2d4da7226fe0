#include "ui/widgets/actionbutton.h"

#include <QAction>

using namespace Qt::StringLiterals;

namespace berth {

ActionButton::ActionButton(QAction *action, QWidget *parent)
    : QToolButton(parent)
{
    setDefaultAction(action);
    setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    setFocusPolicy(Qt::StrongFocus);
    QString name = action->objectName();
    if (name.endsWith(u"Action"_s))
        name.chop(6);
    setObjectName(name + u"Button"_s);
}

} // namespace berth
