#pragma once

#include <QByteArray>
#include <QProcess>
#include <QStringList>

namespace berth::test {

// A real SMTP server on loopback for the tests: Debian's aiosmtpd (python3-aiosmtpd) with its Debugging handler,
// which prints every message it accepts. Started on a free port; stopped with the object.
class SmtpTestServer final
{
public:
    SmtpTestServer() = default;
    ~SmtpTestServer();
    Q_DISABLE_COPY_MOVE(SmtpTestServer)

    bool start(); // false (with a warning) when aiosmtpd does not come up within a few seconds
    quint16 port() const { return m_port; }

    // Every message received so far, as printed (headers and body), oldest first.
    QStringList messages();

private:
    QProcess m_process;
    QByteArray m_output;
    quint16 m_port = 0;
};

} // namespace berth::test
