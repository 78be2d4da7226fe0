#pragma once

#include <QIconEngine>

namespace berth {

// Draws one of Berth's SVG icons at whatever size and pixel ratio is asked for, so icons stay sharp
// on HiDPI screens. "currentColor" in the SVG takes the palette's text colour for the icon's mode
// when it is drawn, so the same file is right in light and dark palettes and greys out when disabled.
class SvgIconEngine final : public QIconEngine
{
public:
    explicit SvgIconEngine(const QString &resourcePath);

    void paint(QPainter *painter, const QRect &rect, QIcon::Mode mode, QIcon::State state) override;
    QPixmap pixmap(const QSize &size, QIcon::Mode mode, QIcon::State state) override;
    QPixmap scaledPixmap(const QSize &size, QIcon::Mode mode, QIcon::State state, qreal scale) override;
    QSize actualSize(const QSize &size, QIcon::Mode mode, QIcon::State state) override;
    QIconEngine *clone() const override;
    QString key() const override;
    QString iconName() override;
    bool isNull() override;

    // The SVG text with currentColor replaced by the colour for the mode.
    QByteArray coloured(QIcon::Mode mode) const;

private:
    QString m_path;
    QByteArray m_svg;
};

} // namespace berth
