#pragma once

#include "enginefixture.h"
#include "ui/mainwindow/mainwindow.h"
#include "ui/settings/appsettings.h"

#include <QTemporaryDir>
#include <QTest>
#include <functional>
#include <memory>

namespace berth::test {

// One real dashboard per test, KeePassXC-style: a real engine on port 0 over a fresh data folder,
// fresh settings in a temporary file, and the real MainWindow shown on the offscreen platform.
class Dashboard
{
public:
    Dashboard();
    ~Dashboard();

    bool start();
    // With engine settings of the test's own (a ManualClock, say); prepare sees the dashboard's settings before the
    // window is made (an appearance, say).
    bool start(EngineSettings settings, const std::function<void(AppSettings &)> &prepare = {});

    EngineFixture &fixture() { return m_fixture; }
    Engine &engine() { return m_fixture.engine(); }
    HttpTestClient &client() { return m_fixture.client(); }
    AppSettings &settings() { return *m_settings; }
    MainWindow &window() { return *m_window; }
    User owner();

    // Creates a deployment through the engine (not the UI) and waits for it.
    QString deploy(const QString &slug, const QList<std::pair<QString, QByteArray>> &files);
    // Selects the deployment's row, as a click would.
    void select(const QString &id);
    // POSTs a form to the site's /_submit over HTTP, as a visitor's browser would; the HTTP status.
    int submitForm(const QString &slug, const QByteArray &urlEncodedBody);

private:
    EngineFixture m_fixture;
    QTemporaryDir m_settingsDir;
    std::unique_ptr<AppSettings> m_settings;
    std::unique_ptr<MainWindow> m_window;
};

// Files on disk for a test to drop: relative path -> content.
bool writeTree(const QString &root, const QList<std::pair<QString, QByteArray>> &files);
// A file of exactly `bytes` bytes without writing them (a sparse file): size limits are checked first.
bool writeSparse(const QString &path, qint64 bytes);

// A real drag of local files onto widget at pos: enter, move, drop, as the platform sends them.
void dropPaths(QWidget *widget, const QPoint &pos, const QStringList &paths);

// The visible controls under root that take focus but have no name a screen reader could say (an
// accessible name, or a button's text), as "objectName (Class)"; empty when every one has one.
QStringList unnamedControls(QWidget *root);

// The visible labels under root that would show a literal '&': a mnemonic ("&Port:") in plain text with no buddy
// to give it to, one line each; empty when there is none. "&&" is an ampersand, not a mnemonic (LayoutCheck's).
QStringList literalMnemonics(QWidget *root);

// RFC 4180 CSV read back as a spreadsheet would: rows of cells.
QList<QStringList> parseCsv(const QByteArray &csv);

// The named child of type T under parent; a warning names it when it is missing.
template<typename T>
T *child(QWidget *parent, const QString &name)
{
    auto *widget = parent->findChild<T *>(name);
    if (!widget)
        qWarning("no %s", qPrintable(name));
    return widget;
}

// Waits until window is the active window, where keys go as a person's would (qWaitForWindowActive can answer
// before the offscreen platform has moved activation from the window before it); false after five seconds.
bool waitUntilActive(QWidget *window);

// The dialog of type T that is open (visible) under parent, or null.
template<typename T>
T *openDialog(QWidget *parent)
{
    const auto dialogs = parent->findChildren<T *>();
    for (T *dialog : dialogs) {
        if (dialog->isVisible())
            return dialog;
    }
    return nullptr;
}

} // namespace berth::test
