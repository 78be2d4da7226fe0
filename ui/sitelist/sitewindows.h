#pragma once

#include <QString>
#include <QWidget>

namespace berth::SiteWindows {

// The site's window of type T beside the dashboard (submissions, traffic, notifications): at most one per site,
// raised when asked for again, made by make() otherwise and deleted when closed. T has deploymentId().
template<typename T, typename Make>
T *raiseOrOpen(QWidget *parent, const QString &deploymentId, Make make)
{
    T *window = nullptr;
    const auto open = parent->findChildren<T *>();
    for (T *candidate : open) {
        if (candidate->deploymentId() == deploymentId && candidate->isVisible()) // a hidden one is closing
            window = candidate;
    }
    if (!window) {
        window = make();
        window->setAttribute(Qt::WA_DeleteOnClose);
    }
    window->show();
    window->raise();
    window->activateWindow();
    return window;
}

} // namespace berth::SiteWindows
