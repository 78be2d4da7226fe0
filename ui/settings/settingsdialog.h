#pragma once

#include "domain/plans/plantable.h"
#include "ui/mainwindow/dashboardcontext.h"

#include <QDialog>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLabel;
class QTabWidget;
class QLineEdit;
class QSpinBox;
QT_END_NAMESPACE

namespace berth {

class AcmeSettingsPage;

// Where Berth serves and keeps its data, HTTPS's certificate and key, and certificates by ACME (applied at the next
// start), the tray behaviour, and the plan limits (applied at once when saved).
class SettingsDialog final : public QDialog
{
    Q_OBJECT

public:
    enum class Scope
    {
        All,
        ServerOnly, // before the data is open (Berth could not start): no plan limits
    };
    explicit SettingsDialog(const DashboardContext &context, QWidget *parent = nullptr, Scope scope = Scope::All);

    void accept() override;
    // Whether the last Save changed a plan's limits.
    bool planLimitsChanged() const { return m_planLimitsChanged; }

private:
    QWidget *planLimits();
    void showLimits(const PlanTable &table);
    PlanLimits editedLimits(int plan) const;
    // Why the HTTPS fields cannot be saved as they are; empty when they can.
    QString tlsProblem() const;
    // Says why Save cannot go on, on the field's tab, with the field focused.
    void refuse(QWidget *field, const QString &why);

    DashboardContext m_context;
    Scope m_scope;
    QLineEdit *m_listen;
    QLineEdit *m_siteDomain;
    QLineEdit *m_dataDir;
    QSpinBox *m_threads;
    QCheckBox *m_lanSharing;
    QLineEdit *m_tlsCert; // HTTPS: the certificate and key files
    QLineEdit *m_tlsKey;
    QSpinBox *m_httpsPort;
    QCheckBox *m_accessLog;
    QLineEdit *m_accessLogFile;
    QCheckBox *m_tray;
    AcmeSettingsPage *m_acme;
    QTabWidget *m_tabs;
    QComboBox *m_appearance = nullptr;
    QLabel *m_message;
    QSpinBox *m_versionsKept = nullptr; // the owner's: versions each site keeps
    QList<QSpinBox *> m_limits; // four a plan, in PlanTable::plans() order
    bool m_planLimitsChanged = false;
};

} // namespace berth
