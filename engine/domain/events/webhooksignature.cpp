#include "domain/events/webhooksignature.h"

#include <QMessageAuthenticationCode>

namespace berth {

QByteArray webhookSignature(const QByteArray &secret, qint64 unixSeconds, const QByteArray &body)
{
    const QByteArray t = QByteArray::number(unixSeconds);
    const QByteArray mac = QMessageAuthenticationCode::hash(t + '.' + body, secret, QCryptographicHash::Sha256).toHex();
    return "t=" + t + ",v1=" + mac;
}

} // namespace berth
