#include "ui/mainwindow/traycontroller.h"

#include "ui/widgets/icons.h"

#include <QApplication>
#include <QMenu>
#include <QSystemTrayIcon>
#include <QWidget>

using namespace Qt::StringLiterals;

namespace berth {

TrayController::TrayController(QWidget *window)
    : QObject(window)
    , m_window(window)
{
}

TrayController::~TrayController()
{
    delete m_menu;
}

bool TrayController::isAvailable() const
{
    return QSystemTrayIcon::isSystemTrayAvailable();
}

void TrayController::setEnabled(bool enabled)
{
    if (!enabled || !isAvailable()) {
        if (m_icon)
            m_icon->hide();
        QApplication::setQuitOnLastWindowClosed(true);
        return;
    }
    if (!m_icon) {
        m_menu = new QMenu;
        m_menu->addAction(Icons::appIcon(), tr("&Show Berth"), this, &TrayController::showWindow);
        m_menu->addSeparator();
        QAction *quit
            = m_menu->addAction(Icons::icon(u"quit"_s), tr("&Quit Berth"), this, &TrayController::quitRequested);
        quit->setObjectName(u"trayQuitAction"_s);
        m_icon = new QSystemTrayIcon(Icons::appIcon(), this);
        m_icon->setToolTip(tr("Berth is serving your sites"));
        m_icon->setContextMenu(m_menu);
        connect(m_icon, &QSystemTrayIcon::activated, this, [this](QSystemTrayIcon::ActivationReason reason) {
            if (reason == QSystemTrayIcon::Trigger || reason == QSystemTrayIcon::DoubleClick)
                showWindow();
        });
    }
    m_icon->show();
    // The window closing must not end the process: the tray's Quit does.
    QApplication::setQuitOnLastWindowClosed(false);
}

bool TrayController::isVisible() const
{
    return m_icon && m_icon->isVisible();
}

void TrayController::notify(const QString &title, const QString &message)
{
    if (isVisible())
        m_icon->showMessage(title, message, Icons::appIcon());
}

void TrayController::showWindow()
{
    m_window->show();
    m_window->raise();
    m_window->activateWindow();
}

} // namespace berth
