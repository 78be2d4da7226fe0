#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>
#include <optional>

namespace berth {

// A deploy body with the value of every "content" key that holds no escape sequence lifted out: the skeleton is the
// body with each such value replaced by a short placeholder string, so that Qt's JSON parser reads a few kilobytes
// instead of every file's text, and each file's bytes are then decoded straight from the body, never converted to
// UTF-16 (measured: a 50 MB deploy is 67 MB of base64, which Qt's parser scanned, stored and converted for about a
// third of the deploy's CPU).
//
// A value is JSON text that Qt reads as the same characters only when its bytes are printable ASCII; the caller
// marks the values it read as such and, when allText() is false, parses the whole body instead. The scan is linear:
// each byte is looked at a bounded number of times, whatever the escapes.
class LiftedContent
{
public:
    // Values shorter than this stay in the skeleton: with it, a placeholder is always shorter than what it replaces,
    // so the skeleton is never larger than the body and a body holds at most size / 256 values.
    static constexpr qsizetype kMinimumLength = 256;

    // `body` must outlive this object: values() are views into it.
    explicit LiftedContent(const QByteArray &body, qsizetype minimumLength = kMinimumLength);

    const QByteArray &skeleton() const { return m_skeleton; }
    qsizetype count() const { return m_values.size(); }

    // The index of the value a placeholder stands for, when `text` is one of this skeleton's placeholders. The
    // placeholders carry a random nonce, so that no text a client writes (escaped or not) can pose as one.
    std::optional<qsizetype> indexOf(QStringView text) const;
    QByteArrayView value(qsizetype index) const { return m_values.at(index); }

    // Records that value `index` was read as printable ASCII (a successful base64 decode proves it).
    void markText(qsizetype index) { m_isText[index] = true; }
    // Whether every value is printable ASCII: those not marked are checked now.
    bool allText() const;

    static bool isPrintableAscii(QByteArrayView bytes);

private:
    QByteArray m_skeleton;
    QString m_prefix; // every placeholder is m_prefix followed by its index in decimal
    QList<QByteArrayView> m_values;
    QList<bool> m_isText;
};

} // namespace berth
