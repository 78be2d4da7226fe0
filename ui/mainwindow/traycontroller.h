#pragma once

#include "ui/mainwindow/notifier.h"

#include <QObject>

QT_BEGIN_NAMESPACE
class QMenu;
class QSystemTrayIcon;
class QWidget;
QT_END_NAMESPACE

namespace berth {

// The system tray icon that keeps Berth serving after its window closes: Show and Quit in its
// menu, and notifications. Does nothing where the desktop has no tray.
class TrayController final : public QObject, public Notifier
{
    Q_OBJECT

public:
    explicit TrayController(QWidget *window);
    ~TrayController() override;

    bool isAvailable() const;
    void setEnabled(bool enabled);
    bool isVisible() const;
    void notify(const QString &title, const QString &message) override;

Q_SIGNALS:
    // "Quit Berth" chosen: the window decides when the process may end (a publish may be committing).
    void quitRequested();

private:
    void showWindow();

    QWidget *m_window;
    QSystemTrayIcon *m_icon = nullptr;
    QMenu *m_menu = nullptr;
};

} // namespace berth
