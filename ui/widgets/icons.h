#pragma once

#include <QIcon>

namespace berth {

// Berth's own icons, from resources/icons/<name>.svg.
namespace Icons {
QIcon icon(const QString &name);
QIcon appIcon();
} // namespace Icons

} // namespace berth
