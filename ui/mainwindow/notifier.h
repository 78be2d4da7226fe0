#pragma once

#include <QString>

namespace berth {

// Where the dashboard sends a desktop notification: the tray icon in the app, a recorder in tests
// (the offscreen platform has no tray).
class Notifier
{
public:
    virtual ~Notifier() = default;
    virtual void notify(const QString &title, const QString &message) = 0;
};

} // namespace berth
