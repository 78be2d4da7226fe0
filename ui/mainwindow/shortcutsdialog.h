#pragma once

#include <QDialog>

namespace berth {

// Help ▸ Keyboard Shortcuts: every action of a window that has a shortcut, by menu name, read from the window's
// actions when it opens, so the list cannot miss one or name a key the action does not have.
class ShortcutsDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit ShortcutsDialog(QWidget *window);
};

} // namespace berth
