#include "domain/events/deliveryattempt.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

using namespace Qt::StringLiterals;

namespace berth {

DeliveryAttempt::DeliveryAttempt(QNetworkAccessManager &network, const QUrl &url,
    const QList<QPair<QByteArray, QByteArray>> &headers, const QByteArray &body, qint64 transferTimeoutMs,
    QObject *parent)
    : QObject(parent)
{
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    request.setAttribute(QNetworkRequest::CookieSaveControlAttribute, QNetworkRequest::Manual);
    request.setAttribute(QNetworkRequest::CookieLoadControlAttribute, QNetworkRequest::Manual);
    request.setTransferTimeout(int(transferTimeoutMs));
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    m_reply = network.post(request, body);
    m_reply->setReadBufferSize(kReadLimit); // a huge answer stays in the socket, not in memory
    connect(m_reply, &QNetworkReply::metaDataChanged, this, &DeliveryAttempt::onMetaData);
    connect(m_reply, &QNetworkReply::finished, this, &DeliveryAttempt::onFinished);
}

DeliveryAttempt::~DeliveryAttempt()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
    }
}

void DeliveryAttempt::onMetaData()
{
    // The status line decides: what follows it is not waited for, however slowly or long it comes.
    const QVariant status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    if (!status.isValid())
        return;
    const int code = status.toInt();
    if (code >= 200 && code < 300)
        conclude({code, {}});
    else if (code >= 300 && code < 400)
        conclude({code, u"HTTP %1 (redirects are not followed)"_s.arg(code)});
    else
        conclude({code, u"HTTP %1"_s.arg(code)});
}

void DeliveryAttempt::onFinished()
{
    const QVariant status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    if (status.isValid()) {
        onMetaData();
        return;
    }
    const QString error = m_reply->error() == QNetworkReply::OperationCanceledError
        ? u"timed out"_s
        : (m_reply->errorString().isEmpty() ? u"no answer"_s : m_reply->errorString());
    conclude({0, error});
}

void DeliveryAttempt::abort(const QString &why)
{
    conclude({0, why});
}

void DeliveryAttempt::conclude(Outcome outcome)
{
    if (m_done)
        return;
    m_done = true;
    if (m_reply) {
        // Not aborted inside its own signal (QNetworkReply reports its error twice then): at the next turn.
        m_reply->disconnect(this);
        QMetaObject::invokeMethod(m_reply, &QNetworkReply::abort, Qt::QueuedConnection);
        m_reply->deleteLater();
        m_reply = nullptr;
    }
    Q_EMIT finished(outcome);
}

} // namespace berth
