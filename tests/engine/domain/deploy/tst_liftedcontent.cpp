// LiftedContent against Qt's parse of the whole body: the skeleton with every placeholder put back reads as the body
// does, only "content" values without escapes are lifted, and no client text can pose as a placeholder. Most cases
// lift values of any length (a minimum of 1) to reach the scan's corners with short bodies.
#include "common/liftedjson.h"
#include "domain/deploy/liftedcontent.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {

QJsonValue parsed(const QByteArray &text, bool *ok)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(text, &error);
    *ok = error.error == QJsonParseError::NoError;
    return document.isArray() ? QJsonValue(document.array()) : QJsonValue(document.object());
}

void compareWithWholeParse(const QByteArray &body)
{
    const LiftedContent lifted(body, 1);
    QVERIFY(lifted.allText());
    QVERIFY2(test::skeletonReadsAsBody(lifted, body), body.left(200).constData());
}

QList<QByteArray> liftedValues(const QByteArray &body, qsizetype minimumLength = 1)
{
    const LiftedContent lifted(body, minimumLength);
    QList<QByteArray> values;
    for (qsizetype i = 0; i < lifted.count(); ++i)
        values.append(lifted.value(i).toByteArray());
    return values;
}

} // namespace

class TestLiftedContent final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void liftsContentValues()
    {
        const QByteArray body = R"({"files": [{"path": "a.bin", "content": "aGk=", "encoding": "base64"},
            {"content"  :
              "second", "path": "b.txt"}], "title": "content"})"_ba;
        const LiftedContent lifted(body, 1);
        QCOMPARE(liftedValues(body), QList<QByteArray>({"aGk="_ba, "second"_ba}));
        QVERIFY(!lifted.skeleton().contains("aGk="));
        QVERIFY(!lifted.skeleton().contains("second"));
        QVERIFY(lifted.skeleton().contains(R"("title": "content")"));
        compareWithWholeParse(body);
    }

    void leavesOtherStringsAlone()
    {
        // "content" as a value, inside another string, escaped, or as a key whose value is not a string.
        // (No raw strings where the JSON holds \": moc misreads them.)
        const QByteArray body
            = "{\"a\": \"content\", \"b\": \"x\\\"content\\\": \\\"y\", \"\\u0063ontent\": \"z\", "
              "\"content\": 12, \"c\": [\"content\", \":\", \"w\"], \"content\": {\"content\": \"inner\"}}"_ba;
        QCOMPARE(liftedValues(body), QList<QByteArray>({"inner"_ba}));
        compareWithWholeParse(body);
    }

    void valuesWithEscapesStayForQt()
    {
        const QByteArray body
            = "{\"content\": \"a\\nb\", \"x\": {\"content\": \"\\\"quoted\\\"\", \"content\": \"ok\\\\\"}}"_ba;
        QCOMPARE(liftedValues(body), QList<QByteArray>());
        QCOMPARE(LiftedContent(body, 1).skeleton(), body);
        compareWithWholeParse(body);
    }

    void unterminatedStringsEndTheScan()
    {
        const QList<QPair<QByteArray, qsizetype>> bodies {{"{\"content\": \"abc"_ba, 0},
            {"{\"content\": \"abc\\\""_ba, 0}, {"{\"content"_ba, 0}, {"{\"path\": \"x\\"_ba, 0},
            {"{\"content\": \"a\", \"content\": \"b\\"_ba, 1}};
        for (const auto &[body, count] : bodies) {
            const LiftedContent lifted(body, 1);
            QCOMPARE(lifted.count(), count);
            bool ok = true;
            parsed(lifted.skeleton(), &ok);
            QVERIFY2(!ok, body.constData());
            compareWithWholeParse(body);
        }
    }

    void randomBodiesReadAsTheWhole()
    {
        // Documents of random shape whose strings are drawn from pieces that matter to the scan.
        const QList<QString> pieces {u"content"_s, u"\""_s, u"\\"_s, u":"_s, u" "_s, u"aGk="_s, u"\u00e9"_s, u"\n"_s,
            u"berth-lifted-"_s, u"0"_s};
        QRandomGenerator random(11);
        const auto text = [&] {
            QString s;
            for (int n = int(random.bounded(4)); n > 0; --n)
                s += pieces.at(random.bounded(int(pieces.size())));
            return s;
        };
        for (int round = 0; round < 300; ++round) {
            QJsonArray files;
            for (int n = int(random.bounded(4)); n > 0; --n) {
                QJsonObject entry {{text(), text()}};
                entry.insert(u"content"_s, random.bounded(4) ? QJsonValue(text()) : QJsonValue(QJsonArray {text()}));
                files.append(entry);
            }
            const QJsonObject body {{u"files"_s, files}, {text(), text()}};
            const QByteArray json
                = QJsonDocument(body).toJson(random.bounded(2) ? QJsonDocument::Compact : QJsonDocument::Indented);
            const LiftedContent lifted(json, 1);
            if (!lifted.allText())
                continue; // non-ASCII values are parsed whole by parseDeployRequest
            compareWithWholeParse(json);
        }
    }

    void allTextChecksWhatWasNotMarked()
    {
        const QByteArray body = "{\"content\": \"ok\", \"content\": \"caf\xc3\xa9\", \"content\": \"tab\there\"}"_ba;
        LiftedContent lifted(body, 1);
        QCOMPARE(lifted.count(), 3);
        QVERIFY(!lifted.allText());
        lifted.markText(1); // a caller that read value 1 as text vouches for it
        QVERIFY(!lifted.allText()); // value 2 holds a raw tab
        lifted.markText(2);
        QVERIFY(lifted.allText());
        QVERIFY(LiftedContent::isPrintableAscii(" ~azAZ09+/="));
        QVERIFY(!LiftedContent::isPrintableAscii("\x7f"));
        QVERIFY(!LiftedContent::isPrintableAscii("\x80"));
        QVERIFY(!LiftedContent::isPrintableAscii("a\x1f"));
    }

    void noTextPosesAsAPlaceholder()
    {
        const QByteArray body = R"({"content": "x", "content": "y"})"_ba;
        const LiftedContent lifted(body, 1);
        const LiftedContent other(body, 1);
        bool ok = false;
        const QJsonObject skeleton = parsed(lifted.skeleton(), &ok).toObject();
        QVERIFY(ok);
        const QString placeholder = skeleton.value(u"content"_s).toString(); // the last of duplicate keys
        QCOMPARE(lifted.indexOf(placeholder), std::optional<qsizetype>(1));
        QCOMPARE(lifted.value(1).toByteArray(), "y"_ba);
        QVERIFY(!other.indexOf(placeholder)); // each body has its own nonce
        const QString prefix = placeholder.chopped(1);
        QCOMPARE(lifted.indexOf(prefix + u'0'), std::optional<qsizetype>(0));
        for (const QString &fake : {prefix + u"2"_s, prefix + u"01"_s, prefix + u"+1"_s, prefix + u" 1"_s,
                 prefix + u"1 "_s, prefix + u"-1"_s, prefix, prefix + u"1x"_s, u"x"_s + prefix + u'1'})
            QVERIFY2(!lifted.indexOf(fake), qPrintable(fake));
    }

    void shortValuesStayByDefault()
    {
        const QByteArray longValue(LiftedContent::kMinimumLength, 'a');
        const QByteArray shortValue(LiftedContent::kMinimumLength - 1, 'b');
        const QByteArray body = "[{\"content\": \"" + shortValue + "\"}, {\"content\": \"" + longValue + "\"}]";
        const LiftedContent lifted(body);
        QCOMPARE(liftedValues(body, LiftedContent::kMinimumLength), QList<QByteArray>({longValue}));
        QVERIFY(lifted.skeleton().contains(shortValue));
        QVERIFY(!lifted.skeleton().contains(longValue));

        // A placeholder is shorter than the value it replaces: the skeleton never grows, however many values.
        QByteArray many = "[";
        for (int i = 0; i < 2000; ++i)
            many += "{\"content\":\"" + longValue + "\"},";
        many += "0]";
        const LiftedContent manyLifted(many);
        QCOMPARE(manyLifted.count(), 2000);
        QVERIFY(manyLifted.skeleton().size() < many.size());
    }

    void manyKeysAndEscapes()
    {
        // 20,000 lifted values and a value of 200,000 escapes: each read once, the skeleton as Qt reads the body.
        QByteArray body = "[";
        for (int i = 0; i < 20000; ++i)
            body += "{\"content\":\"v" + QByteArray::number(i) + "\"},";
        body += "{\"content\":\"" + QByteArray(200000, '\\') + "\\\"\"}]";
        const LiftedContent lifted(body, 1);
        QCOMPARE(lifted.count(), 20000);
        QCOMPARE(lifted.value(19999).toByteArray(), "v19999"_ba);
        compareWithWholeParse(body);
    }
};

QTEST_GUILESS_MAIN(TestLiftedContent)
#include "tst_liftedcontent.moc"
