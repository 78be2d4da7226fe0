// The SVG icons: every one loads, renders at the device pixel ratio asked for (sharp on HiDPI), and
// takes its colour from the palette, so it reads on light and dark windows and greys out when disabled.
#include "ui/widgets/icons.h"

#include <QApplication>
#include <QDirIterator>
#include <QPalette>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {
// The mean lightness of the opaque pixels: what a person sees of the glyph.
int inkLightness(const QPixmap &pixmap)
{
    const QImage image = pixmap.toImage().convertToFormat(QImage::Format_ARGB32);
    qint64 sum = 0;
    qint64 count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (c.alpha() > 200) {
                sum += c.lightness();
                ++count;
            }
        }
    }
    return count == 0 ? -1 : int(sum / count);
}

QPalette palette(const QColor &window, const QColor &text)
{
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    return p;
}
} // namespace

class TestIcons : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { QApplication::setPalette(QPalette()); }

    void everyIconLoads()
    {
        QDirIterator it(u":/icons"_s);
        int count = 0;
        while (it.hasNext()) {
            const QString name = QFileInfo(it.next()).baseName();
            const QIcon icon = Icons::icon(name);
            QVERIFY2(!icon.isNull(), qPrintable(name));
            QVERIFY2(inkLightness(icon.pixmap(QSize(24, 24))) >= 0, qPrintable(name + u" draws nothing"_s));
            ++count;
        }
        QVERIFY(count >= 20);
        QVERIFY(Icons::icon(u"no-such-icon"_s).isNull());
    }

    void rendersAtTheDevicePixelRatio()
    {
        const QPixmap pixmap = Icons::icon(u"copy"_s).pixmap(QSize(16, 16), 2.0);
        QCOMPARE(pixmap.size(), QSize(32, 32));
        QCOMPARE(pixmap.devicePixelRatio(), 2.0);
    }

    void followsLightAndDarkPalettes()
    {
        QApplication::setPalette(palette(Qt::white, QColor(0x20, 0x20, 0x20)));
        const int onLight = inkLightness(Icons::icon(u"lock"_s).pixmap(QSize(32, 32)));
        QApplication::setPalette(palette(QColor(0x20, 0x20, 0x20), QColor(0xee, 0xee, 0xee)));
        const int onDark = inkLightness(Icons::icon(u"lock"_s).pixmap(QSize(32, 32)));
        const int disabled = inkLightness(Icons::icon(u"lock"_s).pixmap(QSize(32, 32), QIcon::Disabled));
        QVERIFY2(onLight < 80, QByteArray::number(onLight));
        QVERIFY2(onDark > 180, QByteArray::number(onDark));
        QVERIFY2(disabled > 100 && disabled < 160, QByteArray::number(disabled));
    }

    void colouredIconsKeepTheirColours()
    {
        QApplication::setPalette(palette(QColor(0x20, 0x20, 0x20), QColor(0xee, 0xee, 0xee)));
        const QImage image = Icons::appIcon().pixmap(QSize(64, 64)).toImage();
        const QColor corner = image.pixelColor(12, 40); // inside the blue tile
        QVERIFY2(corner.blue() > corner.red() + 60, qPrintable(corner.name()));
    }
};

QTEST_MAIN(TestIcons)
#include "tst_icons.moc"
