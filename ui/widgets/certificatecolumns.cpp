#include "ui/widgets/certificatecolumns.h"

#include "ui/widgets/timetext.h"

#include <QTreeWidgetItem>

using namespace Qt::StringLiterals;

namespace berth {

QStringList CertificateColumns::headers()
{
    return {tr("Certificate"), tr("Expires"), tr("Last error")};
}

QString CertificateColumns::stateText(CertificateStatus::State state)
{
    switch (state) {
    case CertificateStatus::State::None:
        return tr("None yet");
    case CertificateStatus::State::Pending:
        return tr("Being obtained");
    case CertificateStatus::State::Active:
        return tr("Active");
    case CertificateStatus::State::Failed:
        return tr("Failed");
    }
    return tr("None yet");
}

void CertificateColumns::show(QTreeWidgetItem *item, int firstColumn, const CertificateStatus &status)
{
    item->setText(firstColumn, stateText(status.state));
    item->setText(firstColumn + 1, status.expiresAt.isValid() ? TimeText::brief(status.expiresAt) : u"–"_s);
    item->setToolTip(firstColumn + 1, status.expiresAt.isValid() ? TimeText::full(status.expiresAt) : QString());
    item->setText(firstColumn + 2, status.error);
    QString tip = status.error;
    if (status.state == CertificateStatus::State::Failed && status.nextAttemptAt.isValid())
        tip = tr("%1\nNext attempt: %2").arg(status.error, TimeText::full(status.nextAttemptAt));
    for (int column = 0; column <= firstColumn + 2; ++column) {
        if (column != firstColumn + 1)
            item->setToolTip(column, tip);
    }
}

} // namespace berth
