#pragma once

#include "core/error.h"
#include "storage/deployment.h"
#include "ui/mainwindow/dashboardcontext.h"

#include <QGroupBox>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;
QT_END_NAMESPACE

namespace berth {

// A site's custom domains in Edit Details: the names it answers to besides its own address, added one at a time and
// checked as they are added by the engine's own rules (the name, the limit, names other sites hold, who may add
// them), each with its certificate's state while Berth obtains certificates by ACME. Nothing is stored here: the
// dialog sends names() with its update, as the API's PUT does.
class DomainsEditor final : public QGroupBox
{
    Q_OBJECT

public:
    DomainsEditor(const DashboardContext &context, const Deployment &deployment, QWidget *parent = nullptr);

    QStringList names() const { return m_names; }
    bool changed() const { return m_names != m_saved; }
    // A refusal of the names in the dashboard's words; name, when given, is the one refused.
    static QString describe(const Error &error, const QString &name = {});

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    bool mayAdd() const;
    void add();
    void removeCurrent();
    void showNames();
    void updateControls();

    DashboardContext m_context;
    QString m_deploymentId;
    QStringList m_saved; // as stored, sorted
    QStringList m_names; // as edited, sorted
    QTreeWidget *m_list;
    QLineEdit *m_name = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_remove = nullptr;
    QLabel *m_message;
};

} // namespace berth
