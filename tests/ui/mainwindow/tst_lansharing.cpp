// "Share on local network" in the dashboard: the switch in the header and in Settings, the LAN addresses it shows,
// and what the switch does over real HTTP. The LAN is stood in for by a second loopback address (127.0.0.2, given
// as the engine's LAN address), so no test traffic leaves the machine and nothing is announced by mDNS.
#include "deviceget.h"
#include "lan/lanservice.h"
#include "testcertificates.h"
#include "ui/settings/settingsdialog.h"
#include "ui/sitelist/deploymentactions.h"
#include "ui/sitelist/deploymenttablemodel.h"
#include "ui/sitelist/editdetailsdialog.h"
#include "ui/widgets/qrcodeview.h"
#include "uitestsupport.h"

#include <QCheckBox>
#include <QLabel>
#include <QPushButton>
#include <QTcpServer>

using namespace Qt::StringLiterals;
using namespace berth;
using berth::test::Dashboard;

namespace {
const QHostAddress kLanAddress(u"127.0.0.2"_s);

using Reply = berth::test::DeviceReply;
using berth::test::deviceGet;

// A GET to 127.0.0.2 over plain HTTP.
Reply getFromLan(quint16 port, const QString &path, const QByteArray &host = {})
{
    return deviceGet(QUrl(u"http://127.0.0.2:%1%2"_s.arg(port).arg(path)), host);
}

// Ports of this test run's own: the engine's, then its 20 site ports. They lie below the kernel's ephemeral range
// (32768 and up), so that no client socket of another test (left in TIME_WAIT on 127.0.0.2 by the per-address
// tests, say) can hold one, and vary by process so that parallel runs are unlikely to meet.
quint16 mainPort()
{
    return quint16(20000 + (QCoreApplication::applicationPid() % 600) * 21);
}

quint16 firstSitePort()
{
    return quint16(mainPort() + 1);
}
} // namespace

class TestLanSharing : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<Dashboard> m_dashboard;

    MainWindow &window() { return m_dashboard->window(); }
    QCheckBox *lanSwitch() { return window().findChild<QCheckBox *>(u"lanSharingCheckBox"_s); }
    QString lanText() { return window().findChild<QLabel *>(u"lanAddressesLabel"_s)->text(); }
    // The text of the QR code in the site's details, as the dialog shows it; empty when there is none.
    QString qrTextOf(const QString &id)
    {
        m_dashboard->select(id);
        window().actions().editDetailsAction->trigger();
        EditDetailsDialog *dialog = nullptr;
        if (!QTest::qWaitFor([&] { return (dialog = berth::test::openDialog<EditDetailsDialog>(&window())); }))
            return QString();
        auto *view = dialog->findChild<QrCodeView *>(u"qrCodeView"_s);
        const QString text = view ? view->text() : QString();
        dialog->reject();
        return text;
    }
    static EngineSettings lanSettings()
    {
        EngineSettings settings;
        settings.lanTestAddresses = {kLanAddress};
        settings.listenPort = mainPort();
        settings.sitePortFirst = firstSitePort();
        settings.sitePortLast = firstSitePort() + 18;
        settings.httpsPort = firstSitePort() + 19; // used when a test turns TLS on
        return settings;
    }

