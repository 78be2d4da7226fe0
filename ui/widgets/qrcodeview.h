#pragma once

#include "qr/qrcode.h"

#include <QWidget>
#include <optional>

namespace berth {

// A QR code drawn as vector rectangles, dark on white whatever the theme (scanners want that), with its quiet zone,
// square and centred in whatever room it gets. Modules are whole pixels when there is room for at least one each,
// so that the edges stay sharp at any size; printing or grabbing at a higher scale redraws, never stretches.
class QrCodeView final : public QWidget
{
    Q_OBJECT

public:
    explicit QrCodeView(QWidget *parent = nullptr);

    // Encodes text; an empty text (or one too long for a QR code) shows nothing.
    void setText(const QString &text);
    QString text() const { return m_text; }
    bool hasCode() const { return m_code.has_value(); }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override { return width; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    int modulesAcross() const; // the symbol and its quiet zone

    QString m_text;
    std::optional<QrCode> m_code;
};

} // namespace berth
