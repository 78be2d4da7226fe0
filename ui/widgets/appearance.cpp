#include "ui/widgets/appearance.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
const QString kFusion = u"Fusion"_s;
}

Appearance::Appearance()
    : m_systemStyle(QApplication::style()->name())
    , m_systemPalette(QApplication::palette())
{
}

Appearance::~Appearance()
{
    apply(Mode::System);
}

void Appearance::apply(Mode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    switch (mode) {
    case Mode::System:
        QApplication::setStyle(QStyleFactory::create(m_systemStyle));
        QApplication::setPalette(m_systemPalette);
        return;
    case Mode::Light:
        QApplication::setStyle(QStyleFactory::create(kFusion));
        QApplication::setPalette(lightPalette());
        return;
    case Mode::Dark:
        QApplication::setStyle(QStyleFactory::create(kFusion));
        QApplication::setPalette(darkPalette());
        return;
    }
}

Appearance::Mode Appearance::fromName(const QString &name)
{
    if (name == u"light"_s)
        return Mode::Light;
    if (name == u"dark"_s)
        return Mode::Dark;
    return Mode::System;
}

QString Appearance::name(Mode mode)
{
    switch (mode) {
    case Mode::Light:
        return u"light"_s;
    case Mode::Dark:
        return u"dark"_s;
    case Mode::System:
        break;
    }
    return u"system"_s;
}

QString Appearance::label(Mode mode)
{
    switch (mode) {
    case Mode::Light:
        return tr("Light");
    case Mode::Dark:
        return tr("Dark");
    case Mode::System:
        break;
    }
    return tr("Same as the system");
}

QPalette Appearance::lightPalette()
{
    // Fusion's own, with its selection blue darkened so that the white text of a selected row reads on it (4.6:1
    // against Fusion's 3.7:1).
    QPalette palette = QApplication::style()->standardPalette();
    const QColor highlight(0x2a, 0x7b, 0xae);
    for (const auto group : {QPalette::Active, QPalette::Inactive})
        palette.setColor(group, QPalette::Highlight, highlight);
    return palette;
}

QPalette Appearance::darkPalette()
{
    // Greys with enough contrast for text (WCAG AA on Base and Window), and a blue that reads on them.
    const QColor window(0x2b, 0x2d, 0x30);
    const QColor base(0x1f, 0x20, 0x22);
    const QColor text(0xe6, 0xe6, 0xe6);
    const QColor disabledText(0x80, 0x80, 0x80);
    const QColor highlight(0x38, 0x75, 0xc7); // white on it: 4.6:1
    QPalette palette;
    palette.setColor(QPalette::Window, window);
    palette.setColor(QPalette::WindowText, text);
    palette.setColor(QPalette::Base, base);
    palette.setColor(QPalette::AlternateBase, window);
    palette.setColor(QPalette::ToolTipBase, base);
    palette.setColor(QPalette::ToolTipText, text);
    palette.setColor(QPalette::PlaceholderText, QColor(0xa0, 0xa0, 0xa0));
    palette.setColor(QPalette::Text, text);
    palette.setColor(QPalette::Button, QColor(0x35, 0x37, 0x3b));
    palette.setColor(QPalette::ButtonText, text);
    palette.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    palette.setColor(QPalette::Light, QColor(0x4a, 0x4d, 0x52));
    palette.setColor(QPalette::Midlight, QColor(0x3e, 0x41, 0x45));
    palette.setColor(QPalette::Mid, QColor(0x25, 0x26, 0x29));
    palette.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    palette.setColor(QPalette::Shadow, Qt::black);
    palette.setColor(QPalette::Highlight, highlight);
    palette.setColor(QPalette::HighlightedText, Qt::white);
    palette.setColor(QPalette::Link, QColor(0x8a, 0xb4, 0xf8));
    palette.setColor(QPalette::LinkVisited, QColor(0xc5, 0x8a, 0xf9));
    for (const auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        palette.setColor(QPalette::Disabled, role, disabledText);
    palette.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x50, 0x50, 0x50));
    return palette;
}

} // namespace berth
