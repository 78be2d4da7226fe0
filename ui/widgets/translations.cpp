#include "ui/widgets/translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>

using namespace Qt::StringLiterals;

namespace berth {

Translations::~Translations()
{
    remove();
}

bool Translations::install(const QLocale &locale)
{
    remove();
    // qt_add_translations embeds berth_<lang>.qm under :/i18n. Translators installed later are asked
    // first, so English goes in first, as the fallback.
    if (m_english.load(u":/i18n/berth_en.qm"_s))
        QCoreApplication::installTranslator(&m_english);
    const bool english = locale.language() == QLocale::English;
    const bool berth = english ? !m_english.isEmpty() : m_berth.load(locale, u"berth"_s, u"_"_s, u":/i18n"_s);
    if (berth && !english)
        QCoreApplication::installTranslator(&m_berth);
    if (m_qt.load(locale, u"qtbase"_s, u"_"_s, QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(&m_qt);
    m_installed = true;
    return berth;
}

void Translations::remove()
{
    if (!m_installed)
        return;
    QCoreApplication::removeTranslator(&m_english);
    QCoreApplication::removeTranslator(&m_berth);
    QCoreApplication::removeTranslator(&m_qt);
    m_installed = false;
}

} // namespace berth
