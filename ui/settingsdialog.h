#pragma once

#include "dashboardcontext.h"
#include "domain/plantable.h"

#include <QDialog>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
QT_END_NAMESPACE

namespace berth {

// Where Berth serves and keeps its data (applied at the next start), the tray behaviour, and the
// plan limits (applied at once when saved).
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

    DashboardContext m_context;
    Scope m_scope;
    QLineEdit *m_listen;
    QLineEdit *m_siteDomain;
    QLineEdit *m_dataDir;
    QSpinBox *m_threads;
    QCheckBox *m_lanSharing;
    QCheckBox *m_tray;
    QComboBox *m_appearance = nullptr;
    QLabel *m_message;
    QSpinBox *m_versionsKept = nullptr; // the owner's: versions each site keeps (issue 15)
    QList<QSpinBox *> m_limits; // four a plan, in PlanTable::plans() order
    bool m_planLimitsChanged = false;
};

} // namespace berth
