#include "ui/visitors/counterspanel.h"

#include "domain/visitors/counterservice.h"
#include "instance/engine.h"
#include "ui/visitors/countersmodel.h"
#include "ui/widgets/actionbutton.h"
#include "ui/widgets/actionmaker.h"
#include "ui/widgets/datatableview.h"
#include "ui/widgets/errortext.h"
#include "ui/widgets/prompter.h"
#include "ui/widgets/theme.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QStackedWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

CountersPanel::CountersPanel(const DashboardContext &context, const QString &deploymentId, QWidget *parent)
    : QWidget(parent)
    , resetAction(ActionMaker::make(this, u"resetCounterAction"_s, u"reset"_s, tr("&Reset to 0…"), QKeySequence::Delete,
          Qt::WidgetWithChildrenShortcut))
    , m_context(context)
    , m_deploymentId(deploymentId)
    , m_model(new CountersModel(context.engine.counters(), context.owner, deploymentId, this))
    , m_table(new DataTableView(this))
    , m_stack(new QStackedWidget(this))
    , m_message(new QLabel(this))
{
    setObjectName(u"countersPanel"_s);
    resetAction->setToolTip(tr("Delete the counter: it reads 0 and counts again from its next increment"));
    addAction(resetAction);

    m_table->setObjectName(u"countersTableView"_s);
    m_table->setAccessibleName(tr("Counters"));
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setModel(m_model);
    m_table->addAction(resetAction);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(CountersModel::NameColumn, QHeaderView::Stretch);
    m_table->horizontalHeader()->setStretchLastSection(false);

    auto *empty = new QLabel(tr("<p><b>No counters yet.</b></p><p>A page of this site creates one when it posts "
                                "to <code>/_counter/&lt;name&gt;/increment</code>, and reads it with "
                                "<code>GET /_counter/&lt;name&gt;</code>.</p>"),
        this);
    empty->setObjectName(u"noCountersLabel"_s);
    empty->setAccessibleName(tr("No counters yet"));
    empty->setAlignment(Qt::AlignCenter);
    empty->setWordWrap(true);
    empty->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stack->addWidget(empty);
    m_stack->addWidget(m_table);

    auto *note = new QLabel(tr("Resetting deletes a counter: it reads 0 until a visitor counts it again."), this);
    note->setObjectName(u"resetNoteLabel"_s);
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    m_message->setObjectName(u"countersMessageLabel"_s);
    m_message->setWordWrap(true);
    m_message->hide();
    auto *bar = new QHBoxLayout;
    bar->addWidget(note, 1);
    bar->addWidget(new ActionButton(resetAction, this));
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_stack, 1);
    layout->addWidget(m_message);

    connect(resetAction, &QAction::triggered, this, &CountersPanel::resetSelected);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &CountersPanel::updateView);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &CountersPanel::updateView);
    connect(m_model, &QAbstractItemModel::modelReset, this, &CountersPanel::updateView);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &CountersPanel::updateView);
    updateView();
}

void CountersPanel::updateView()
{
    m_stack->setCurrentIndex(m_model->rowCount() == 0 ? 0 : 1);
    resetAction->setEnabled(m_table->selectionModel()->hasSelection());
}

void CountersPanel::resetSelected()
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return;
    const QString name = rows.constFirst().data(CountersModel::NameRole).toString();
    const auto answer = m_context.prompter.question(this, tr("Reset Counter"),
        tr("Reset “%1” to 0? Berth deletes the counter: it reads 0 until a visitor counts it again. This cannot be "
           "undone.")
            .arg(name),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel, tr("&Reset"));
    if (answer != QMessageBox::Yes)
        return;
    const auto result = m_context.engine.counters().remove(m_context.owner, m_deploymentId, name);
    if (!result && result.error().code == Error::Code::CounterNotFound) { // reset meanwhile by the API
        m_model->reload();
    } else if (!result) {
        m_context.prompter.warning(this, tr("Reset Counter"), ErrorText::describe(result.error()));
        return;
    }
    Theme::showMessage(m_message, tr("“%1” is reset: it reads 0.").arg(name), Theme::Tone::Normal);
}

} // namespace berth
