#pragma once

#include <QToolButton>

namespace berth {

// A button for an action, with its icon and text, enabled with the action. Named
// after it: "exportCsvAction" gets the button "exportCsvButton".
class ActionButton final : public QToolButton
{
    Q_OBJECT

public:
    explicit ActionButton(QAction *action, QWidget *parent = nullptr);
};

} // namespace berth
