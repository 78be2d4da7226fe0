#pragma once

#include <QtGlobal>

QT_BEGIN_NAMESPACE
class QDialog;
class QTabWidget;
QT_END_NAMESPACE

namespace berth::TabbedWindow {

// The layout of the dashboard's windows of tabs (a site's submissions and counters, the accounts): the tabs edge to
// edge in document mode, a Close button below.
void layOut(QDialog *window, QTabWidget *tabs);

} // namespace berth::TabbedWindow
