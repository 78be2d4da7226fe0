#include "ui/widgets/qrpanel.h"

#include "storage/deployment.h"
#include "ui/widgets/qraddress.h"
#include "ui/widgets/qrcodeview.h"

#include <QLabel>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

QrPanel::QrPanel(QWidget *parent)
    : QWidget(parent)
    , m_code(new QrCodeView(this))
    , m_caption(new QLabel(this))
{
    m_code->setObjectName(u"qrCodeView"_s);
    m_code->setAccessibleName(tr("QR code of the site's address"));
    m_caption->setObjectName(u"qrCaptionLabel"_s);
    m_caption->setAlignment(Qt::AlignHCenter);
    m_caption->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_code, 0, Qt::AlignHCenter);
    layout->addWidget(m_caption);
    layout->addStretch();
}

void QrPanel::showSite(const Engine &engine, const Deployment &deployment)
{
    m_code->setText(qrAddress(engine, deployment));
    m_code->setFixedSize(m_code->sizeHint());
    m_caption->setText(
        deployment.isProtected ? tr("Scan to open the share link on a phone") : tr("Scan to open on a phone"));
    m_caption->setMaximumWidth(m_code->width()); // wrapped under the code rather than widening the column
}

} // namespace berth
