// The QR codes in the dashboard, on the real widgets offscreen: the site's details show one of the site's address,
// the access dialog one of a private site's share link; each, grabbed as an image at two sizes, is read back by
// zbarimg to exactly that address and is drawn crisp (only pure black and white pixels, no blurred edges).
#include "domain/deploy/deploymentservice.h"
#include "domain/siterules/siteaddresses.h"
#include "qrscan.h"
#include "ui/sitelist/deploymentactions.h"
#include "ui/sitelist/editdetailsdialog.h"
#include "ui/sitelist/protectiondialog.h"
#include "ui/widgets/qrcodeview.h"
#include "uitestsupport.h"

#include <QImage>
#include <QLabel>
#include <QRadioButton>

using namespace Qt::StringLiterals;
using namespace berth;
using berth::test::Dashboard;
using berth::test::openDialog;

class TestQrCodes : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<Dashboard> m_dashboard;
    QTemporaryDir m_images;

    MainWindow &window() { return m_dashboard->window(); }

    // The code as a phone would see it on screen: grabbed at side x side pixels, then decoded.
    std::optional<QString> scan(QrCodeView *view, int side, const QString &name)
    {
        view->setFixedSize(side, side);
        const QImage image = view->grab().toImage().convertToFormat(QImage::Format_RGB32);
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                const QRgb pixel = image.pixel(x, y) & 0xffffff;
                if (pixel != 0 && pixel != 0xffffff) {
                    qWarning("a blurred pixel at %d,%d: %06x", x, y, pixel);
                    return std::nullopt;
                }
            }
        }
        const QString path = m_images.filePath(name + u".png"_s);
        if (!image.save(path))
            return std::nullopt;
        return berth::test::QrScan::decodeFile(path);
    }

private Q_SLOTS:
    void init()
    {
        m_dashboard = std::make_unique<Dashboard>();
        QVERIFY(m_dashboard->start());
    }
    void cleanup() { m_dashboard.reset(); }

    void detailsShowTheSiteAddress()
    {
        const QString id = m_dashboard->deploy(u"qr-site"_s, {{u"index.html"_s, "hi"}});
        m_dashboard->select(id);
        window().actions().editDetailsAction->trigger();
        EditDetailsDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = openDialog<EditDetailsDialog>(&window())));
        auto *view = dialog->findChild<QrCodeView *>(u"qrCodeView"_s);
        QVERIFY(view);
        QTRY_VERIFY(view->isVisible());
        const QString url = m_dashboard->engine().addresses().siteUrl(u"qr-site"_s);
        QCOMPARE(view->text(), url);
        QVERIFY(view->width() >= view->minimumSizeHint().width()); // laid out at a size a camera can read
        QCOMPARE(scan(view, view->width(), u"details"_s), std::optional<QString>(url));
        QCOMPARE(scan(view, 3 * view->width() + 1, u"details-large"_s), std::optional<QString>(url));
        QVERIFY(dialog->findChild<QLabel *>(u"qrCaptionLabel"_s)->text().contains(u"phone"_s));
        dialog->reject();
    }

    void accessDialogShowsTheShareLink()
    {
        const QString id = m_dashboard->deploy(u"qr-secret"_s, {{u"index.html"_s, "secret"}});
        DeployRequest request;
        request.protect = true;
        QFuture<Result<Deployment>> saving
            = m_dashboard->engine().deployments().update(m_dashboard->owner(), id, request);
        QTRY_VERIFY(saving.isFinished());
        const Result<Deployment> updated = saving.result();
        QVERIFY(updated);
        const QString share = m_dashboard->engine().addresses().shareUrl(u"qr-secret"_s, updated.value().shareToken);
        QVERIFY(share.contains(u"_token="_s));

        m_dashboard->select(id);
        window().actions().protectionAction->trigger();
        ProtectionDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = openDialog<ProtectionDialog>(&window())));
        auto *view = dialog->findChild<QrCodeView *>(u"qrCodeView"_s);
        QVERIFY(view);
        QTRY_VERIFY(view->isVisible());
        QCOMPARE(view->text(), share);
        QCOMPARE(scan(view, view->width(), u"share"_s), std::optional<QString>(share));
        // Choosing "public" takes the link away, and its code with it.
        dialog->findChild<QRadioButton *>(u"publicRadioButton"_s)->setChecked(true);
        QVERIFY(!view->isVisible());
        dialog->reject();

        // The site's details of a private site show the share link too: the bare address would only show the gate.
        window().actions().editDetailsAction->trigger();
        EditDetailsDialog *details = nullptr;
        QTRY_VERIFY((details = openDialog<EditDetailsDialog>(&window())));
        QCOMPARE(details->findChild<QrCodeView *>(u"qrCodeView"_s)->text(), share);
        details->reject();
    }

    void publicSiteHasNoCodeInTheAccessDialog()
    {
        const QString id = m_dashboard->deploy(u"qr-public"_s, {{u"index.html"_s, "p"}});
        m_dashboard->select(id);
        window().actions().protectionAction->trigger();
        ProtectionDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = openDialog<ProtectionDialog>(&window())));
        auto *view = dialog->findChild<QrCodeView *>(u"qrCodeView"_s);
        QVERIFY(view && !view->hasCode() && !view->isVisible());
        dialog->reject();
    }
};

QTEST_MAIN(TestQrCodes)
#include "tst_qrcodes.moc"
