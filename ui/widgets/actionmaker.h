#pragma once

#include <QKeySequence>
#include <QString>

QT_BEGIN_NAMESPACE
class QAction;
class QObject;
QT_END_NAMESPACE

namespace berth {

// One way to make the dashboard's actions: named (for tests), with one of Berth's icons and a
// shortcut that works where the context says.
namespace ActionMaker {
QAction *make(QObject *parent, const QString &objectName, const QString &icon, const QString &text,
    const QKeySequence &shortcut, Qt::ShortcutContext context = Qt::WindowShortcut);
} // namespace ActionMaker

} // namespace berth
