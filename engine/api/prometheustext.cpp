#include "api/prometheustext.h"

#include <QLocale>
#include <QString>

namespace berth {

void PrometheusText::family(const char *name, const char *type, const char *help)
{
    m_text += "# HELP " + QByteArray(name) + ' ' + QByteArray(help) + "\n# TYPE " + name + ' ' + type + '\n';
}

void PrometheusText::startSample(const QByteArray &name, const Labels &labels)
{
    m_text += name;
    if (labels.isEmpty())
        return;
    m_text += '{';
    for (qsizetype i = 0; i < labels.size(); ++i) {
        QByteArray value = labels.at(i).second;
        value.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n");
        m_text += (i ? "," : "") + labels.at(i).first + "=\"" + value + '"';
    }
    m_text += '}';
}

void PrometheusText::sample(const QByteArray &name, const Labels &labels, quint64 value)
{
    startSample(name, labels);
    m_text += ' ' + QByteArray::number(value) + '\n';
}

void PrometheusText::sample(const QByteArray &name, const Labels &labels, double value)
{
    startSample(name, labels);
    m_text += ' ' + number(value) + '\n';
}

QByteArray PrometheusText::number(double value)
{
    // The shortest text that reads back as the same double: 0.0005, not 0.00050000000000000001.
    return QString::number(value, 'f', QLocale::FloatingPointShortest).toLatin1();
}

void PrometheusText::single(const char *name, const char *type, const char *help, quint64 value)
{
    family(name, type, help);
    sample(name, {}, value);
}

} // namespace berth
