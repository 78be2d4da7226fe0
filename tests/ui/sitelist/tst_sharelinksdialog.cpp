// The Share links dialog over a real engine: a link made with a label, an expiry and a number of opens shows its
// address once (with a QR code) and opens the private site over HTTP; the list counts its opens; revoking it shuts
// out the visitor who came in through it at their next request; a public site says that links wait for privacy.
#include "domain/deploy/deploymentservice.h"
#include "ui/sitelist/sharelinksdialog.h"
#include "ui/widgets/prompter.h"
#include "ui/widgets/qrcodeview.h"
#include "ui/widgets/translations.h"
#include "uitestsupport.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QUrl>

using namespace Qt::StringLiterals;
using namespace berth;
using berth::test::child;
using berth::test::Dashboard;
using berth::test::TestReply;

class TestShareLinksDialog : public QObject
{
    Q_OBJECT

private:
    Translations m_translations;
    std::unique_ptr<Dashboard> m_dashboard;
    Prompter m_prompter;

    Deployment deploy(const QString &slug, bool isPrivate)
    {
        DeployRequest request;
        request.slug = slug;
        request.files = QList<FileUpload> {{u"index.html"_s, "<p>shared</p>", "text/html; charset=utf-8"}};
        request.protect = isPrivate;
        const auto future = m_dashboard->engine().deployments().create(m_dashboard->owner(), request);
        if (!QTest::qWaitFor([&] { return future.isFinished(); }, 10'000) || !future.result()) {
            qWarning("deploy of %s failed", qPrintable(slug));
            return {};
        }
        return future.result().value();
    }
    std::unique_ptr<ShareLinksDialog> open(const Deployment &deployment)
    {
        const DashboardContext context {
            m_dashboard->engine(), m_dashboard->owner(), m_dashboard->settings(), m_prompter};
        auto dialog = std::make_unique<ShareLinksDialog>(context, deployment);
        dialog->show();
        return dialog;
    }
    static QStringList row(QTreeWidget *list, int index)
    {
        QStringList cells;
        for (int column = 0; column < list->columnCount(); ++column)
            cells << list->topLevelItem(index)->text(column);
        return cells;
    }
    // Opens a share link's address as a browser would: its answer (a redirect that sets the access cookie).
    TestReply visit(const QString &url)
    {
        const QUrl address(url);
        return m_dashboard->client().request(
            "GET", u"%1:%2"_s.arg(address.host()).arg(address.port()), address.path() + u'?' + address.query());
    }
    TestReply withCookie(const QString &slug, const TestReply &redirect)
    {
        const QByteArray cookie = redirect.header("set-cookie").split(';').value(0);
        return m_dashboard->client().site(slug, u"/"_s, "GET", {{"Cookie", cookie}});
    }

private Q_SLOTS:
    void init()
    {
        m_dashboard = std::make_unique<Dashboard>();
        QVERIFY(m_dashboard->start());
    }
    void cleanup() { m_dashboard.reset(); }

    void aLinkIsMadeOpenedCountedAndRevoked()
    {
        const Deployment site = deploy(u"shared-site"_s, true);
        QVERIFY(!site.id.isEmpty());
        auto dialog = open(site);
        auto *list = child<QTreeWidget>(dialog.get(), u"shareLinksList"_s);
        auto *newLink = child<QLineEdit>(dialog.get(), u"newLinkLineEdit"_s);
        QVERIFY(list && newLink);
        QCOMPARE(list->topLevelItemCount(), 0);
        QVERIFY(!newLink->isVisible());

        child<QLineEdit>(dialog.get(), u"linkLabelLineEdit"_s)->setText(u"Client review"_s);
        child<QComboBox>(dialog.get(), u"linkExpiresComboBox"_s)->setCurrentIndex(2); // in 7 days
        child<QSpinBox>(dialog.get(), u"linkMaxOpensSpinBox"_s)->setValue(2);
        QTest::mouseClick(child<QPushButton>(dialog.get(), u"createLinkButton"_s), Qt::LeftButton);
        QCOMPARE(list->topLevelItemCount(), 1);
        QCOMPARE(row(list, 0).mid(0, 3), (QStringList {u"Client review"_s, u"Open"_s, u"0 of 2"_s}));
        QVERIFY2(row(list, 0).at(3).startsWith(u"in 7 day"_s), qPrintable(row(list, 0).at(3)));
        const QString url = newLink->text();
        QVERIFY2(url.contains(u"?_token="_s), qPrintable(url));
        QVERIFY(newLink->isVisible());
        QVERIFY(child<QrCodeView>(dialog.get(), u"newLinkQrCode"_s)->isVisible());

        const TestReply redirect = visit(url);
        QCOMPARE(redirect.status, 302);
        QCOMPARE(withCookie(site.slug, redirect).body, QByteArray("<p>shared</p>"));
        dialog = open(site); // a new look: the open counted, the address no longer shown
        list = child<QTreeWidget>(dialog.get(), u"shareLinksList"_s);
        QCOMPARE(row(list, 0).at(2), u"1 of 2"_s);
        QVERIFY(!child<QLineEdit>(dialog.get(), u"newLinkLineEdit"_s)->isVisible());
        QVERIFY(row(list, 0).at(4) != u"Never"_s);

        auto *revoke = child<QPushButton>(dialog.get(), u"revokeLinkButton"_s);
        QVERIFY(!revoke->isEnabled());
        list->setCurrentItem(list->topLevelItem(0));
        QVERIFY(revoke->isEnabled());
        m_prompter.setNextAnswer(QMessageBox::Yes);
        QTest::mouseClick(revoke, Qt::LeftButton);
        QVERIFY(m_prompter.lastMessage().contains(u"Client review"_s));
        QCOMPARE(row(list, 0).at(1), u"Revoked"_s);
        QVERIFY(!revoke->isEnabled());
        QCOMPARE(withCookie(site.slug, redirect).status, 403); // the visitor who came in through it
        QCOMPARE(visit(url).status, 403);
    }

    void cancellingTheQuestionKeepsTheLink()
    {
        const Deployment site = deploy(u"kept-link"_s, true);
        auto dialog = open(site);
        QTest::mouseClick(child<QPushButton>(dialog.get(), u"createLinkButton"_s), Qt::LeftButton);
        auto *list = child<QTreeWidget>(dialog.get(), u"shareLinksList"_s);
        QCOMPARE(row(list, 0).mid(0, 4), (QStringList {u"(no label)"_s, u"Open"_s, u"0"_s, u"Never"_s}));
        list->setCurrentItem(list->topLevelItem(0));
        m_prompter.setNextAnswer(QMessageBox::Cancel);
        QTest::mouseClick(child<QPushButton>(dialog.get(), u"revokeLinkButton"_s), Qt::LeftButton);
        QCOMPARE(row(list, 0).at(1), u"Open"_s);
        QCOMPARE(visit(child<QLineEdit>(dialog.get(), u"newLinkLineEdit"_s)->text()).status, 302);
    }

    void aPublicSiteSaysLinksWaitForPrivacy()
    {
        const Deployment site = deploy(u"open-site"_s, false);
        auto dialog = open(site);
        bool said = false;
        for (const QLabel *label : dialog->findChildren<QLabel *>())
            said = said || label->text().contains(u"This site is public"_s);
        QVERIFY(said);
    }
};

QTEST_MAIN(TestShareLinksDialog)
#include "tst_sharelinksdialog.moc"
