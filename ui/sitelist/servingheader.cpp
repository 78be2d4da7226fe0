#include "ui/sitelist/servingheader.h"

#include "domain/siterules/siteaddresses.h"
#include "instance/engine.h"
#include "lan/lanservice.h"
#include "ui/settings/appsettings.h"
#include "ui/widgets/iconlabel.h"
#include "ui/widgets/icons.h"
#include "ui/widgets/prompter.h"
#include "ui/widgets/theme.h"

#include <QCheckBox>
#include <QDir>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr int kDotSize = 12;
constexpr int kFilterMinWidth = 180;
constexpr int kFilterMaxWidth = 260;
} // namespace

ServingHeader::ServingHeader(Engine &engine, AppSettings &settings, Prompter &prompter, QWidget *parent)
    : QWidget(parent)
    , m_engine(engine)
    , m_serving(new QLabel(this))
    , m_filter(new QLineEdit(this))
    , m_lanSwitch(new QCheckBox(tr("Share on &local network"), this))
    , m_lanLabel(new QLabel(this))
{
    setObjectName(u"headerWidget"_s);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::AlternateBase);
    m_serving->setObjectName(u"servingLabel"_s);
    m_serving->setAccessibleName(tr("Where Berth is serving"));
    m_serving->setTextFormat(Qt::RichText);
    m_serving->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_serving->setOpenExternalLinks(false);
    connect(
        m_serving, &QLabel::linkActivated, this, [&prompter](const QString &link) { prompter.openUrl(QUrl(link)); });
    auto *dot = new IconLabel(Icons::icon(u"serving"_s), kDotSize, this);
    m_filter->setObjectName(u"filterLineEdit"_s);
    m_filter->setAccessibleName(tr("Filter sites"));
    m_filter->setPlaceholderText(tr("Filter sites"));
    m_filter->setClearButtonEnabled(true);
    m_filter->addAction(Icons::icon(u"search"_s), QLineEdit::LeadingPosition);
    m_filter->setMinimumWidth(kFilterMinWidth);
    m_filter->setMaximumWidth(kFilterMaxWidth);

    m_lanSwitch->setObjectName(u"lanSharingCheckBox"_s);
    m_lanSwitch->setToolTip(tr("Other devices on this network (phones, other computers) can open the sites: as "
                               "<slug>.local and on a port of each site's own"));
    m_lanLabel->setObjectName(u"lanAddressesLabel"_s);
    m_lanLabel->setAccessibleName(tr("Local network addresses"));
    m_lanLabel->setWordWrap(true);
    m_lanLabel->setTextFormat(Qt::RichText);
    m_lanLabel->setTextInteractionFlags(Qt::TextBrowserInteraction);
    connect(
        m_lanLabel, &QLabel::linkActivated, this, [&prompter](const QString &link) { prompter.openUrl(QUrl(link)); });
    connect(m_lanSwitch, &QCheckBox::toggled, this, [this, &settings](bool share) {
        settings.setLanSharing(share);
        settings.sync();
        m_engine.lan().setEnabled(share);
    });
    connect(&engine.lan(), &LanService::changed, this, &ServingHeader::showLan);

    auto *top = new QHBoxLayout;
    top->addWidget(dot);
    top->addWidget(m_serving, 1);
    top->addWidget(m_filter);
    auto *lan = new QHBoxLayout;
    lan->addSpacing(kDotSize + 6);
    lan->addWidget(m_lanSwitch);
    lan->addWidget(m_lanLabel, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 8, 12, 8);
    layout->addLayout(top);
    layout->addLayout(lan);
    showServing();
    showLan();
}

void ServingHeader::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) { // the links take the new palette's colour
        showServing();
        showLan();
    }
}

QString ServingHeader::link(const QString &url) const
{
    return Theme::linkHtml(url, palette(), backgroundRole());
}

void ServingHeader::showServing()
{
    const SiteAddresses &addresses = m_engine.addresses();
    QString dataDir = QDir::toNativeSeparators(m_engine.dataDir());
    if (const QString home = QDir::homePath(); dataDir.startsWith(home + u'/'))
        dataDir = u"~"_s + dataDir.mid(home.size());
    m_serving->setText(
        tr("<b>Serving</b> · API %1 · Sites %2 · Data %3")
            .arg(link(addresses.baseUrl()), addresses.siteUrl(u"<slug>"_s).toHtmlEscaped(), dataDir.toHtmlEscaped()));
}

void ServingHeader::showLan()
{
    const LanService &lan = m_engine.lan();
    {
        const QSignalBlocker blocker(m_lanSwitch);
        m_lanSwitch->setChecked(lan.isEnabled());
    }
    if (!lan.isEnabled()) {
        m_lanLabel->setText(tr("Only this computer can open the sites."));
        return;
    }
    QStringList links;
    for (const QString &url : lan.apiUrls())
        links.append(link(url));
    QString text = links.isEmpty() ? tr("No address on a local network right now.")
                                   : tr("API %1 · Sites at &lt;slug&gt;.local:%2 and on ports of their own")
                                         .arg(links.join(u" · "_s))
                                         .arg(lan.port());
    if (const QString notice = lan.notice(); !notice.isEmpty())
        text += u"<br>"_s + notice.toHtmlEscaped();
    m_lanLabel->setText(text);
}

ServingHeader::~ServingHeader() = default;

} // namespace berth
