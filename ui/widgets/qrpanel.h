#pragma once

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
QT_END_NAMESPACE

namespace berth {

class Engine;
class QrCodeView;
struct Deployment;

// A site's address as a QR code with a caption under it, for a phone on the same network to scan: the share link of
// a private site, else its address (qrAddress decides). Four pixels a module, read from a screen at arm's length.
class QrPanel final : public QWidget
{
    Q_OBJECT

public:
    explicit QrPanel(QWidget *parent = nullptr);

    void showSite(const Engine &engine, const Deployment &deployment);
    QrCodeView *code() const { return m_code; }

private:
    QrCodeView *m_code;
    QLabel *m_caption;
};

} // namespace berth
