#include "ui/widgets/iconlabel.h"

#include <QPainter>

namespace berth {

IconLabel::IconLabel(const QIcon &icon, int size, QWidget *parent)
    : QWidget(parent)
    , m_icon(icon)
    , m_size(size)
{
    setFixedSize(size, size);
    setAttribute(Qt::WA_TransparentForMouseEvents);
}

void IconLabel::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    m_icon.paint(&painter, rect(), Qt::AlignCenter, isEnabled() ? QIcon::Normal : QIcon::Disabled);
}

} // namespace berth
