#pragma once

#include <QMessageBox>
#include <QStringList>
#include <QUrl>
#include <functional>

namespace berth {

// Every modal question, file chooser and hand-off to the desktop goes through here, so that a test
// can answer in advance (setNextAnswer, setNextFileName) instead of facing a blocking dialog.
class Prompter final
{
public:
    Prompter() = default;
    Q_DISABLE_COPY_MOVE(Prompter)

    QMessageBox::StandardButton question(QWidget *parent, const QString &title, const QString &text,
        QMessageBox::StandardButtons buttons, QMessageBox::StandardButton defaultButton);
    void warning(QWidget *parent, const QString &title, const QString &text);

    QString existingDirectory(QWidget *parent, const QString &caption, const QString &dir = {});
    QString openFileName(QWidget *parent, const QString &caption, const QString &dir, const QString &filter);
    QString saveFileName(QWidget *parent, const QString &caption, const QString &dir, const QString &filter);

    // Opens in the desktop's browser; a test may install its own handler instead.
    bool openUrl(const QUrl &url);

    // Answers queued for the next questions/warnings and file choosers, in order.
    void setNextAnswer(QMessageBox::StandardButton answer) { m_answers.append(answer); }
    void setNextFileName(const QString &fileName) { m_fileNames.append(fileName); }
    void setOpenUrlHandler(std::function<bool(const QUrl &)> handler) { m_openUrl = std::move(handler); }
    // The text of the last question or warning, answered or shown.
    QString lastMessage() const { return m_lastMessage; }

private:
    QList<QMessageBox::StandardButton> m_answers;
    QStringList m_fileNames;
    std::function<bool(const QUrl &)> m_openUrl;
    QString m_lastMessage;
};

} // namespace berth
