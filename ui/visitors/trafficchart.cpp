#include "ui/visitors/trafficchart.h"

#include "ui/widgets/theme.h"

#include <QDateTimeAxis>
#include <QEvent>
#include <QLineSeries>
#include <QLocale>
#include <QRegularExpression>
#include <QValueAxis>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

constexpr int kMinimumTop = 4; // an empty or quiet span still has a scale to read
constexpr int kDateTicks = 6;

// The locale's short date without the year: the span is at most a year, and the tooltip of a day is not needed.
QString dayFormat()
{
    QString format = QLocale().dateFormat(QLocale::ShortFormat);
    format.remove(QRegularExpression(u"[^dM]*y+[^dM]*"_s));
    return format.isEmpty() ? u"d/M"_s : format;
}

qreal atNoon(const QDate &day)
{
    return qreal(QDateTime(day, QTime(12, 0), Qt::UTC).toMSecsSinceEpoch());
}

} // namespace

TrafficChart::TrafficChart(QWidget *parent)
    : QChartView(parent)
    , m_views(new QLineSeries)
    , m_visitors(new QLineSeries)
{
    setObjectName(u"trafficChart"_s);
    setAccessibleName(tr("Views and visitors per day"));
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(560, 240); // a month's days apart enough to read
    auto *chart = new QChart;
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setBackgroundRoundness(0);
    m_views->setName(tr("Views"));
    m_visitors->setName(tr("Visitors"));
    chart->addSeries(m_views);
    chart->addSeries(m_visitors);
    auto *dates = new QDateTimeAxis;
    dates->setFormat(dayFormat());
    dates->setTickCount(kDateTicks);
    auto *counts = new QValueAxis;
    counts->setLabelFormat(u"%d"_s);
    counts->setMin(0);
    chart->addAxis(dates, Qt::AlignBottom);
    chart->addAxis(counts, Qt::AlignLeft);
    for (QLineSeries *series : {m_views, m_visitors}) {
        series->attachAxis(dates);
        series->attachAxis(counts);
    }
    chart->legend()->setAlignment(Qt::AlignBottom);
    setChart(chart);
    applyPalette();
}

void TrafficChart::setDays(const QDate &from, const QDate &to, const QList<AnalyticsSpan::Day> &days)
{
    QList<QPointF> views;
    QList<QPointF> visitors;
    qint64 top = kMinimumTop;
    for (const AnalyticsSpan::Day &day : days) {
        views.append({atNoon(day.day), qreal(day.views)});
        visitors.append({atNoon(day.day), qreal(day.visitors)});
        top = qMax(top, qMax(day.views, day.visitors));
    }
    m_views->replace(views);
    m_visitors->replace(visitors);
    const auto axes = chart()->axes();
    for (QAbstractAxis *axis : axes) {
        if (auto *dates = qobject_cast<QDateTimeAxis *>(axis))
            dates->setRange(QDateTime(from, QTime(0, 0), Qt::UTC), QDateTime(to, QTime(23, 59), Qt::UTC));
        if (auto *counts = qobject_cast<QValueAxis *>(axis)) {
            counts->setRange(0, qreal(top));
            counts->applyNiceNumbers();
        }
    }
}

void TrafficChart::changeEvent(QEvent *event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
}

void TrafficChart::applyPalette()
{
    const QPalette colours = palette();
    QChart *chart = this->chart();
    chart->setBackgroundBrush(colours.base());
    setBackgroundBrush(colours.window());
    const QColor text = colours.color(QPalette::Text);
    chart->legend()->setLabelColor(text);
    const auto axes = chart->axes();
    for (QAbstractAxis *axis : axes) {
        axis->setLabelsColor(text);
        axis->setLinePenColor(colours.color(QPalette::Mid));
        axis->setGridLineColor(colours.color(QPalette::Midlight));
    }
    QPen views(colours.color(QPalette::Highlight), 2);
    m_views->setPen(views);
    QPen visitors(Theme::successColour(colours), 2, Qt::DashLine);
    m_visitors->setPen(visitors);
}

} // namespace berth
