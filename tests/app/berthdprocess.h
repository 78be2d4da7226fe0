#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <memory>

namespace berth::test {

// berthd run as a real child process, as a user or a service manager would run it.
class BerthdProcess
{
public:
    struct Outcome
    {
        int exitCode = -1;
        QByteArray out;
        QByteArray err;
    };

    // Runs a command to completion (e.g. `key create`).
    static Outcome run(const QStringList &arguments);
    // With an environment of the test's own and bytes on standard input (a pipe, never a terminal).
    static Outcome run(
        const QStringList &arguments, const QProcessEnvironment &environment, const QByteArray &input = {});

    // The environment of a client command as a user's shell would give it: the key in BERTH_API_KEY (none when
    // empty), no BERTH_URL, and configuration and cache folders under workDir, so nothing of the machine's is used.
    static QProcessEnvironment clientEnvironment(const QByteArray &key, const QString &workDir);
    // A client command against this server (`--url` added), in clientEnvironment(key, workDir).
    Outcome runClient(QStringList arguments, const QByteArray &key, const QString &workDir) const;

    // The berthd every BerthdProcess of this test runs (the crash-safety test's has fault points).
    static void setProgram(const QString &program);

    // A fresh instance for a client test: `key create` on dataDir (the owner's key into *ownerKey), then start();
    // null (with a QWARN) when either fails.
    static std::unique_ptr<BerthdProcess> startWithOwnerKey(const QString &dataDir, QByteArray *ownerKey);

    explicit BerthdProcess(const QString &dataDir);
    ~BerthdProcess();

    // Starts `serve` on 127.0.0.1 port 0 (or the port given, e.g. to come back where a stopped one was) and waits
    // until it prints the port it chose.
    bool start(const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment(), quint16 port = 0);
    // More `serve` options for the next start() (e.g. --tls-cert).
    void setExtraArguments(const QStringList &arguments) { m_extraArguments = arguments; }
    bool waitForExit(int timeoutMs);
    void kill();

    quint16 port() const { return m_port; }
    QByteArray output() const { return m_output; }
    QProcess &process() { return m_process; }

private:
    QString m_dataDir;
    QStringList m_extraArguments;
    QProcess m_process;
    QByteArray m_output;
    quint16 m_port = 0;
};

} // namespace berth::test
