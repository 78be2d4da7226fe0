#pragma once

#include "dashboardcontext.h"

#include <QDialog>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QLabel;
class QLineEdit;
QT_END_NAMESPACE

namespace berth {

// Where Berth serves and keeps its data (applied at the next start), the tray behaviour, and the
// plan limits in force.
class SettingsDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit SettingsDialog(const DashboardContext &context, QWidget *parent = nullptr);

    void accept() override;

private:
    QWidget *planLimits();

    DashboardContext m_context;
    QLineEdit *m_listen;
    QLineEdit *m_siteDomain;
    QLineEdit *m_dataDir;
    QCheckBox *m_tray;
    QLabel *m_message;
};

} // namespace berth
