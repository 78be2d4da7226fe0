#pragma once

#include "domain/deploy/deployprogress.h"
#include "storage/deployment.h"
#include "ui/mainwindow/dashboardcontext.h"
#include "ui/publishing/folderpackager.h"
#include "ui/publishing/incrementaldeploy.h"

#include <QDialog>
#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QStackedWidget;
QT_END_NAMESPACE

namespace berth {

class QrPanel;
class SlugEdit;

// The sheet shown for a dropped folder or .html file: proposes a slug and options for a new site
// (or confirms replacing an existing site's content), reads the files in the background, deploys
// with progress and cancel, then shows the live address with Copy and Open, a private site's share link, and a QR
// code for a phone.
class PublishDialog final : public QDialog
{
    Q_OBJECT

public:
    enum class Stage
    {
        Reading,
        Ready,
        Publishing,
        Done,
        Failed
    };

    // Publishes path as a new site.
    PublishDialog(const DashboardContext &context, const QString &path, QWidget *parent = nullptr);
    // Replaces target's whole content with path.
    PublishDialog(
        const DashboardContext &context, const QString &path, const Deployment &target, QWidget *parent = nullptr);
    ~PublishDialog() override;

    Stage stage() const { return m_stage; }
    QString deploymentId() const { return m_published ? m_published->id : QString(); }

    // Cancels reading the files, or the publish until the engine commits (the sheet closes once the engine has
    // let go of it); refused while the engine commits.
    void reject() override;
    // Berth is quitting: says so while the engine commits (quitting waits for stageChanged).
    void showFinishing();

Q_SIGNALS:
    void published(const QString &deploymentId);
    void stageChanged(berth::PublishDialog::Stage stage);

private:
    void build();
    QWidget *buildForm();
    QWidget *buildResult();
    QWidget *buildShareRow(QWidget *page);
    void onPackaged();
    void requestPublish();
    void deploy();
    void onDeployProgress(DeployProgress::Step step, qint64 done, qint64 total);
    void onDeployed(const Result<Deployment> &result);
    void showResult();
    void fitToResult();
    void updateAccess();
    bool isEditable() const;
    void showMessage(const QString &text, bool error);
    void showIssues();
    void setStage(Stage stage);
    void updateButtons();
    QString sourceName() const;
    QString publishText() const; // the publish button's verb: publish, replace or prepare, "anyway" after findings

    DashboardContext m_context;
    QString m_path;
    std::optional<Deployment> m_target; // set when replacing
    std::optional<Deployment> m_published;
    FolderPackager m_packager;
    IncrementalDeploy m_deploy; // sends only the content the engine lacks
    std::shared_ptr<DeployProgress> m_deployProgress; // of the publish in flight
    bool m_committing = false; // the engine's commit began: too late to cancel
    bool m_cancelling = false;
    bool m_finishing = false; // Berth is quitting and waits for this publish
    Stage m_stage = Stage::Reading;
    bool m_publishRequested = false;

    QStackedWidget *m_pages = nullptr;
    QLabel *m_summary = nullptr;
    SlugEdit *m_slug = nullptr;
    QLineEdit *m_title = nullptr;
    QCheckBox *m_spa = nullptr;
    QCheckBox *m_private = nullptr;
    QCheckBox *m_prepareOnly = nullptr; // replacing: a new version stored without making it live
    QLineEdit *m_password = nullptr;
    QLabel *m_passwordHint = nullptr; // a password makes the site private: said while there is one
    QLabel *m_message = nullptr;
    QLabel *m_issuesHeading = nullptr;
    QListWidget *m_issues = nullptr; // what the pre-publish checks found
    QProgressBar *m_progress = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QPushButton *m_publishButton = nullptr;
    QPushButton *m_cancelButton = nullptr;
    QLabel *m_resultHeading = nullptr;
    QLabel *m_url = nullptr;
    QLabel *m_resultNote = nullptr; // a prepared version: where to make it live
    QLineEdit *m_shareUrl = nullptr;
    QLabel *m_ruleWarnings = nullptr; // lines of _redirects or _headers the engine skipped
    QWidget *m_shareRow = nullptr;
    QrPanel *m_qrPanel = nullptr;
};

} // namespace berth
