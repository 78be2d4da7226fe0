#pragma once

#include <QLocale>
#include <QTranslator>

namespace berth {

// The dashboard's translation for a locale plus Qt's own (standard buttons, dialogs), installed on
// the application for as long as this object lives. English is always installed underneath: the
// source strings are English, but their plural forms ("%n site(s)") come from berth_en.ts.
class Translations final
{
public:
    Translations() = default;
    ~Translations();
    Q_DISABLE_COPY_MOVE(Translations)

    // True when Berth has a translation for the locale.
    bool install(const QLocale &locale);
    // True when Qt's own translation for the locale was found (Debian: qt6-translations-l10n).
    bool hasQtTranslation() const { return !m_qt.isEmpty(); }

private:
    void remove();

    QTranslator m_english;
    QTranslator m_berth;
    QTranslator m_qt;
    bool m_installed = false;
};

} // namespace berth
