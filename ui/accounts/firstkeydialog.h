#pragma once

#include "ui/mainwindow/dashboardcontext.h"

#include <QDialog>

QT_BEGIN_NAMESPACE
class QLineEdit;
class QPlainTextEdit;
QT_END_NAMESPACE

namespace berth {

// The first-run sheet: the owner's first API key, shown this once with a curl example that publishes
// a page with it, so that a desktop user can hand the key to a script or an agent.
class FirstKeyDialog final : public QDialog
{
    Q_OBJECT

public:
    FirstKeyDialog(const DashboardContext &context, const QString &key, QWidget *parent = nullptr);
    ~FirstKeyDialog() override;

    // The example as shown: a shell command that publishes a page with the key.
    static QString curlExample(const QString &baseUrl, const QString &key);

private:
    void fitExample();

    QLineEdit *m_key;
    QPlainTextEdit *m_example;
};

} // namespace berth
