#pragma once

#include <QWidget>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QLabel;
class QLineEdit;
QT_END_NAMESPACE

namespace berth {

class AppSettings;
class Engine;
class Prompter;

// The band at the top of the dashboard: where Berth is serving (the API's address opens in the
// browser), the box that filters the sites, and the "Share on local network" switch with the LAN addresses in use
// (the switch applies at once and is saved for the next start).
class ServingHeader final : public QWidget
{
    Q_OBJECT

public:
    ServingHeader(Engine &engine, AppSettings &settings, Prompter &prompter, QWidget *parent = nullptr);
    ~ServingHeader() override;
    Q_DISABLE_COPY_MOVE(ServingHeader)

    QLineEdit *filter() const { return m_filter; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void showServing();
    void showLan();
    QString link(const QString &url) const;

    Engine &m_engine;
    QLabel *m_serving;
    QLineEdit *m_filter;
    QCheckBox *m_lanSwitch;
    QLabel *m_lanLabel;
};

} // namespace berth
