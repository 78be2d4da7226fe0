#include "ui/visitors/submissionspanel.h"

#include "domain/visitors/submissionscsv.h"
#include "domain/visitors/submissionservice.h"
#include "instance/engine.h"
#include "ui/visitors/submissionsmodel.h"
#include "ui/widgets/actionbutton.h"
#include "ui/widgets/actionmaker.h"
#include "ui/widgets/datatableview.h"
#include "ui/widgets/errortext.h"
#include "ui/widgets/prompter.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/timetext.h"

#include <QAction>
#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSaveFile>
#include <QSplitter>
#include <QStackedWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
QString htmlText(const QString &text)
{
    QString html = text.toHtmlEscaped();
    html.replace(u"\r\n"_s, u"\n"_s);
    return html.replace(u'\n', u"<br>"_s);
}
} // namespace

SubmissionsPanel::SubmissionsPanel(
    const DashboardContext &context, const QString &deploymentId, const QString &slug, QWidget *parent)
    : QWidget(parent)
    , previousPageAction(ActionMaker::make(this, u"previousPageAction"_s, u"previous"_s, tr("&Newer"),
          QKeySequence::Back, Qt::WidgetWithChildrenShortcut))
    , nextPageAction(ActionMaker::make(
          this, u"nextPageAction"_s, u"next"_s, tr("&Older"), QKeySequence::Forward, Qt::WidgetWithChildrenShortcut))
    , deleteAction(ActionMaker::make(this, u"deleteSubmissionsAction"_s, u"delete"_s, tr("&Delete…"),
          QKeySequence::Delete, Qt::WidgetWithChildrenShortcut))
    , exportAction(ActionMaker::make(this, u"exportCsvAction"_s, u"export"_s, tr("&Export CSV…"), Qt::CTRL | Qt::Key_E,
          Qt::WidgetWithChildrenShortcut))
    , m_context(context)
    , m_deploymentId(deploymentId)
    , m_slug(slug)
    , m_model(new SubmissionsModel(
          context.engine.submissions(), context.owner, deploymentId, SubmissionsModel::kDefaultPageSize, this))
    , m_table(new DataTableView(this))
    , m_details(new QTextBrowser(this))
    , m_stack(new QStackedWidget(this))
    , m_pageLabel(new QLabel(this))
    , m_message(new QLabel(this))
{
    setObjectName(u"submissionsPanel"_s);
    previousPageAction->setToolTip(tr("Newer submissions (previous page)"));
    nextPageAction->setToolTip(tr("Older submissions (next page)"));
    exportAction->setToolTip(tr("Save every submission of this site as a CSV file"));
    addActions({previousPageAction, nextPageAction, deleteAction, exportAction});

    m_table->setObjectName(u"submissionsTableView"_s);
    m_table->setAccessibleName(tr("Submissions"));
    m_table->setModel(m_model);
    m_table->addActions({deleteAction, exportAction});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_details->setObjectName(u"submissionTextBrowser"_s);
    m_details->setAccessibleName(tr("Selected submission"));
    m_details->setOpenLinks(false);
    m_details->setPlaceholderText(tr("Select a submission to read it in full."));
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_details);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);

    auto *empty = new QLabel(tr("<p><b>No submissions yet.</b></p><p>A form on this site sends here when it posts "
                                "to <code>/_submit</code>:<br><code>&lt;form method=\"post\" "
                                "action=\"/_submit\"&gt;</code></p>"),
        this);
    empty->setObjectName(u"noSubmissionsLabel"_s);
    empty->setAccessibleName(tr("No submissions yet"));
    empty->setAlignment(Qt::AlignCenter);
    empty->setWordWrap(true);
    empty->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stack->addWidget(empty);
    m_stack->addWidget(splitter);

    m_pageLabel->setObjectName(u"pageLabel"_s);
    m_message->setObjectName(u"submissionsMessageLabel"_s);
    m_message->setWordWrap(true);
    m_message->hide();
    auto *bar = new QHBoxLayout;
    bar->addWidget(new ActionButton(previousPageAction, this));
    bar->addWidget(new ActionButton(nextPageAction, this));
    bar->addWidget(m_pageLabel);
    bar->addStretch();
    bar->addWidget(new ActionButton(deleteAction, this));
    bar->addWidget(new ActionButton(exportAction, this));
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_stack, 1);
    layout->addWidget(m_message);

    connect(previousPageAction, &QAction::triggered, m_model, &SubmissionsModel::previousPage);
    connect(nextPageAction, &QAction::triggered, m_model, &SubmissionsModel::nextPage);
    connect(deleteAction, &QAction::triggered, this, &SubmissionsPanel::deleteSelected);
    connect(exportAction, &QAction::triggered, this, &SubmissionsPanel::exportCsv);
    connect(m_model, &SubmissionsModel::pageChanged, this, &SubmissionsPanel::updatePage);
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] { m_table->resizeColumnsToContents(); });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &SubmissionsPanel::showSelected);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &SubmissionsPanel::showSelected);
    connect(m_model, &QAbstractItemModel::modelReset, this, &SubmissionsPanel::showSelected);
    m_table->resizeColumnsToContents();
    updatePage();
    showSelected();
}

