#include "ui/widgets/prompter.h"

#include <QDesktopServices>
#include <QFileDialog>
#include <QInputDialog>
#include <QPushButton>

namespace berth {

QMessageBox::StandardButton Prompter::question(QWidget *parent, const QString &title, const QString &text,
    QMessageBox::StandardButtons buttons, QMessageBox::StandardButton defaultButton, const QString &verb)
{
    m_lastMessage = text;
    m_lastVerb = verb;
    if (!m_answers.isEmpty())
        return m_answers.takeFirst();
    QMessageBox box(QMessageBox::Question, title, text, buttons, parent);
    box.setDefaultButton(defaultButton);
    if (QAbstractButton *yes = box.button(QMessageBox::Yes); yes && !verb.isEmpty())
        yes->setText(verb);
    box.setWindowModality(Qt::WindowModal);
    return QMessageBox::StandardButton(box.exec());
}

void Prompter::warning(QWidget *parent, const QString &title, const QString &text)
{
    m_lastMessage = text;
    if (!m_answers.isEmpty()) {
        m_answers.removeFirst();
        return;
    }
    QMessageBox box(QMessageBox::Warning, title, text, QMessageBox::Ok, parent);
    box.setWindowModality(Qt::WindowModal);
    box.exec();
}

int Prompter::choose(QWidget *parent, QMessageBox::Icon icon, const QString &title, const QString &text,
    const QStringList &buttons, int defaultButton)
{
    m_lastMessage = text;
    m_lastChoices = buttons;
    if (!m_choices.isEmpty()) {
        const QVariant next = m_choices.takeFirst();
        return next.typeId() == QMetaType::QString ? int(buttons.indexOf(next.toString())) : next.toInt();
    }
    QMessageBox box(icon, title, text, QMessageBox::NoButton, parent);
    QList<QPushButton *> pushButtons;
    for (const QString &label : buttons)
        pushButtons.append(box.addButton(label, QMessageBox::ActionRole));
    if (defaultButton >= 0 && defaultButton < pushButtons.size())
        box.setDefaultButton(pushButtons.at(defaultButton));
    if (!pushButtons.isEmpty())
        box.setEscapeButton(pushButtons.constLast());
    box.setWindowModality(parent ? Qt::WindowModal : Qt::ApplicationModal);
    box.exec();
    return int(pushButtons.indexOf(qobject_cast<QPushButton *>(box.clickedButton())));
}

std::optional<int> Prompter::number(
    QWidget *parent, const QString &title, const QString &label, int value, int minimum, int maximum)
{
    if (!m_numbers.isEmpty())
        return m_numbers.takeFirst();
    bool ok = false;
    const int chosen = QInputDialog::getInt(parent, title, label, value, minimum, maximum, 1, &ok);
    return ok ? std::optional<int>(chosen) : std::nullopt;
}

QString Prompter::existingDirectory(QWidget *parent, const QString &caption, const QString &dir)
{
    if (!m_fileNames.isEmpty())
        return m_fileNames.takeFirst();
    return QFileDialog::getExistingDirectory(parent, caption, dir);
}

QString Prompter::openFileName(QWidget *parent, const QString &caption, const QString &dir, const QString &filter)
{
    if (!m_fileNames.isEmpty())
        return m_fileNames.takeFirst();
    return QFileDialog::getOpenFileName(parent, caption, dir, filter);
}

QString Prompter::saveFileName(QWidget *parent, const QString &caption, const QString &dir, const QString &filter)
{
    if (!m_fileNames.isEmpty())
        return m_fileNames.takeFirst();
    return QFileDialog::getSaveFileName(parent, caption, dir, filter);
}

int Prompter::exec(QDialog *dialog)
{
    return m_dialog ? m_dialog(dialog) : dialog->exec();
}

bool Prompter::openUrl(const QUrl &url)
{
    return m_openUrl ? m_openUrl(url) : QDesktopServices::openUrl(url);
}

} // namespace berth
