#include "ui/widgets/actionmaker.h"

#include "ui/widgets/icons.h"

#include <QAction>

namespace berth::ActionMaker {

QAction *make(QObject *parent, const QString &objectName, const QString &icon, const QString &text,
    const QKeySequence &shortcut, Qt::ShortcutContext context)
{
    auto *action = new QAction(Icons::icon(icon), text, parent);
    action->setObjectName(objectName);
    action->setShortcut(shortcut);
    action->setShortcutContext(context);
    return action;
}

} // namespace berth::ActionMaker
