// A site's Notifications window over a real engine: the webhooks that apply to the site (its own and those for
// every site, not another site's), "Send test" delivering a real ping to a receiver on loopback with its status in
// the deliveries list, and "Mail me new submissions" making (and removing) a mailto: webhook for the site's
// submission.created events through the engine's webhook service.
#include "domain/deploy/deploymentservice.h"
#include "domain/events/eventtypes.h"
#include "domain/events/webhookservice.h"
#include "ui/mainwindow/notifier.h"
#include "ui/notifications/notificationsdialog.h"
#include "ui/sitelist/deploymentactions.h"
#include "ui/sitelist/deploymenttablemodel.h"
#include "ui/widgets/translations.h"
#include "uitestsupport.h"
#include "webhookreceiver.h"

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSqlQuery>
#include <QTreeWidget>

using namespace Qt::StringLiterals;
using namespace berth;
using berth::test::child;
using berth::test::Dashboard;
using berth::test::WebhookReceiver;

namespace {

class RecordingNotifier final : public Notifier
{
public:
    void notify(const QString &title, const QString &message) override { shown.append(title + u": "_s + message); }
    QStringList shown;
};

} // namespace

class TestNotificationsDialog : public QObject
{
    Q_OBJECT

private:
    Translations m_translations;
    std::unique_ptr<Dashboard> m_dashboard;
    std::unique_ptr<WebhookReceiver> m_receiver;
    QString m_id;
    QString m_otherId;

    MainWindow &window() { return m_dashboard->window(); }
    WebhookService &webhooks() { return m_dashboard->engine().webhooks(); }
    Result<Webhook> addWebhook(const QString &url, const QString &deploymentId)
    {
        std::optional<Result<Webhook>> answer;
        webhooks().add(m_dashboard->owner(), {url, {QLatin1String(EventTypes::kSubmissionCreated)}, deploymentId},
            [&](Result<Webhook> added) { answer = std::move(added); });
        if (!QTest::qWaitFor([&] { return answer.has_value(); }, 5000))
            return Error {Error::Kind::Internal, u"no answer"_s};
        return *answer;
    }
    NotificationsDialog *open()
    {
        m_dashboard->select(m_id);
        window().actions().notificationsAction->trigger();
        NotificationsDialog *dialog = nullptr;
        const auto opened = [&] { return (dialog = berth::test::openDialog<NotificationsDialog>(&window())); };
        return QTest::qWaitFor(opened, 5000) ? dialog : nullptr;
    }
    static QStringList column(QTreeWidget *tree, int column)
    {
        QStringList texts;
        for (int i = 0; i < tree->topLevelItemCount(); ++i)
            texts.append(tree->topLevelItem(i)->text(column));
        return texts;
    }

private Q_SLOTS:
    void initTestCase() { m_translations.install(QLocale(QLocale::English, QLocale::UnitedStates)); }
    void init()
    {
        m_dashboard = std::make_unique<Dashboard>();
        QVERIFY(m_dashboard->start());
        QVERIFY(webhooks().setTargets(WebhookTargets::Policy::Any)); // the receiver is on loopback
        m_receiver = std::make_unique<WebhookReceiver>();
        QVERIFY(m_receiver->listen());
        m_id = m_dashboard->deploy(u"contact-form"_s, {{u"index.html"_s, "<form method=post action=/_submit>"}});
        m_otherId = m_dashboard->deploy(u"other-site"_s, {{u"index.html"_s, "<p>other</p>"}});
        QVERIFY(!m_id.isEmpty() && !m_otherId.isEmpty());
        QTRY_COMPARE(window().model().rowCount(), 2);
    }
    void cleanup()
    {
        m_dashboard.reset();
        m_receiver.reset();
    }

