#pragma once

#include <QIcon>
#include <QWidget>

namespace berth {

// An icon shown as a picture (the empty window's drop target, a sheet's header). Unlike a QLabel
// with a pixmap it is drawn from the icon at paint time, so it follows palette and screen changes.
class IconLabel final : public QWidget
{
    Q_OBJECT

public:
    IconLabel(const QIcon &icon, int size, QWidget *parent = nullptr);

    QSize sizeHint() const override { return {m_size, m_size}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QIcon m_icon;
    int m_size;
};

} // namespace berth
