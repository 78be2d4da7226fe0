// ContentDigest (OpenSSL's SHA-256) names blobs: it must give the digests QCryptographicHash gave before it, or
// every stored blob would stop matching its name.
#include "storage/contentdigest.h"

#include <QCryptographicHash>
#include <QRandomGenerator>
#include <QTest>

using namespace berth;

class TestContentDigest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void knownDigests()
    {
        QCOMPARE(ContentDigest::hexOf(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        QCOMPARE(ContentDigest::hexOf("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    void sameAsQtInOneGoAndInPieces()
    {
        QRandomGenerator random(3);
        for (const qsizetype size :
            {qsizetype(1), qsizetype(55), qsizetype(56), qsizetype(64), qsizetype(1000), qsizetype(3 << 20)}) {
            QByteArray bytes(size, Qt::Uninitialized);
            for (char &byte : bytes)
                byte = char(random.bounded(256));
            const QByteArray expected = QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
            QCOMPARE(ContentDigest::hexOf(bytes), expected);
            ContentDigest pieces;
            for (qsizetype at = 0; at < size; at += 777)
                pieces.addData(QByteArrayView(bytes).sliced(at, qMin<qsizetype>(777, size - at)));
            QCOMPARE(pieces.hexResult(), expected);
        }
    }
};

QTEST_GUILESS_MAIN(TestContentDigest)
#include "tst_contentdigest.moc"
