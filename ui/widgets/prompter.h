#pragma once

#include <QMessageBox>
#include <QStringList>
#include <QUrl>
#include <QVariant>
#include <functional>
#include <optional>

namespace berth {

// Every modal question, file chooser and hand-off to the desktop goes through here, so that a test
// can answer in advance (setNextAnswer, setNextFileName) instead of facing a blocking dialog.
class Prompter final
{
public:
    Prompter() = default;
    Q_DISABLE_COPY_MOVE(Prompter)

    // verb, when given, is the Yes button's text: the action it confirms ("Delete", "Make Public").
    QMessageBox::StandardButton question(QWidget *parent, const QString &title, const QString &text,
        QMessageBox::StandardButtons buttons, QMessageBox::StandardButton defaultButton, const QString &verb = {});
    void warning(QWidget *parent, const QString &title, const QString &text);
    // A message with buttons of the caller's, in order: the index of the one chosen. Escape chooses the last.
    int choose(QWidget *parent, QMessageBox::Icon icon, const QString &title, const QString &text,
        const QStringList &buttons, int defaultButton);
    // A whole number in [minimum, maximum]; nothing when cancelled.
    std::optional<int> number(
        QWidget *parent, const QString &title, const QString &label, int value, int minimum, int maximum);

    QString existingDirectory(QWidget *parent, const QString &caption, const QString &dir = {});
    QString openFileName(QWidget *parent, const QString &caption, const QString &dir, const QString &filter);
    QString saveFileName(QWidget *parent, const QString &caption, const QString &dir, const QString &filter);

    // Runs a modal dialog to its end: its result. A test may install a handler that fills it in instead.
    int exec(QDialog *dialog);

    // Opens in the desktop's browser; a test may install its own handler instead.
    bool openUrl(const QUrl &url);

    // Answers queued for the next questions/warnings and file choosers, in order.
    void setNextAnswer(QMessageBox::StandardButton answer) { m_answers.append(answer); }
    void setNextFileName(const QString &fileName) { m_fileNames.append(fileName); }
    void setNextChoice(int index) { m_choices.append(index); }
    // The button of the next choose() with this text (-1, as if the box were closed, when it offers none).
    void setNextChoice(const QString &button) { m_choices.append(button); }
    void setNextNumber(std::optional<int> number) { m_numbers.append(number); }
    void setOpenUrlHandler(std::function<bool(const QUrl &)> handler) { m_openUrl = std::move(handler); }
    void setDialogHandler(std::function<int(QDialog *)> handler) { m_dialog = std::move(handler); }
    // The text of the last question or warning, answered or shown.
    QString lastMessage() const { return m_lastMessage; }
    // The buttons offered by the last choose(), in order.
    QStringList lastChoices() const { return m_lastChoices; }
    // The Yes button's verb in the last question.
    QString lastVerb() const { return m_lastVerb; }

private:
    QList<QMessageBox::StandardButton> m_answers;
    QStringList m_fileNames;
    QVariantList m_choices; // indexes, or buttons' texts
    QList<std::optional<int>> m_numbers;
    std::function<bool(const QUrl &)> m_openUrl;
    std::function<int(QDialog *)> m_dialog;
    QString m_lastMessage;
    QStringList m_lastChoices;
    QString m_lastVerb;
};

} // namespace berth
