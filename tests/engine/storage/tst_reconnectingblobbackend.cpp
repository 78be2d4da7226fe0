// ReconnectingBlobBackend: a call that found its connection dropped (Unavailable) is made once more, and only that;
// a load only while nothing has reached its sink; a second try that cannot connect leaves the first answer (503).
// (tst_nodes' databaseOutage proves the whole on a real database restart.)
#include "storage/reconnectingblobbackend.h"

#include <QList>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {

const Error kDropped {Error::Kind::Unavailable, u"The database is unavailable; try again in a moment"_s};
const Error kCannotConnect {Error::Kind::Internal, u"cannot connect to postgresql://berth@db/berth"_s};
const Error kFull = Error::insufficientStorage();

// Answers each call with the next of the planned failures (then success), and counts calls.
class ScriptedBackend final : public BlobBackend
{
public:
    QList<Error> failures; // consumed one per call
    int calls = 0;
    bool sendPieceBeforeFailing = false;

    Result<bool> store(const QByteArray &, const QByteArray &, const QByteArray &) override
    {
        return next() ? Result<bool>(*m_failure) : Result<bool>(true);
    }
    Result<bool> retain(const QByteArray &) override { return next() ? Result<bool>(*m_failure) : Result<bool>(true); }
    Result<bool> has(const QByteArray &, const QByteArray &) override
    {
        return next() ? Result<bool>(*m_failure) : Result<bool>(true);
    }
    Result<QHash<QByteArray, qint64>> variantSizes(const QList<QByteArray> &, const QByteArray &) override
    {
        return next() ? Result<QHash<QByteArray, qint64>>(*m_failure)
                      : Result<QHash<QByteArray, qint64>>(QHash<QByteArray, qint64> {{"h", 7}});
    }
    Result<bool> load(const QByteArray &, const QByteArray &, const ChunkSink &sink) override
    {
        if (next()) {
            if (sendPieceBeforeFailing)
                sink("part");
            return *m_failure;
        }
        return sink("whole");
    }
    Result<bool> remove(const QByteArray &) override { return next() ? Result<bool>(*m_failure) : Result<bool>(true); }
    Result<int> removeAllExcept(const QSet<QByteArray> &) override
    {
        return next() ? Result<int>(*m_failure) : Result<int>(3);
    }

private:
    bool next()
    {
        ++calls;
        m_failure = failures.isEmpty() ? std::nullopt : std::optional<Error>(failures.takeFirst());
        return m_failure.has_value();
    }
    std::optional<Error> m_failure;
};

} // namespace

class TestReconnectingBlobBackend : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aDroppedConnectionIsTriedOnceMore()
    {
        ScriptedBackend backend;
        ReconnectingBlobBackend reconnecting(backend);
        backend.failures = {kDropped};
        QVERIFY(reconnecting.store("h", {}, "data"));
        QCOMPARE(backend.calls, 2);
        backend.failures = {kDropped};
        QVERIFY(reconnecting.has("h", {}));
        backend.failures = {kDropped};
        QVERIFY(reconnecting.remove("h"));
        backend.failures = {kDropped};
        QCOMPARE(reconnecting.removeAllExcept({}).value(), 3);
        backend.failures = {kDropped};
        QVERIFY(reconnecting.retain("h").value());
        backend.failures = {kDropped};
        QCOMPARE(reconnecting.variantSizes({"h"}, "gz").value().value("h"), 7);
        QCOMPARE(backend.calls, 12);
    }

    void onlyOnceAndOnlyForADroppedConnection()
    {
        ScriptedBackend backend;
        ReconnectingBlobBackend reconnecting(backend);
        backend.failures = {kDropped, kDropped};
        QCOMPARE(reconnecting.store("h", {}, "data").error().kind, Error::Kind::Unavailable);
        QCOMPARE(backend.calls, 2);
        backend.failures = {kFull}; // a statement's own failure is the answer
        QCOMPARE(reconnecting.store("h", {}, "data").error().kind, Error::Kind::InsufficientStorage);
        QCOMPARE(backend.calls, 3);
        backend.failures = {kDropped, kFull}; // the second try's own failure is the answer too
        QCOMPARE(reconnecting.store("h", {}, "data").error().kind, Error::Kind::InsufficientStorage);
        QCOMPARE(backend.calls, 5);
    }

    void aSecondTryThatCannotConnectLeavesTheDatabaseUnavailable()
    {
        ScriptedBackend backend;
        ReconnectingBlobBackend reconnecting(backend);
        backend.failures = {kDropped, kCannotConnect};
        const Result<bool> has = reconnecting.has("h", {});
        QCOMPARE(has.error().kind, Error::Kind::Unavailable);
        QCOMPARE(has.error().message, kDropped.message); // not the server's words
    }

    void aLoadIsTriedAgainOnlyBeforeItsFirstPiece()
    {
        ScriptedBackend backend;
        ReconnectingBlobBackend reconnecting(backend);
        QByteArrayList pieces;
        const auto sink = [&pieces](const QByteArray &piece) {
            pieces.append(piece);
            return true;
        };
        backend.failures = {kDropped};
        QVERIFY(reconnecting.load("h", {}, sink).value());
        QCOMPARE(pieces, (QByteArrayList {"whole"}));

        pieces.clear();
        backend.calls = 0;
        backend.sendPieceBeforeFailing = true;
        backend.failures = {kDropped};
        QCOMPARE(reconnecting.load("h", {}, sink).error().kind, Error::Kind::Unavailable);
        QCOMPARE(backend.calls, 1); // a piece had arrived: another try would send it twice
        QCOMPARE(pieces, (QByteArrayList {"part"}));
    }
};

QTEST_APPLESS_MAIN(TestReconnectingBlobBackend)
#include "tst_reconnectingblobbackend.moc"
