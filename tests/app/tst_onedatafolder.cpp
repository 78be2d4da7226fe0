// One data folder, one server: a second `berthd serve` on a folder in use refuses, naming the process
// that holds it; a holder that died does not keep the folder from the next one.
#include "berthdprocess.h"

#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::BerthdProcess;

class TestOneDataFolder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aSecondServerOnTheSameFolderRefuses()
    {
        QTemporaryDir data;
        BerthdProcess first(data.path());
        QVERIFY(first.start());

        const auto second
            = BerthdProcess::run({u"serve"_s, u"--listen"_s, u"127.0.0.1:0"_s, u"--data-dir"_s, data.path()});
        QCOMPARE(second.exitCode, 1);
        const QString message = QString::fromUtf8(second.err);
        QVERIFY2(message.contains(u"berthd (pid %1)"_s.arg(first.process().processId())), qPrintable(message));
        QVERIFY(message.contains(data.path()));
        QVERIFY(!second.out.contains("is serving"));
        QCOMPARE(first.process().state(), QProcess::Running); // the first one is untouched
    }

    void aFolderLeftByAKilledServerIsTakenOver()
    {
        QTemporaryDir data;
        {
            BerthdProcess first(data.path());
            QVERIFY(first.start());
            first.kill(); // SIGKILL: the lock file stays behind
        }
        QVERIFY(QFile::exists(data.filePath(u"berth.lock"_s)));
        BerthdProcess next(data.path());
        QVERIFY(next.start());
    }
};

QTEST_GUILESS_MAIN(TestOneDataFolder)
#include "tst_onedatafolder.moc"