    void listsTheSitesWebhooksAndSendsATest()
    {
        const QString own = u"http://127.0.0.1:%1/own"_s.arg(m_receiver->port());
        const QString everySite = u"http://127.0.0.1:%1/all"_s.arg(m_receiver->port());
        QVERIFY(addWebhook(own, m_id));
        QVERIFY(addWebhook(everySite, QString()));
        QVERIFY(addWebhook(u"http://127.0.0.1:%1/other"_s.arg(m_receiver->port()), m_otherId));
        NotificationsDialog *dialog = open();
        QVERIFY(dialog);
        QVERIFY(!dialog->isModal());
        QCOMPARE(dialog->windowTitle(), u"contact-form – Notifications"_s);
        auto *list = child<QTreeWidget>(dialog, u"webhooksList"_s);
        QCOMPARE(column(list, 0), (QStringList {own, everySite}));
        QCOMPARE(column(list, 2), (QStringList {u"This site"_s, u"All sites"_s}));

        list->setCurrentItem(list->topLevelItem(0));
        auto *deliveries = child<QTreeWidget>(dialog, u"deliveriesList"_s);
        QCOMPARE(deliveries->topLevelItemCount(), 0);
        child<QPushButton>(dialog, u"sendTestButton"_s)->click();
        QTRY_COMPARE(m_receiver->requests.size(), 1);
        QCOMPARE(m_receiver->requests.constFirst().path, QByteArray("/own"));
        QCOMPARE(m_receiver->requests.constFirst().header("berth-event"), QByteArray("ping"));
        // The window reads the delivery log again by itself: delivered, with the receiver's answer.
        QTRY_COMPARE(column(deliveries, 1), QStringList {u"Delivered"_s});
        QCOMPARE(column(deliveries, 0), QStringList {u"ping"_s});
        QCOMPARE(column(deliveries, 3), QStringList {u"200"_s});
        QCOMPARE(column(deliveries, 2), QStringList {u"1"_s});
    }

    void mailMeNewSubmissionsMakesAMailtoWebhook()
    {
        NotificationsDialog *dialog = open();
        QVERIFY(dialog);
        auto *address = child<QLineEdit>(dialog, u"mailAddressLineEdit"_s);
        auto *button = child<QPushButton>(dialog, u"mailSubmissionsButton"_s);
        QCOMPARE(button->text(), u"Mail Me &New Submissions"_s);
        address->setText(u"not an address"_s);
        QVERIFY(!button->isEnabled());
        address->setText(u"owner@example.com"_s);
        QVERIFY(button->isEnabled());
        button->click();
        QTRY_COMPARE(button->text(), u"&Stop Mailing"_s);
        const auto made = webhooks().list(m_dashboard->owner());
        QVERIFY(made);
        QCOMPARE(made.value().size(), 1);
        const Webhook &mail = made.value().constFirst();
        QCOMPARE(mail.url, u"mailto:owner@example.com"_s);
        QCOMPARE(mail.events, QStringList {u"submission.created"_s});
        QCOMPARE(mail.deploymentId, m_id);
        QCOMPARE(
            child<QLabel>(dialog, u"mailStateLabel"_s)->text(), u"New submissions are mailed to owner@example.com."_s);
        QVERIFY(address->isReadOnly());

        button->click();
        QTRY_COMPARE(button->text(), u"Mail Me &New Submissions"_s);
        QCOMPARE(webhooks().list(m_dashboard->owner()).value().size(), 0);
    }

    // A webhook turned off for failing every delivery for days: the owner is told by a desktop notification, the
    // window says since when, and Turn On Again gives it new events again.
    void aDisabledWebhookIsToldAndTurnedOnAgain()
    {
        const QString url = u"http://127.0.0.1:%1/failing"_s.arg(m_receiver->port());
        const auto added = addWebhook(url, m_id);
        QVERIFY(added);
        const auto database = m_dashboard->fixture().database();
        QVERIFY(database->open());
        QSqlQuery disable(database->connection());
        disable.prepare(u"UPDATE webhooks SET disabled_at = ? WHERE id = ?"_s);
        disable.addBindValue(u"2026-11-20T10:00:00.000Z"_s);
        disable.addBindValue(added.value().id);
        QVERIFY(disable.exec());
        RecordingNotifier notifier;
        window().setNotifier(&notifier);
        webhooks().announceDisabled(added.value().id);
        QTRY_COMPARE(notifier.shown.size(), 1);
        QVERIFY2(notifier.shown.constFirst().contains(url), qPrintable(notifier.shown.constFirst()));

        NotificationsDialog *dialog = open();
        QVERIFY(dialog);
        auto *list = child<QTreeWidget>(dialog, u"webhooksList"_s);
        list->setCurrentItem(list->topLevelItem(0));
        QVERIFY(column(list, 3).constFirst().startsWith(u"Off since"_s));
        auto *enable = child<QPushButton>(dialog, u"enableWebhookButton"_s);
        QVERIFY(enable->isEnabled());
        enable->click();
        QCOMPARE(column(list, 3), QStringList {u"On"_s});
        QVERIFY(!enable->isEnabled());
        QVERIFY(!webhooks().list(m_dashboard->owner()).value().constFirst().disabledAt.isValid());
        window().setNotifier(nullptr);
    }
};

QTEST_MAIN(TestNotificationsDialog)
#include "tst_notificationsdialog.moc"
