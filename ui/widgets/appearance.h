#pragma once

#include <QCoreApplication>
#include <QPalette>
#include <QString>

namespace berth {

// The dashboard's look: the desktop's own (System), or Qt's Fusion style in a light or a dark
// palette, for desktops that offer no dark mode to follow. Remembers the desktop's style and
// palette when made, so that System can return to them without a restart.
class Appearance final
{
    Q_DECLARE_TR_FUNCTIONS(berth::Appearance)

public:
    enum class Mode
    {
        System,
        Light,
        Dark,
    };

    Appearance();
    ~Appearance(); // back to the desktop's look
    Q_DISABLE_COPY_MOVE(Appearance)

    void apply(Mode mode);
    Mode mode() const { return m_mode; }

    // As saved in the settings: "system", "light", "dark" (anything else is System).
    static Mode fromName(const QString &name);
    static QString name(Mode mode);
    static QString label(Mode mode); // as shown in Settings

    static QPalette lightPalette();
    static QPalette darkPalette();

private:
    QString m_systemStyle;
    QPalette m_systemPalette;
    Mode m_mode = Mode::System;
};

} // namespace berth
