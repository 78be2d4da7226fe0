#pragma once

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>
#include <QUrl>

class QNetworkAccessManager;
class QNetworkReply;

namespace berth {

// One POST of a delivery, bounded whatever the receiver does: the outcome is known from the answer's status line
// (the rest of the answer is never read: at most readLimit bytes are buffered), a redirect is never followed, and
// abort() ends an attempt that took too long. Emits finished() exactly once.
class DeliveryAttempt final : public QObject
{
    Q_OBJECT

public:
    static constexpr qint64 kReadLimit = 1024;

    struct Outcome
    {
        int status = 0; // the answer's HTTP status; 0: none
        QString error; // empty when a 2xx came
    };

    DeliveryAttempt(QNetworkAccessManager &network, const QUrl &url,
        const QList<QPair<QByteArray, QByteArray>> &headers, const QByteArray &body, qint64 transferTimeoutMs,
        QObject *parent = nullptr);
    ~DeliveryAttempt() override;

    void abort(const QString &why); // finished() with this error, unless it already finished

Q_SIGNALS:
    void finished(const berth::DeliveryAttempt::Outcome &outcome);

private:
    void onMetaData();
    void onFinished();
    void conclude(Outcome outcome);

    QNetworkReply *m_reply = nullptr;
    bool m_done = false;
};

} // namespace berth
