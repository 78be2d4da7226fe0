#pragma once

#include "ui/mainwindow/dashboardcontext.h"

#include <QTimer>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLineEdit;
class QTreeWidget;
QT_END_NAMESPACE

namespace berth {

// Certificates by ACME in Settings: the certificate authority (Let's Encrypt, its staging server or another ACME
// server by its directory URL), the account's contact, a private CA to trust for the ACME server's own HTTPS, and
// whether the API's host and the sites' names get certificates too: berthd's --acme-* options, applied at the next
// start like the other server settings. Below, every name the running engine's AcmeManager handles, with its state,
// expiry and last error, kept current while the page is open (read from memory on this thread, never waiting).
class AcmeSettingsPage final : public QWidget
{
    Q_OBJECT

public:
    explicit AcmeSettingsPage(const DashboardContext &context, QWidget *parent = nullptr);

    // Why the fields cannot be saved as they are, and the field to fix; empty when they can.
    QString problem(QWidget **field) const;
    void save(AppSettings &settings) const;

    static constexpr int kRefreshMs = 2000; // names also leave the list without a signal: looked at this often

private:
    QString directory() const; // empty: off
    bool isOff() const;
    void authorityChosen();
    void showNames();

    DashboardContext m_context;
    QComboBox *m_authority;
    QLineEdit *m_directory;
    QLineEdit *m_email;
    QLineEdit *m_caFile;
    QCheckBox *m_allNames;
    QTreeWidget *m_names = nullptr; // while the engine obtains certificates
    QTimer m_refresh;
};

} // namespace berth
