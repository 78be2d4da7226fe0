// berthd's graceful stop: a SIGTERM that arrives while a deploy is being processed lets it finish and answers its
// client before the process exits, and the site is there after a restart.
#include "berthdprocess.h"
#include "httptestclient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::BerthdProcess;

class TestGracefulStop final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void deployInFlightFinishesOnSigterm()
    {
        QTemporaryDir dir;
        QByteArray key;
        qsizetype textSize = 0;
        {
            BerthdProcess server(dir.path());
            QVERIFY(server.start());
            const auto match = QRegularExpression(u"Owner API key[^\n]*\n(bk_[A-Za-z0-9]+)\n"_s)
                                   .match(QString::fromLatin1(server.output()));
            QVERIFY2(match.hasMatch(), server.output().constData());
            key = match.captured(1).toLatin1();

            // 4 x 9 MB of text: decoding, hashing, writing and compressing it takes a while after the last byte.
            QByteArray text;
            while (text.size() < 9 * 1024 * 1024)
                text += "Lorem ipsum dolor sit amet, " + QByteArray::number(text.size()) + '\n';
            textSize = text.size();
            QJsonArray files {QJsonObject {{u"path"_s, u"index.html"_s}, {u"content"_s, u"<p>still here</p>"_s}}};
            for (int i = 0; i < 4; ++i) {
                files.append(QJsonObject {{u"path"_s, u"big%1.txt"_s.arg(i)},
                    {u"content"_s, QString::fromLatin1((text + char('a' + i)).toBase64())},
                    {u"encoding"_s, u"base64"_s}});
            }
            const QByteArray body = QJsonDocument(QJsonObject {{u"slug"_s, u"last-word"_s}, {u"files"_s, files}})
                                        .toJson(QJsonDocument::Compact);

            QTcpSocket client;
            client.connectToHost(QHostAddress::LocalHost, server.port());
            QVERIFY(client.waitForConnected(5000));
            client.write("POST /deploy HTTP/1.1\r\nHost: localhost:" + QByteArray::number(server.port())
                + "\r\nAuthorization: Bearer " + key + "\r\nContent-Type: application/json\r\nContent-Length: "
                + QByteArray::number(body.size()) + "\r\n\r\n" + body);
            while (client.bytesToWrite() > 0)
                QVERIFY(client.waitForBytesWritten(10000));
            server.process().terminate(); // SIGTERM while the deploy is processed

            QByteArray answer;
            QTRY_VERIFY_WITH_TIMEOUT((answer += client.readAll()).contains("}"), 30000);
            QVERIFY2(answer.startsWith("HTTP/1.1 200"), answer.constData());
            QVERIFY(answer.contains("\"slug\":\"last-word\""));
            QVERIFY(server.waitForExit(30000));
            QCOMPARE(server.process().exitCode(), 0);
        }
        BerthdProcess again(dir.path());
        QVERIFY(again.start());
        berth::test::HttpTestClient client(again.port());
        const auto page = client.site(u"last-word"_s);
        QCOMPARE(page.status, 200);
        QVERIFY(page.body.contains("still here"));
        QCOMPARE(client.site(u"last-word"_s, u"/big3.txt"_s).body.size(), textSize + 1);
    }
};

QTEST_GUILESS_MAIN(TestGracefulStop)
#include "tst_gracefulstop.moc"
