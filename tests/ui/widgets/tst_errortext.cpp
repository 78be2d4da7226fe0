// The engine's refusals as the dashboard words them, in English and German: each one produced by
// the real engine, so that a change of its wording shows here instead of reaching people as a wrong
// sentence (a counter limit worded as the deployment limit, a taken slug as "no longer exists").
#include "domain/accounts/accountservice.h"
#include "domain/common/mimetypes.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/plans/plansettings.h"
#include "domain/visitors/counterservice.h"
#include "domain/visitors/submissionservice.h"
#include "enginefixture.h"
#include "ui/widgets/errortext.h"
#include "ui/widgets/translations.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;
using Code = ErrorText::Code;

class TestErrorText : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<test::EngineFixture> m_fixture;
    User m_owner;

    Engine &engine() { return m_fixture->engine(); }

    Result<Deployment> wait(QFuture<Result<Deployment>> future)
    {
        if (!QTest::qWaitFor([&] { return future.isFinished(); }, 10'000))
            return Error {Error::Kind::Internal, u"timed out"_s};
        return future.result();
    }
    Result<Deployment> create(const QString &slug)
    {
        DeployRequest request;
        request.slug = slug;
        request.files = QList<FileUpload> {{u"index.html"_s, "x", MimeTypes::forPath(u"index.html"_s)}};
        return wait(engine().deployments().create(m_owner, request));
    }
    PlanLimits ownerLimits() { return engine().plans().limits(m_owner.plan); }

    // One real refusal of each code, in the order of the data rows.
    QList<Error> refusals()
    {
        QList<Error> errors;
        const Deployment site = create(u"words-site"_s).value();
        errors.append(create(u"words-site"_s).error()); // SlugTaken
        errors.append(create(u"X"_s).error()); // SlugInvalid
        errors.append(wait(engine().deployments().update(m_owner, u"dep_gone"_s, {})).error());
        PlanLimits limits = ownerLimits();
        limits.countersPerDeployment = 0;
        limits.submissionsPerDay = 0;
        limits.deployments = 1;
        engine().planSettings().setLimits(m_owner.plan, limits);
        errors.append(engine().counters().increment(site, u"visits"_s).error());
        errors.append(create(u"one-too-many"_s).error()); // DeploymentLimitReached
        errors.append(engine().submissions().receive(site, {{u"a"_s, u"b"_s}}).error());
        return errors;
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<test::EngineFixture>(); // a fresh engine, its limits as shipped
        QVERIFY(m_fixture->start());
        m_owner = engine().accounts().ensureOwner().value().owner;
    }
    void cleanup() { m_fixture.reset(); }

    void eachRefusalHasItsCodeAndWords_data()
    {
        QTest::addColumn<QLocale>("locale");
        QTest::addColumn<QList<int>>("codes");
        QTest::addColumn<QStringList>("texts");
        const QList<int> codes {int(Code::SlugTaken), int(Code::SlugInvalid), int(Code::DeploymentNotFound),
            int(Code::CounterLimitReached), int(Code::DeploymentLimitReached), int(Code::SubmissionLimitReached)};
        QTest::newRow("English") << QLocale(QLocale::English, QLocale::UnitedStates) << codes
                                 << QStringList {u"The address “words-site” is already taken by another site."_s,
                                        u"A slug is 3 to 63 characters"_s, u"This deployment no longer exists."_s,
                                        u"as many counters as its plan allows"_s,
                                        u"Your plan's deployment limit is reached."_s,
                                        u"as many form submissions today"_s};
        QTest::newRow("German") << QLocale(QLocale::German, QLocale::Germany) << codes
                                << QStringList {
                                       u"Die Adresse „words-site“ ist bereits von einer anderen Website belegt."_s,
                                       u"Ein Kürzel hat 3 bis 63 Zeichen"_s, u"Diese Website gibt es nicht mehr."_s,
                                       u"so viele Zähler, wie ihr Tarif erlaubt"_s,
                                       u"Die Höchstzahl an Websites Ihres Tarifs ist erreicht."_s,
                                       u"heute so viele Formulareinsendungen"_s};
    }

    void eachRefusalHasItsCodeAndWords()
    {
        QFETCH(QLocale, locale);
        QFETCH(QList<int>, codes);
        QFETCH(QStringList, texts);
        Translations translations;
        translations.install(locale);
        const QList<Error> errors = refusals();
        QCOMPARE(errors.size(), codes.size());
        for (int i = 0; i < errors.size(); ++i) {
            QCOMPARE(int(ErrorText::code(errors.at(i))), codes.at(i));
            const QString text = ErrorText::describe(errors.at(i));
            QVERIFY2(text.contains(texts.at(i)), qPrintable(u"%1: %2"_s.arg(errors.at(i).message, text)));
        }
    }

    // The code chooses the words: a reworded engine message keeps its wording in the dashboard, and an English
    // message that reads like a coded one is not taken for it.
    void theCodeNotTheMessageChoosesTheWords()
    {
        const Error reworded {Error::Kind::NotFound, u"No such counter here"_s, Code::CounterNotFound};
        QCOMPARE(ErrorText::describe(reworded), u"This counter no longer exists."_s);
        const Error uncoded {Error::Kind::Forbidden, DeploymentService::limitReachedMessage()};
        QCOMPARE(ErrorText::code(uncoded), Code::Other);
        QCOMPARE(ErrorText::describe(uncoded), uncoded.message);
    }

    void anUncodedRefusalKeepsTheEnginesDetail()
    {
        const Error tooLarge {Error::Kind::TooLarge, u"“big.bin” is 12 MB; each file may be at most 10 MB."_s};
        QCOMPARE(ErrorText::code(tooLarge), Code::Other);
        QCOMPARE(ErrorText::describe(tooLarge), tooLarge.message);
    }
};

QTEST_MAIN(TestErrorText)
#include "tst_errortext.moc"
