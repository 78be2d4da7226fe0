#include "pebbleserver.h"

#include "testcertificates.h"

#include <QDir>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSslCertificate>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTest>
#include <QUdpSocket>
#include <vector>

using namespace Qt::StringLiterals;

namespace berth::test {

namespace {
constexpr int kReadyTries = 200; // each waits for one refused or answered request

// Ports free now, all different: each is held until every one is picked, so none is handed out twice.
class PortPicker
{
public:
    quint16 tcp()
    {
        auto server = std::make_unique<QTcpServer>();
        server->listen(QHostAddress::LocalHost, 0);
        const quint16 port = server->serverPort();
        m_held.push_back(std::move(server));
        return port;
    }
    // Free for both UDP and TCP: the DNS server listens on both.
    quint16 dns()
    {
        for (int tries = 0; tries < 20; ++tries) {
            QUdpSocket udp;
            udp.bind(QHostAddress::LocalHost, 0);
            auto server = std::make_unique<QTcpServer>();
            if (server->listen(QHostAddress::LocalHost, udp.localPort())) {
                m_held.push_back(std::move(server));
                return udp.localPort();
            }
        }
        return 0;
    }

private:
    std::vector<std::unique_ptr<QTcpServer>> m_held;
};

std::unique_ptr<QProcess> launch(const QString &program, const QStringList &arguments, const QProcessEnvironment &env)
{
    auto process = std::make_unique<QProcess>();
    process->setProcessEnvironment(env);
    process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process->setStandardOutputFile(QProcess::nullDevice());
    process->start(program, arguments);
    if (!process->waitForStarted()) {
        qWarning("cannot start %s", qPrintable(program));
        return nullptr;
    }
    return process;
}
} // namespace

PebbleServer::PebbleServer(const QString &folder)
    : m_folder(folder)
    , m_caFile(folder + u"/pebble-tls-ca.pem"_s)
{
    PortPicker ports;
    m_port = ports.tcp();
    m_managementPort = ports.tcp();
    m_dnsManagementPort = ports.tcp();
    m_dnsPort = ports.dns();
    m_berthPort = ports.tcp();
    m_berthHttpsPort = ports.tcp();
}

PebbleServer::~PebbleServer()
{
    stop();
}

bool PebbleServer::installed()
{
    return !QStandardPaths::findExecutable(u"pebble"_s).isEmpty()
        && !QStandardPaths::findExecutable(u"pebble-challtestsrv"_s).isEmpty();
}

bool PebbleServer::start(int certificateSeconds, int nonceReject)
{
    const QString &folder = m_folder;
    TestCertificates tls;
    const QString tlsFolder = folder + u"/pebble-tls"_s;
    if (!QDir().mkpath(tlsFolder) || !tls.make(tlsFolder, {u"localhost"_s})) {
        qWarning("cannot make pebble's TLS certificate");
        return false;
    }
    // Berth trusts pebble's HTTPS through this copy of the test CA (--acme-ca).
    if (!QFile::copy(tls.caCert, m_caFile)) {
        qWarning("cannot write pebble's CA");
        return false;
    }
    const auto writeFile = [&](const QString &name, const QByteArray &bytes) {
        QFile file(folder + u'/' + name);
        return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
    };
    const QJsonObject config {{u"pebble"_s,
        QJsonObject {{u"listenAddress"_s, u"127.0.0.1:%1"_s.arg(m_port)},
            {u"managementListenAddress"_s, u"127.0.0.1:%1"_s.arg(m_managementPort)}, {u"certificate"_s, tls.serverCert},
            {u"privateKey"_s, tls.serverKey}, {u"httpPort"_s, m_berthPort}, {u"tlsPort"_s, m_berthHttpsPort},
            {u"ocspResponderURL"_s, u""_s}, {u"externalAccountBindingRequired"_s, false},
            {u"certificateValidityPeriod"_s, certificateSeconds}}}};
    if (!writeFile(u"pebble.json"_s, QJsonDocument(config).toJson())) {
        qWarning("cannot write pebble's configuration");
        return false;
    }

    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    m_dns = launch(u"pebble-challtestsrv"_s,
        {u"-dns01"_s, u"127.0.0.1:%1"_s.arg(m_dnsPort), u"-http01"_s, u""_s, u"-https01"_s, u""_s, u"-tlsalpn01"_s,
            u""_s, u"-management"_s, u"127.0.0.1:%1"_s.arg(m_dnsManagementPort), u"-defaultIPv4"_s, u"127.0.0.1"_s,
            u"-defaultIPv6"_s, u""_s},
        env);
    env.insert(u"PEBBLE_VA_NOSLEEP"_s, u"1"_s);
    env.insert(u"PEBBLE_WFE_NONCEREJECT"_s, QString::number(nonceReject));
    env.insert(u"PEBBLE_AUTHZREUSE"_s, u"0"_s); // every order validates again: the challenge is what is tested
    m_pebble = launch(u"pebble"_s,
        {u"-config"_s, folder + u"/pebble.json"_s, u"-dnsserver"_s, u"127.0.0.1:%1"_s.arg(m_dnsPort)}, env);
    if (!m_dns || !m_pebble)
        return false;
    for (int tries = 0; tries < kReadyTries; ++tries) {
        if (fetch(directoryUrl()).contains("newOrder"))
            return true;
        if (m_pebble->state() != QProcess::Running)
            break;
        QTest::qWait(50); // start-up of a child process, not behaviour under test
    }
    qWarning("pebble did not start");
    return false;
}

void PebbleServer::stop()
{
    for (auto *process : {m_pebble.get(), m_dns.get()}) {
        if (process && process->state() != QProcess::NotRunning) {
            process->kill(); // by its process id
            process->waitForFinished();
        }
    }
    m_pebble.reset();
    m_dns.reset();
}

QString PebbleServer::directoryUrl() const
{
    return u"https://127.0.0.1:%1/dir"_s.arg(m_port);
}

AcmeSettings PebbleServer::berthSettings() const
{
    AcmeSettings settings;
    settings.directoryUrl = directoryUrl();
    settings.email = u"owner@example.test"_s;
    settings.caFile = caFile();
    settings.checkIntervalMs = 60 * 60 * 1000;
    settings.pollIntervalMs = 50;
    settings.retryBaseSeconds = 60;
    return settings;
}

QByteArray PebbleServer::rootPem() const
{
    return fetch(u"https://127.0.0.1:%1/roots/0"_s.arg(m_managementPort));
}

bool PebbleServer::pointAt(const QString &name, const QString &address)
{
    // add-a adds to what the name had: clear it first.
    const QString management = u"http://127.0.0.1:%1/"_s.arg(m_dnsManagementPort);
    const QJsonObject host {{u"host"_s, name}};
    const QJsonObject record {{u"host"_s, name}, {u"addresses"_s, QJsonArray {address}}};
    return post(management + u"clear-a"_s, QJsonDocument(host).toJson())
        && post(management + u"add-a"_s, QJsonDocument(record).toJson());
}

QByteArray PebbleServer::fetch(const QString &url) const
{
    QByteArray answer;
    send(url, {}, &answer);
    return answer;
}

bool PebbleServer::post(const QString &url, const QByteArray &body) const
{
    QByteArray answer; // challtestsrv answers its management requests with an empty 200
    return send(url, body, &answer);
}

bool PebbleServer::send(const QString &url, const QByteArray &body, QByteArray *answer) const
{
    QNetworkAccessManager network;
    QNetworkRequest request {QUrl(url)};
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    tls.addCaCertificates(m_caFile);
    request.setSslConfiguration(tls);
    request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    QNetworkReply *reply = body.isEmpty() ? network.get(request) : network.post(request, body);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const bool ok = reply->error() == QNetworkReply::NoError;
    *answer = ok ? reply->readAll() : QByteArray();
    reply->deleteLater();
    return ok;
}

} // namespace berth::test
