#include "domain/accounts/smtpmailer.h"

#include "domain/common/randomid.h"

#include <QHostAddress>
#include <QtConcurrent>
#include <curl/curl.h>
#include <memory>
#include <mutex>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

// libcurl's global set-up, once per process, before the first transfer.
void initialiseCurl()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Upload
{
    QByteArray data;
    qsizetype offset = 0;
};

size_t readUpload(char *buffer, size_t size, size_t count, void *userData)
{
    auto *upload = static_cast<Upload *>(userData);
    const qsizetype room = qsizetype(size * count);
    const qsizetype length = qMin(room, upload->data.size() - upload->offset);
    memcpy(buffer, upload->data.constData() + upload->offset, size_t(length));
    upload->offset += length;
    return size_t(length);
}

struct CurlDeleter
{
    void operator()(CURL *curl) const { curl_easy_cleanup(curl); }
    void operator()(curl_slist *list) const { curl_slist_free_all(list); }
};

QByteArray angleAddress(const QString &address)
{
    return '<' + address.toUtf8() + '>';
}

} // namespace

SmtpMailer::SmtpMailer()
{
    initialiseCurl();
    m_pool.setMaxThreadCount(kMaxThreads);
}

SmtpMailer::~SmtpMailer()
{
    m_pool.waitForDone();
}

QFuture<QString> SmtpMailer::send(const SmtpConfig &config, const MailMessage &message)
{
    return QtConcurrent::run(&m_pool, &SmtpMailer::deliver, config, message);
}

QByteArray SmtpMailer::url(const SmtpConfig &config)
{
    QString host = config.host;
    if (QHostAddress(host).protocol() == QAbstractSocket::IPv6Protocol)
        host = u'[' + host + u']';
    const char *scheme = config.security == SmtpConfig::Security::Tls ? "smtps://" : "smtp://";
    return scheme + host.toUtf8() + ':' + QByteArray::number(config.port);
}

QByteArray SmtpMailer::compose(const MailMessage &message, const QDateTime &date, const QString &messageId)
{
    QByteArray mail;
    mail += "Date: " + date.toString(Qt::RFC2822Date).toLatin1() + "\r\n";
    mail += "From: Berth " + angleAddress(message.from) + "\r\n";
    mail += "To: " + angleAddress(message.to) + "\r\n";
    mail += "Subject: " + message.subject.toLatin1() + "\r\n";
    mail += "Message-ID: " + angleAddress(messageId) + "\r\n";
    mail += "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n";
    QByteArray body = message.body.toUtf8();
    body.replace("\r\n", "\n").replace('\n', "\r\n");
    if (!body.endsWith("\r\n"))
        body += "\r\n";
    return mail + body;
}

QString SmtpMailer::deliver(const SmtpConfig &config, const MailMessage &message)
{
    if (const QString invalid = config.validationError(); !invalid.isEmpty())
        return u"SMTP settings: "_s + invalid;
    std::unique_ptr<CURL, CurlDeleter> curl(curl_easy_init());
    if (!curl)
        return u"libcurl could not start"_s;

    const QString domain = config.from.section(u'@', 1);
    Upload upload {compose(message, QDateTime::currentDateTimeUtc(), RandomId::base62(24) + u'@' + domain), 0};
    std::unique_ptr<curl_slist, CurlDeleter> recipients(
        curl_slist_append(nullptr, angleAddress(message.to).constData()));
    const QByteArray url = SmtpMailer::url(config);
    const QByteArray from = angleAddress(config.from);
    const QByteArray user = config.user.toUtf8();
    const QByteArray password = config.password.toUtf8();
    char errorBuffer[CURL_ERROR_SIZE] = {};

    CURL *handle = curl.get();
    curl_easy_setopt(handle, CURLOPT_URL, url.constData());
    curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
    curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L); // several threads: no SIGALRM for timeouts
    curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT, kConnectTimeoutSeconds);
    curl_easy_setopt(handle, CURLOPT_TIMEOUT, kTotalTimeoutSeconds);
    curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, errorBuffer);
    if (config.security == SmtpConfig::Security::StartTls)
        curl_easy_setopt(handle, CURLOPT_USE_SSL, long(CURLUSESSL_ALL)); // never fall back to plain text
    if (!config.user.isEmpty()) {
        curl_easy_setopt(handle, CURLOPT_USERNAME, user.constData());
        curl_easy_setopt(handle, CURLOPT_PASSWORD, password.constData());
    }
    curl_easy_setopt(handle, CURLOPT_MAIL_FROM, from.constData());
    curl_easy_setopt(handle, CURLOPT_MAIL_RCPT, recipients.get());
    curl_easy_setopt(handle, CURLOPT_READFUNCTION, &readUpload);
    curl_easy_setopt(handle, CURLOPT_READDATA, &upload);
    curl_easy_setopt(handle, CURLOPT_UPLOAD, 1L);

    const CURLcode result = curl_easy_perform(handle);
    if (result == CURLE_OK)
        return {};
    const QString detail = QString::fromUtf8(errorBuffer).trimmed();
    return QString::fromUtf8(curl_easy_strerror(result)) + (detail.isEmpty() ? QString() : u": "_s + detail);
}

} // namespace berth
