#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>

namespace berth {

// Writes Prometheus's text exposition format (version 0.0.4): each metric family with its HELP and TYPE lines, then
// its samples. Names, label names and help texts are the caller's constants; label values are escaped.
class PrometheusText final
{
public:
    using Labels = QList<QPair<QByteArray, QByteArray>>;

    static constexpr char kContentType[] = "text/plain; version=0.0.4; charset=utf-8";

    // type: "counter", "gauge" or "histogram".
    void family(const char *name, const char *type, const char *help);
    void sample(const QByteArray &name, const Labels &labels, quint64 value);
    void sample(const QByteArray &name, const Labels &labels, double value);
    // A family of one unlabelled sample.
    void single(const char *name, const char *type, const char *help, quint64 value);

    const QByteArray &text() const { return m_text; }
    static QByteArray number(double value);

private:
    void startSample(const QByteArray &name, const Labels &labels);

    QByteArray m_text;
};

} // namespace berth
