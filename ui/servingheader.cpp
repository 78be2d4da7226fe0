#include "servingheader.h"

#include "domain/siteaddresses.h"
#include "engine.h"
#include "iconlabel.h"
#include "icons.h"
#include "prompter.h"

#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr int kDotSize = 12;
constexpr int kFilterMinWidth = 180;
constexpr int kFilterMaxWidth = 260;
} // namespace

ServingHeader::ServingHeader(const Engine &engine, Prompter &prompter, QWidget *parent)
    : QWidget(parent)
    , m_filter(new QLineEdit(this))
{
    const SiteAddresses &addresses = engine.addresses();
    setObjectName(u"headerWidget"_s);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::AlternateBase);
    auto *status = new QLabel(this);
    status->setObjectName(u"servingLabel"_s);
    status->setAccessibleName(tr("Where Berth is serving"));
    status->setTextFormat(Qt::RichText);
    status->setTextInteractionFlags(Qt::TextBrowserInteraction);
    status->setOpenExternalLinks(false);
    QString dataDir = QDir::toNativeSeparators(engine.dataDir());
    if (const QString home = QDir::homePath(); dataDir.startsWith(home + u'/'))
        dataDir = u"~"_s + dataDir.mid(home.size());
    status->setText(tr("<b>Serving</b> · API <a href=\"%1\">%1</a> · Sites %2 · Data %3")
                        .arg(addresses.baseUrl().toHtmlEscaped(), addresses.siteUrl(u"<slug>"_s).toHtmlEscaped(),
                            dataDir.toHtmlEscaped()));
    connect(status, &QLabel::linkActivated, this, [&prompter](const QString &link) { prompter.openUrl(QUrl(link)); });
    auto *dot = new IconLabel(Icons::icon(u"serving"_s), kDotSize, this);
    m_filter->setObjectName(u"filterLineEdit"_s);
    m_filter->setAccessibleName(tr("Filter sites"));
    m_filter->setPlaceholderText(tr("Filter sites"));
    m_filter->setClearButtonEnabled(true);
    m_filter->addAction(Icons::icon(u"search"_s), QLineEdit::LeadingPosition);
    m_filter->setMinimumWidth(kFilterMinWidth);
    m_filter->setMaximumWidth(kFilterMaxWidth);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(12, 8, 12, 8);
    layout->addWidget(dot);
    layout->addWidget(status, 1);
    layout->addWidget(m_filter);
}

ServingHeader::~ServingHeader() = default;

} // namespace berth
