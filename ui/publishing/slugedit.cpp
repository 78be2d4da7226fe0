#include "ui/publishing/slugedit.h"

#include "domain/deploy/slugrules.h"
#include "domain/siterules/siteaddresses.h"
#include "domain/siterules/sitetable.h"
#include "ui/widgets/theme.h"

#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

SlugEdit::SlugEdit(const SiteTable &sites, const SiteAddresses &addresses, QWidget *parent)
    : QWidget(parent)
    , m_sites(sites)
    , m_addresses(addresses)
    , m_edit(new QLineEdit(this))
    , m_message(new QLabel(this))
{
    m_edit->setObjectName(u"slugLineEdit"_s);
    m_edit->setAccessibleName(tr("Slug"));
    m_edit->setMaxLength(SlugRules::kMaxLength + 8); // a little slack so the rule, not the field, explains the limit
    m_edit->setPlaceholderText(tr("my-site"));
    m_message->setObjectName(u"slugMessageLabel"_s);
    m_message->setAccessibleName(tr("Slug check"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_edit);
    layout->addWidget(m_message);
    setFocusProxy(m_edit);

    connect(m_edit, &QLineEdit::textEdited, this, [this](const QString &text) {
        // Slugs are lower case; typing "My Site" should not be a mistake to correct by hand.
        const QString lowered = text.toLower().replace(u' ', u'-');
        if (lowered != text) {
            const int cursor = m_edit->cursorPosition();
            m_edit->setText(lowered);
            m_edit->setCursorPosition(cursor);
        }
    });
    connect(m_edit, &QLineEdit::textChanged, this, &SlugEdit::check);
    check();
}

QString SlugEdit::slug() const
{
    return m_edit->text().trimmed();
}

void SlugEdit::setSlug(const QString &slug)
{
    m_edit->setText(slug);
    check();
}

void SlugEdit::showProblem(const QString &message)
{
    m_message->setText(message);
    Theme::setTone(m_message, Theme::Tone::Error);
    if (m_valid) {
        m_valid = false;
        Q_EMIT validityChanged(false);
    }
}

void SlugEdit::check()
{
    const QString current = slug();
    QString problem;
    if (!SlugRules::validate(current).isEmpty())
        problem = tr("Use 3 to 63 characters: a–z and 0–9 in groups joined by single hyphens, with at least one "
                     "hyphen (e.g. my-site).");
    else if (current != m_ownSlug && m_sites.find(current))
        problem = tr("“%1” is already taken by another site. Choose another slug.").arg(current);

    const bool valid = problem.isEmpty();
    if (valid) {
        m_message->setText(tr("The address will be %1").arg(m_addresses.siteUrl(current)));
        Theme::setTone(m_message, Theme::Tone::Normal);
    } else {
        m_message->setText(problem);
        Theme::setTone(m_message, Theme::Tone::Error);
    }
    if (valid != m_valid) {
        m_valid = valid;
        Q_EMIT validityChanged(valid);
    }
}

} // namespace berth
