#include "domain/events/deliverynode.h"

#include <QCryptographicHash>
#include <QDir>
#include <QRandomGenerator>
#include <QSysInfo>

namespace berth {

DeliveryNode DeliveryNode::forDataFolder(const QString &dataDir)
{
    // The host name too: servers on several machines often use the same path for their data folders.
    const QByteArray where = QSysInfo::machineHostName().toUtf8() + '\n' + QDir(dataDir).absolutePath().toUtf8();
    DeliveryNode node;
    node.name = QString::fromLatin1(QCryptographicHash::hash(where, QCryptographicHash::Sha256).toHex().left(16));
    node.run = node.name + u'/' + QString::number(QRandomGenerator::system()->generate64(), 16);
    return node;
}

} // namespace berth
