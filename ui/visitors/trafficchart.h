#pragma once

#include "storage/analyticsrepository.h"

#include <QChartView>

QT_BEGIN_NAMESPACE
class QLineSeries;
QT_END_NAMESPACE

namespace berth {

// A site's views and visitors per day as two lines over the span's days, in the colours of the window's palette.
class TrafficChart final : public QChartView
{
    Q_OBJECT

public:
    explicit TrafficChart(QWidget *parent = nullptr);

    void setDays(const QDate &from, const QDate &to, const QList<AnalyticsSpan::Day> &days);
    const QLineSeries *viewsSeries() const { return m_views; }
    const QLineSeries *visitorsSeries() const { return m_visitors; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyPalette();

    QLineSeries *m_views;
    QLineSeries *m_visitors;
};

} // namespace berth
