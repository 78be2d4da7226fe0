#pragma once

#include "storage/deployment.h"
#include "ui/mainwindow/dashboardcontext.h"

#include <QDialog>

QT_BEGIN_NAMESPACE
class QPushButton;
QT_END_NAMESPACE

namespace berth {

class SlugEdit;

// Changes a deployment's slug: live validation, conflicts explained, and the old address stops.
class RenameDialog final : public QDialog
{
    Q_OBJECT

public:
    RenameDialog(const DashboardContext &context, const Deployment &deployment, QWidget *parent = nullptr);

    void accept() override;

private:
    DashboardContext m_context;
    Deployment m_deployment;
    SlugEdit *m_slug;
    QPushButton *m_renameButton;
};

} // namespace berth
