// RateLimiter: exact sliding windows per key, Retry-After, independence of keys, bounded size, thread safety.
#include "domain/common/clock.h"
#include "domain/ratelimit/ratelimiter.h"

#include <QTest>
#include <QtConcurrentRun>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {
const QDateTime kStart = QDateTime(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);
constexpr qint64 kMinute = 60'000;
} // namespace

class TestRateLimiter final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void allowsUpToTheLimitThenRefuses()
    {
        ManualClock clock(kStart);
        RateLimiter limiter(clock);
        for (int i = 0; i < 10; ++i)
            QVERIFY2(limiter.hit(u"ip:1"_s, 10, kMinute).allowed, qPrintable(QString::number(i)));
        const RateDecision refused = limiter.hit(u"ip:1"_s, 10, kMinute);
        QVERIFY(!refused.allowed);
        QCOMPARE(refused.retryAfterSeconds, 60);
    }

    void windowSlidesExactly()
    {
        ManualClock clock(kStart);
        RateLimiter limiter(clock);
        // Hits at 0 s, 20 s, 40 s fill a limit of 3.
        for (int i = 0; i < 3; ++i) {
            QVERIFY(limiter.hit(u"k"_s, 3, kMinute).allowed);
            clock.advance(20'000);
        }
        // Now at 60 s: the first hit (0 s) has just left the window, so one more is allowed, not two.
        QVERIFY(limiter.hit(u"k"_s, 3, kMinute).allowed);
        RateDecision refused = limiter.hit(u"k"_s, 3, kMinute);
        QVERIFY(!refused.allowed);
        QCOMPARE(refused.retryAfterSeconds, 20); // the 20 s hit leaves at 80 s
        clock.advance(19'999);
        QVERIFY(!limiter.hit(u"k"_s, 3, kMinute).allowed);
        clock.advance(1);
        QVERIFY(limiter.hit(u"k"_s, 3, kMinute).allowed);
    }

    void retryAfterIsHonest()
    {
        ManualClock clock(kStart);
        RateLimiter limiter(clock);
        QVERIFY(limiter.hit(u"k"_s, 1, kMinute).allowed);
        clock.advance(30'500);
        const RateDecision refused = limiter.hit(u"k"_s, 1, kMinute);
        QVERIFY(!refused.allowed);
        QCOMPARE(refused.retryAfterSeconds, 30); // 29.5 s rounded up
        // Refused hits are not recorded: waiting Retry-After is enough, however often the client retried.
        for (int i = 0; i < 50; ++i)
            QVERIFY(!limiter.hit(u"k"_s, 1, kMinute).allowed);
        clock.advance(refused.retryAfterSeconds * 1000);
        QVERIFY(limiter.hit(u"k"_s, 1, kMinute).allowed);
    }

    void keysAreIndependent()
    {
        ManualClock clock(kStart);
        RateLimiter limiter(clock);
        QVERIFY(limiter.hit(u"submit:127.0.0.2"_s, 1, kMinute).allowed);
        QVERIFY(!limiter.hit(u"submit:127.0.0.2"_s, 1, kMinute).allowed);
        QVERIFY(limiter.hit(u"submit:127.0.0.3"_s, 1, kMinute).allowed);
        QVERIFY(limiter.hit(u"counter:127.0.0.2"_s, 1, kMinute).allowed);
    }

    void zeroLimitRefusesEverything()
    {
        ManualClock clock(kStart);
        RateLimiter limiter(clock);
        const RateDecision decision = limiter.hit(u"k"_s, 0, kMinute);
        QVERIFY(!decision.allowed);
        QCOMPARE(decision.retryAfterSeconds, 60);
    }

    void ruleOverloadUsesTheRule()
    {
        ManualClock clock(kStart);
        RateLimiter limiter(clock);
        for (int i = 0; i < RateLimits::kAuthOtp.limit; ++i)
            QVERIFY(limiter.hit(u"otp"_s, RateLimits::kAuthOtp).allowed);
        QVERIFY(!limiter.hit(u"otp"_s, RateLimits::kAuthOtp).allowed);
    }

    void idleKeysAreEvicted()
    {
        ManualClock clock(kStart);
        RateLimiter limiter(clock);
        for (int i = 0; i < 100; ++i)
            limiter.hit(u"ip:%1"_s.arg(i), 5, kMinute);
        QCOMPARE(limiter.keyCount(), 100);
        clock.advance(2 * kMinute);
        limiter.hit(u"fresh"_s, 5, kMinute); // a later hit sweeps keys with nothing left in their window
        QCOMPARE(limiter.keyCount(), 1);
    }

    void sizeIsBoundedAndLiveKeysSurvive()
    {
        ManualClock clock(kStart);
        RateLimiter limiter(clock, 64);
        QVERIFY(limiter.hit(u"busy"_s, 1, kMinute).allowed);
        clock.advance(1);
        for (int i = 0; i < 1000; ++i) {
            limiter.hit(u"ip:%1"_s.arg(i), 5, kMinute);
            QVERIFY(limiter.keyCount() <= 64);
            if (i % 10 == 0) { // the busy key keeps being seen, so it is never the least recently used
                clock.advance(1);
                QVERIFY(!limiter.hit(u"busy"_s, 1, kMinute).allowed);
            }
        }
        QVERIFY(!limiter.hit(u"busy"_s, 1, kMinute).allowed);
    }

    void concurrentHitsAreCountedExactly()
    {
        ManualClock clock(kStart);
        RateLimiter limiter(clock);
        QAtomicInt allowed;
        QThreadPool pool;
        pool.setMaxThreadCount(8);
        QList<QFuture<void>> futures;
        for (int t = 0; t < 8; ++t) {
            futures.append(QtConcurrent::run(&pool, [&] {
                for (int i = 0; i < 500; ++i) {
                    if (limiter.hit(u"shared"_s, 1000, kMinute).allowed)
                        allowed.fetchAndAddRelaxed(1);
                }
            }));
        }
        for (auto &future : futures)
            future.waitForFinished();
        QCOMPARE(allowed.loadRelaxed(), 1000);
    }
};

QTEST_APPLESS_MAIN(TestRateLimiter)
#include "tst_ratelimiter.moc"
