#include "ui/widgets/qrcodeview.h"

#include <QPainter>
#include <cmath>

namespace berth {

namespace {

constexpr int kPreferredModulePixels = 4;
constexpr int kMinimumModulePixels = 2; // below this, phone cameras start to miss modules on a screen

} // namespace

QrCodeView::QrCodeView(QWidget *parent)
    : QWidget(parent)
{
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void QrCodeView::setText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    m_code = text.isEmpty() ? std::nullopt : QrCode::encode(text);
    setToolTip(text);
    setAccessibleDescription(text);
    updateGeometry();
    update();
}

int QrCodeView::modulesAcross() const
{
    return m_code ? m_code->size() + 2 * QrCode::kQuietZone : 0;
}

QSize QrCodeView::sizeHint() const
{
    const int side = modulesAcross() * kPreferredModulePixels;
    return {side, side};
}

QSize QrCodeView::minimumSizeHint() const
{
    const int side = modulesAcross() * kMinimumModulePixels;
    return {side, side};
}

void QrCodeView::paintEvent(QPaintEvent *)
{
    if (!m_code)
        return;
    const int across = modulesAcross();
    const int side = qMin(width(), height());
    // Whole pixels per module where they fit (crisp edges); a fraction only when the widget is squeezed smaller.
    const qreal module = side >= across ? qreal(side / across) : qreal(side) / across;
    const qreal drawn = module * across;
    // Whole-pixel offsets too, so that every module edge falls on a pixel edge.
    const QPointF square(std::floor((width() - side) / 2.0), std::floor((height() - side) / 2.0));
    const QPointF origin = square + QPointF(std::floor((side - drawn) / 2), std::floor((side - drawn) / 2));

    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing, false);
    // White over the whole square: the quiet zone is part of the code, and what is left over only widens it.
    painter.fillRect(QRectF(square, QSizeF(side, side)), Qt::white);
    painter.translate(origin);
    painter.scale(module, module);
    // One rectangle per run of dark modules in a row: the code is vector shapes, not a scaled bitmap.
    const int size = m_code->size();
    for (int y = 0; y < size; ++y) {
        for (int x = 0; x < size;) {
            if (!m_code->isDark(x, y)) {
                ++x;
                continue;
            }
            int end = x + 1;
            while (end < size && m_code->isDark(end, y))
                ++end;
            painter.fillRect(QRectF(QrCode::kQuietZone + x, QrCode::kQuietZone + y, end - x, 1), Qt::black);
            x = end;
        }
    }
}

} // namespace berth
