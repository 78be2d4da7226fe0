#pragma once

#include "domain/acme/acmemanager.h"

#include <QCoreApplication>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QTreeWidgetItem;
QT_END_NAMESPACE

namespace berth {

// The three columns a name's certificate by ACME takes in a list of names (a site's domains in Edit Details, every
// name in Settings): its state, when it expires and why its last order failed, worded for the dashboard. The error
// elides in its column and shows whole in the row's tooltip.
class CertificateColumns final
{
    Q_DECLARE_TR_FUNCTIONS(berth::CertificateColumns)

public:
    static constexpr int kCount = 3;

    static QStringList headers();
    static QString stateText(CertificateStatus::State state);
    // Fills the item's columns from firstColumn on.
    static void show(QTreeWidgetItem *item, int firstColumn, const CertificateStatus &status);
};

} // namespace berth
