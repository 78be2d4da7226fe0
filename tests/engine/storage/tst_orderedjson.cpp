// OrderedJson: a JSON object's keys in the order written (QJsonObject sorts them), and the object written back in
// a given order; text written by QJsonDocument (rows stored before the order was kept) reads in its sorted order.
#include "storage/orderedjson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

class TestOrderedJson : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void keysComeInTheOrderWritten()
    {
        // Nested objects and arrays, strings with quotes, brackets and commas, escaped keys, a repeated key.
        const QByteArray text = " {\"zeta\": {\"a\": 1, \"b\": [1, \"]\", {\"c\": \"}\"}]}, \"al\\\"pha\": "
                                "\"x,\\\"y\\\"\", \"mid\\u00e9\": [], \"zeta\": 2, \"\": null}";
        QVERIFY(!QJsonDocument::fromJson(text).isNull());
        QCOMPARE(OrderedJson::keys(text), (QStringList {u"zeta"_s, u"al\"pha"_s, u"midé"_s, QString()}));
    }

    void notAnObjectHasNoKeys()
    {
        QVERIFY(OrderedJson::keys("[1,2]").isEmpty());
        QVERIFY(OrderedJson::keys("").isEmpty());
        QVERIFY(OrderedJson::keys("{}").isEmpty());
    }

    void writtenInTheGivenOrderAndReadBack()
    {
        const QJsonObject object {{u"message"_s, u"Hi, \"you\""_s}, {u"email"_s, u"a@b.example"_s},
            {u"topics"_s, QJsonArray {u"x"_s, u"y"_s}}, {u"extra"_s, 1}};
        const QByteArray text = OrderedJson::write(object, {u"topics"_s, u"email"_s, u"gone"_s, u"message"_s});
        QCOMPARE(QJsonDocument::fromJson(text).object(), object); // the same object
        QCOMPARE(OrderedJson::keys(text), (QStringList {u"topics"_s, u"email"_s, u"message"_s, u"extra"_s}));
        const QByteArray expected = "{\"topics\":[\"x\",\"y\"],\"email\":\"a@b.example\","
                                    "\"message\":\"Hi, \\\"you\\\"\",\"extra\":1}";
        QCOMPARE(text, expected);
    }

    void textQJsonDocumentWroteReadsSorted()
    {
        const QJsonObject object {{u"name"_s, 1}, {u"age"_s, 2}, {u"email"_s, 3}};
        const QByteArray stored = QJsonDocument(object).toJson(QJsonDocument::Compact);
        QCOMPARE(OrderedJson::keys(stored), (QStringList {u"age"_s, u"email"_s, u"name"_s}));
    }
};

QTEST_MAIN(TestOrderedJson)
#include "tst_orderedjson.moc"
