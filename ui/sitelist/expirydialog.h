#pragma once

#include "core/error.h"
#include "storage/deployment.h"
#include "ui/mainwindow/dashboardcontext.h"

#include <QDialog>
#include <QFutureWatcher>
#include <QTimer>
#include <optional>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QPushButton;
QT_END_NAMESPACE

namespace berth {

// When a site goes offline by itself (as on a delete: its address and plan slot freed): the time left, counting
// down while the dialog is open, and the owner's choices: extend it by a span (from the present expiry, or from now
// for a site that does not expire or whose expiry is past), or remove the expiry so the site stays.
class ExpiryDialog final : public QDialog
{
    Q_OBJECT

public:
    ExpiryDialog(const DashboardContext &context, const Deployment &deployment, QWidget *parent = nullptr);

    // The spans offered, in seconds.
    static QList<qint64> spans();

private:
    void showState();
    void extend();
    void removeExpiry();
    void save(std::optional<QDateTime> expiresAt);
    void onSaved(const Result<Deployment> &result);

    DashboardContext m_context;
    Deployment m_deployment;
    QLabel *m_state;
    QComboBox *m_span;
    QLabel *m_spanLabel; // extend by, or go offline in: the span's meaning
    QPushButton *m_extendButton;
    QPushButton *m_neverButton;
    QLabel *m_message;
    QTimer m_countdown;
    QFutureWatcher<Result<Deployment>> m_watcher;
};

} // namespace berth
