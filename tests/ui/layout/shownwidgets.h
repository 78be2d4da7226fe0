#pragma once

#include <QList>
#include <QWidget>

namespace berth::test {

// root and the descendants a person can see in root's window: shown, of some size, not in a window of their own.
inline QList<QWidget *> shownWidgets(QWidget *root)
{
    QList<QWidget *> shown;
    if (root->isVisible())
        shown.append(root);
    const auto children = root->findChildren<QWidget *>();
    for (QWidget *widget : children) {
        if (widget->isVisible() && !widget->isWindow() && widget->window() == root->window() && widget->width() > 0
            && widget->height() > 0)
            shown.append(widget);
    }
    return shown;
}

} // namespace berth::test
