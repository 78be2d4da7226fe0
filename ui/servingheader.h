#pragma once

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLineEdit;
QT_END_NAMESPACE

namespace berth {

class Engine;
class Prompter;

// The band at the top of the dashboard: where Berth is serving (the API's address opens in the
// browser), and the box that filters the sites.
class ServingHeader final : public QWidget
{
    Q_OBJECT

public:
    ServingHeader(const Engine &engine, Prompter &prompter, QWidget *parent = nullptr);
    ~ServingHeader() override;
    Q_DISABLE_COPY_MOVE(ServingHeader)

    QLineEdit *filter() const { return m_filter; }

private:
    QLineEdit *m_filter;
};

} // namespace berth