void SubmissionsPanel::updatePage()
{
    const SubmissionsModel &model = *m_model;
    const QLocale locale;
    const int shown = model.rowCount();
    if (!model.errorString().isEmpty())
        m_pageLabel->setText(model.errorString());
    else if (shown == 0)
        m_pageLabel->setText(tr("No submissions"));
    else
        m_pageLabel->setText(tr("%1–%2 of %3")
                                 .arg(locale.toString(model.offset() + 1), locale.toString(model.offset() + shown),
                                     locale.toString(model.total())));
    m_stack->setCurrentIndex(model.total() == 0 && shown == 0 ? 0 : 1);
    previousPageAction->setEnabled(model.hasPreviousPage());
    nextPageAction->setEnabled(model.hasNextPage());
    exportAction->setEnabled(model.total() > 0);
}

QStringList SubmissionsPanel::selectedIds() const
{
    QStringList ids;
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    for (const QModelIndex &row : rows)
        ids.append(row.data(SubmissionsModel::IdRole).toString());
    return ids;
}

void SubmissionsPanel::showSelected()
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    deleteAction->setEnabled(!rows.isEmpty());
    if (rows.size() != 1) {
        m_details->clear();
        return;
    }
    const Submission submission = m_model->submission(rows.constFirst().row());
    QString html = u"<table cellspacing=\"4\"><tr><th align=\"left\">%1</th><td>%2</td></tr>"_s.arg(
        tr("Received").toHtmlEscaped(), TimeText::full(submission.createdAt).toHtmlEscaped());
    for (auto it = submission.data.constBegin(); it != submission.data.constEnd(); ++it) {
        html += u"<tr><th align=\"left\" valign=\"top\">%1</th><td>%2</td></tr>"_s.arg(
            it.key().toHtmlEscaped(), htmlText(SubmissionsModel::fullText(it.value())));
    }
    m_details->setHtml(html + u"</table>"_s);
}

void SubmissionsPanel::deleteSelected()
{
    const QStringList ids = selectedIds();
    if (ids.isEmpty())
        return;
    const auto answer = m_context.prompter.question(this, tr("Delete Submissions"),
        tr("Delete %n submission(s) of %1? This cannot be undone.", nullptr, int(ids.size())).arg(m_slug),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Yes)
        return;
    int deleted = 0;
    QString failure;
    for (const QString &id : ids) {
        const auto result = m_context.engine.submissions().remove(m_context.owner, m_deploymentId, id);
        if (result)
            ++deleted;
        else if (result.error().code
            != Error::Code::SubmissionNotFound) // else already gone (the API, the stored limit)
            failure = ErrorText::describe(result.error());
    }
    if (deleted < ids.size())
        m_model->reload();
    if (!failure.isEmpty())
        m_context.prompter.warning(this, tr("Delete Submissions"), failure);
    Theme::showMessage(m_message, tr("Deleted %n submission(s).", nullptr, deleted), Theme::Tone::Normal);
}

void SubmissionsPanel::exportCsv()
{
    const QString suggested = QDir::home().filePath(m_slug + u"-submissions.csv"_s);
    const QString path = m_context.prompter.saveFileName(
        this, tr("Export Submissions"), suggested, tr("CSV files (*.csv);;All files (*)"));
    if (path.isEmpty())
        return;
    // Every stored submission, not only this page, newest first as in the table.
    const auto rows = SubmissionsCsv::collect(m_context.engine.submissions(), m_context.owner, m_deploymentId);
    if (!rows) {
        m_context.prompter.warning(this, tr("Export Submissions"), ErrorText::describe(rows.error()));
        return;
    }

    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(SubmissionsCsv::write(rows.value())) < 0 || !file.commit()) {
        m_context.prompter.warning(this, tr("Export Submissions"),
            tr("Could not write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
        return;
    }
    Theme::showMessage(m_message,
        tr("Exported %n submission(s) to %1.", nullptr, int(rows.value().size())).arg(QDir::toNativeSeparators(path)),
        Theme::Tone::Success);
}

} // namespace berth