private Q_SLOTS:
    void init()
    {
        m_dashboard = std::make_unique<Dashboard>();
        QVERIFY(m_dashboard->start(lanSettings()));
    }
    void cleanup() { m_dashboard.reset(); }

    void theSwitchSharesAndShowsTheAddresses()
    {
        const QString id = m_dashboard->deploy(u"team-notes"_s, {{u"index.html"_s, "NOTES"}});
        QVERIFY(!id.isEmpty());
        const quint16 port = m_dashboard->engine().port();
        QVERIFY(lanSwitch());
        QVERIFY(!lanSwitch()->isChecked()); // off by default
        QVERIFY2(lanText().contains(u"Only this computer"_s), qPrintable(lanText()));
        QCOMPARE(getFromLan(port, u"/"_s).status, 0); // nothing listens on the LAN address yet

        QTest::mouseClick(lanSwitch(), Qt::LeftButton);
        QVERIFY(m_dashboard->engine().lan().isEnabled());
        QVERIFY(m_dashboard->settings().lanSharing()); // saved for the next start
        const QString text = lanText();
        QVERIFY2(text.contains(u"http://berth.local:%1/"_s.arg(port)), qPrintable(text));
        QVERIFY2(text.contains(u"http://127.0.0.2:%1/"_s.arg(port)), qPrintable(text));

        // What the addresses promise works: the API on the LAN address wants a key, the site answers by its
        // .local name and on its own port.
        QCOMPARE(getFromLan(port, u"/deploys"_s).status, 401);
        const Reply byName = getFromLan(port, u"/"_s, "team-notes.local:" + QByteArray::number(port));
        QCOMPARE(byName.status, 200);
        QCOMPARE(byName.body, QByteArray("NOTES"));
        const Reply byPort = getFromLan(firstSitePort(), u"/"_s);
        QCOMPARE(byPort.status, 200);
        QCOMPARE(byPort.body, QByteArray("NOTES"));

        // The table shows the site's LAN addresses with its address.
        DeploymentTableModel &model = window().model();
        const QModelIndex url = model.indexOf(id, DeploymentTableModel::UrlColumn);
        const QStringList lan = url.data(DeploymentTableModel::LanUrlsRole).toStringList();
        QCOMPARE(lan,
            QStringList({u"http://team-notes.local:%1/"_s.arg(port), u"http://127.0.0.2:%1/"_s.arg(firstSitePort())}));
        QVERIFY(url.data(Qt::ToolTipRole).toString().contains(lan.constLast()));
        QCOMPARE(m_dashboard->engine().lan().bestSiteUrl(id), lan.constLast());

        QTest::mouseClick(lanSwitch(), Qt::LeftButton);
        QVERIFY(!m_dashboard->engine().lan().isEnabled());
        QVERIFY(!m_dashboard->settings().lanSharing());
        QVERIFY(lanText().contains(u"Only this computer"_s));
        QCOMPARE(getFromLan(firstSitePort(), u"/"_s).status, 0);
        QCOMPARE(getFromLan(port, u"/"_s, "team-notes.local").status, 0);
        QVERIFY(url.data(DeploymentTableModel::LanUrlsRole).toStringList().isEmpty());
    }

    // A QR code is for another device: while the site is shared, it holds the site's own LAN address.
    void theQrCodeHoldsTheLanAddress()
    {
        const QString id = m_dashboard->deploy(u"lan-qr"_s, {{u"index.html"_s, "QR"}});
        QVERIFY(!id.isEmpty());
        QTest::mouseClick(lanSwitch(), Qt::LeftButton);
        const QString best = m_dashboard->engine().lan().bestSiteUrl(id);
        QCOMPARE(best, u"http://127.0.0.2:%1/"_s.arg(firstSitePort()));
        QCOMPARE(qrTextOf(id), best.chopped(1));
    }

    // With HTTPS (a certificate of the test's own CA that names the LAN address), the addresses shown and the QR
    // code are https:// ones, and the QR code's address answers over TLS.
    void withHttpsTheQrCodeIsHttps()
    {
        m_dashboard.reset();
        QTemporaryDir folder;
        berth::test::TestCertificates certs;
        QVERIFY(certs.make(folder.path(), {kLanAddress.toString()}));
        EngineSettings settings = lanSettings();
        settings.tlsCertFile = certs.serverCert;
        settings.tlsKeyFile = certs.serverKey;
        m_dashboard = std::make_unique<Dashboard>();
        QVERIFY(m_dashboard->start(settings));
        const QString id = m_dashboard->deploy(u"lan-tls"_s, {{u"index.html"_s, "TLS"}});
        QVERIFY(!id.isEmpty());
        QTest::mouseClick(lanSwitch(), Qt::LeftButton);
        const QString https = u"https://127.0.0.2:%1/"_s.arg(settings.httpsPort);
        QVERIFY2(lanText().contains(https), qPrintable(lanText()));
        const QString best = m_dashboard->engine().lan().bestSiteUrl(id);
        QCOMPARE(best, u"https://127.0.0.2:%1/"_s.arg(firstSitePort()));
        QCOMPARE(qrTextOf(id), best.chopped(1));

        const Reply reply = deviceGet(QUrl(best), {}, certs.caCert);
        QCOMPARE(reply.status, 200);
        QCOMPARE(reply.body, QByteArray("TLS"));
    }

    void settingsHasTheSwitchToo()
    {
        auto *dialog = new SettingsDialog(
            {m_dashboard->engine(), m_dashboard->owner(), m_dashboard->settings(), window().prompter()}, &window());
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
        auto *box = dialog->findChild<QCheckBox *>(u"lanSharingSettingsCheckBox"_s);
        QVERIFY(box);
        QVERIFY(!box->isChecked());
        box->setChecked(true);
        QVERIFY(!m_dashboard->engine().lan().isEnabled()); // only Save applies it
        QTest::mouseClick(dialog->findChild<QPushButton *>(u"saveButton"_s), Qt::LeftButton);
        QVERIFY(m_dashboard->engine().lan().isEnabled());
        QVERIFY(m_dashboard->settings().lanSharing());
        QTRY_VERIFY(lanSwitch()->isChecked()); // the header follows
        QVERIFY(lanText().contains(u"127.0.0.2"_s));
    }

    void aPortInUseIsShown()
    {
        // Another program holds the first site port on the LAN address: the dashboard says so, the site keeps
        // its name, and the next site gets the next port.
        QTcpServer squatter;
        QVERIFY(squatter.listen(kLanAddress, firstSitePort()));
        QVERIFY(!m_dashboard->deploy(u"first-site"_s, {{u"index.html"_s, "FIRST"}}).isEmpty());
        QTest::mouseClick(lanSwitch(), Qt::LeftButton);
        const QString text = lanText();
        QVERIFY2(text.contains(u"Cannot use 127.0.0.2:%1"_s.arg(firstSitePort())), qPrintable(text));
        const quint16 port = m_dashboard->engine().port();
        QCOMPARE(getFromLan(port, u"/"_s, "first-site.local").body, QByteArray("FIRST"));
        QVERIFY(!m_dashboard->deploy(u"second-site"_s, {{u"index.html"_s, "SECOND"}}).isEmpty());
        QTRY_COMPARE(getFromLan(firstSitePort() + 1, u"/"_s).body, QByteArray("SECOND"));
    }
};

QTEST_MAIN(TestLanSharing)
#include "tst_lansharing.moc"
