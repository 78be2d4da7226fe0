#include "ui/visitors/trafficdialog.h"

#include "domain/analytics/analyticsservice.h"
#include "domain/common/clock.h"
#include "domain/deploy/siteloader.h"
#include "instance/engine.h"
#include "ui/visitors/trafficchart.h"
#include "ui/widgets/errortext.h"
#include "ui/widgets/icons.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/treelist.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontMetrics>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QTabWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

// One list of the report (pages, referrer hosts or missing paths) into its tree, largest first as the report has it.
void fillList(QTreeWidget *tree, const QList<QPair<QString, qint64>> &entries)
{
    const QLocale locale;
    TreeList::sync(
        tree, entries, [](const QPair<QString, qint64> &entry) { return entry.first; },
        [&locale](QTreeWidgetItem *item, const QPair<QString, qint64> &entry) {
            item->setText(0, entry.first);
            item->setToolTip(0, entry.first);
            item->setText(1, locale.toString(entry.second));
            item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        });
}

QFont figureFont(QFont font)
{
    font.setPointSizeF(font.pointSizeF() * 1.5);
    font.setBold(true);
    return font;
}

} // namespace

TrafficDialog::TrafficDialog(const DashboardContext &context, const Deployment &deployment, QWidget *parent)
    : QDialog(parent)
    , m_context(context)
    , m_deploymentId(deployment.id)
    , m_span(new QComboBox(this))
    , m_message(new QLabel(this))
    , m_chart(new TrafficChart(this))
    , m_lists(new QTabWidget(this))
    , m_pages(TreeList::make(m_lists, u"topPagesList"_s, tr("Top pages"), {tr("Page"), tr("Views")}))
    , m_referrers(TreeList::make(m_lists, u"referrersList"_s, tr("Referrers"), {tr("Host"), tr("Views")}))
    , m_missing(TreeList::make(m_lists, u"notFoundList"_s, tr("Not found"), {tr("Path"), tr("Hits")}))
{
    setObjectName(u"trafficDialog"_s);
    setWindowTitle(tr("%1 – Traffic").arg(deployment.slug));
    setWindowIcon(Icons::icon(u"eye"_s));
    setSizeGripEnabled(true);

    m_span->setObjectName(u"spanComboBox"_s);
    for (const int days : {7, 30, 90, 365})
        m_span->addItem(tr("Last %n day(s)", nullptr, days), days);
    m_span->setCurrentIndex(1);
    connect(m_span, &QComboBox::currentIndexChanged, this, &TrafficDialog::refresh);
    auto *spanLabel = new QLabel(tr("&Period:"), this);
    spanLabel->setBuddy(m_span);
    auto *spanRow = new QHBoxLayout;
    spanRow->addWidget(spanLabel);
    spanRow->addWidget(m_span);
    spanRow->addStretch(1);

    auto *totals = new QGridLayout;
    m_views = addTotal(totals, 0, u"viewsTotalLabel"_s, tr("Views"));
    m_visitors = addTotal(totals, 1, u"visitorsTotalLabel"_s, tr("Visitors"));
    m_notFound = addTotal(totals, 2, u"notFoundTotalLabel"_s, tr("Not found (404)"));
    m_bytes = addTotal(totals, 3, u"bytesTotalLabel"_s, tr("Sent"));

    m_message->setObjectName(u"trafficMessage"_s);
    m_message->setWordWrap(true);
    m_message->hide();

    m_lists->setObjectName(u"trafficListsTabWidget"_s);
    m_lists->setAccessibleName(tr("Top pages, referrers and missing paths"));
    m_lists->addTab(m_pages, tr("P&ages"));
    m_lists->addTab(m_referrers, tr("&Referrers"));
    m_lists->addTab(m_missing, tr("&Not Found"));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &TrafficDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(spanRow);
    layout->addLayout(totals);
    layout->addWidget(m_message);
    layout->addWidget(m_chart, 3);
    layout->addWidget(m_lists, 2);
    layout->addWidget(buttons);

    m_refresh.setInterval(kRefreshMs);
    connect(&m_refresh, &QTimer::timeout, this, &TrafficDialog::refresh);
    SiteLoader &sites = m_context.engine.siteLoader();
    connect(&sites, &SiteLoader::deploymentRemoved, this, [this](const QString &id) {
        if (id == m_deploymentId)
            close();
    });
    refresh();
}

QLabel *TrafficDialog::addTotal(QGridLayout *grid, int column, const QString &name, const QString &caption)
{
    auto *value = new QLabel(u"0"_s, this);
    value->setObjectName(name);
    value->setFont(figureFont(value->font()));
    // Room for the digits' whole height in the larger font, which QLabel's own hint rounds a pixel short of.
    const QFontMetrics metrics(value->font());
    value->setMinimumHeight(metrics.boundingRect(QRect(0, 0, 1000, 1000), 0, u"0123456789 kMGB"_s).height() + 1);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *label = new QLabel(caption, this);
    value->setAccessibleName(caption);
    grid->addWidget(value, 0, column);
    grid->addWidget(label, 1, column);
    grid->setColumnStretch(column, 1);
    return value;
}

int TrafficDialog::spanDays() const
{
    return m_span->currentData().toInt();
}

void TrafficDialog::refresh()
{
    const QDate today = m_context.engine.clock().now().date();
    const QDate from = today.addDays(1 - spanDays());
    const auto report = m_context.engine.analytics().report(
        m_context.owner, m_deploymentId, from.toString(Qt::ISODate), today.toString(Qt::ISODate));
    if (!report) {
        Theme::showMessage(m_message, ErrorText::describe(report.error()), Theme::Tone::Error);
        return;
    }
    m_message->hide();
    showReport(report.value());
}

void TrafficDialog::showReport(const AnalyticsReport &report)
{
    setWindowTitle(tr("%1 – Traffic").arg(report.slug));
    qint64 views = 0;
    qint64 visitors = 0;
    qint64 notFound = 0;
    qint64 bytes = 0;
    for (const AnalyticsSpan::Day &day : report.span.days) {
        views += day.views;
        visitors += day.visitors;
        notFound += day.notFound;
        bytes += day.bytes;
    }
    const QLocale locale;
    m_views->setText(locale.toString(views));
    m_visitors->setText(locale.toString(visitors));
    m_notFound->setText(locale.toString(notFound));
    m_bytes->setText(locale.formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat));
    m_chart->setDays(report.from, report.to, report.span.days);
    fillList(m_pages, report.span.pages);
    fillList(m_referrers, report.span.referrers);
    fillList(m_missing, report.span.notFoundPaths);
}

void TrafficDialog::showEvent(QShowEvent *event)
{
    QDialog::showEvent(event);
    refresh();
    m_refresh.start();
}

void TrafficDialog::hideEvent(QHideEvent *event)
{
    m_refresh.stop();
    QDialog::hideEvent(event);
}

} // namespace berth
