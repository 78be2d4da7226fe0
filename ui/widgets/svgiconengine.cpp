#include "ui/widgets/svgiconengine.h"

#include <QFile>
#include <QGuiApplication>
#include <QPainter>
#include <QPalette>
#include <QPixmapCache>
#include <QSvgRenderer>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
QColor colourFor(QIcon::Mode mode)
{
    const QPalette palette = QGuiApplication::palette();
    switch (mode) {
    case QIcon::Disabled:
        return palette.color(QPalette::Disabled, QPalette::WindowText);
    case QIcon::Selected:
        return palette.color(QPalette::Active, QPalette::HighlightedText);
    default:
        return palette.color(QPalette::Active, QPalette::WindowText);
    }
}
} // namespace

SvgIconEngine::SvgIconEngine(const QString &resourcePath)
    : m_path(resourcePath)
{
    QFile file(resourcePath);
    if (file.open(QIODevice::ReadOnly))
        m_svg = file.readAll();
}

QByteArray SvgIconEngine::coloured(QIcon::Mode mode) const
{
    QByteArray svg = m_svg;
    return svg.replace("currentColor", colourFor(mode).name(QColor::HexRgb).toLatin1());
}

void SvgIconEngine::paint(QPainter *painter, const QRect &rect, QIcon::Mode mode, QIcon::State)
{
    QSvgRenderer renderer(coloured(mode));
    renderer.render(painter, QRectF(rect));
}

QPixmap SvgIconEngine::pixmap(const QSize &size, QIcon::Mode mode, QIcon::State state)
{
    return scaledPixmap(size, mode, state, 1.0);
}

QPixmap SvgIconEngine::scaledPixmap(const QSize &size, QIcon::Mode mode, QIcon::State, qreal scale)
{
    // size is in device pixels already when QIcon asks for a HiDPI pixmap.
    const QString cacheKey = u"berth-icon:%1:%2x%3:%4"_s.arg(m_path)
                                 .arg(size.width())
                                 .arg(size.height())
                                 .arg(colourFor(mode).name(QColor::HexArgb));
    QPixmap cached;
    if (!QPixmapCache::find(cacheKey, &cached)) {
        cached = QPixmap(size);
        cached.fill(Qt::transparent);
        QPainter painter(&cached);
        QSvgRenderer renderer(coloured(mode));
        renderer.render(&painter, QRectF(QPointF(0, 0), QSizeF(size)));
        painter.end();
        QPixmapCache::insert(cacheKey, cached);
    }
    cached.setDevicePixelRatio(scale);
    return cached;
}

QSize SvgIconEngine::actualSize(const QSize &size, QIcon::Mode, QIcon::State)
{
    return size;
}
QIconEngine *SvgIconEngine::clone() const
{
    return new SvgIconEngine(m_path);
}
QString SvgIconEngine::key() const
{
    return u"berth-svg"_s;
}
QString SvgIconEngine::iconName()
{
    return m_path;
}
bool SvgIconEngine::isNull()
{
    return m_svg.isEmpty();
}

} // namespace berth
