#pragma once

#include "core/error.h"
#include "storage/deployment.h"
#include "ui/mainwindow/dashboardcontext.h"

#include <QDialog>
#include <QFutureWatcher>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
QT_END_NAMESPACE

namespace berth {

class DomainsEditor;

// Edits what a deployment says about itself (title, description, favicon emoji and single-page mode) and the custom
// domains it answers to.
class EditDetailsDialog final : public QDialog
{
    Q_OBJECT

public:
    EditDetailsDialog(const DashboardContext &context, const Deployment &deployment, QWidget *parent = nullptr);

    void accept() override;

private:
    void onSaved(const Result<Deployment> &result);

    DashboardContext m_context;
    Deployment m_deployment;
    QFutureWatcher<Result<Deployment>> m_watcher;
    QLineEdit *m_title;
    QPlainTextEdit *m_description;
    QLineEdit *m_favicon;
    QCheckBox *m_spa;
    DomainsEditor *m_domains;
    bool m_savingDomains = false;
    QLabel *m_message;
    QPushButton *m_saveButton;
};

} // namespace berth
