#include "prompter.h"

#include <QDesktopServices>
#include <QFileDialog>

namespace berth {

QMessageBox::StandardButton Prompter::question(QWidget *parent, const QString &title, const QString &text,
    QMessageBox::StandardButtons buttons, QMessageBox::StandardButton defaultButton)
{
    m_lastMessage = text;
    if (!m_answers.isEmpty())
        return m_answers.takeFirst();
    QMessageBox box(QMessageBox::Question, title, text, buttons, parent);
    box.setDefaultButton(defaultButton);
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

bool Prompter::openUrl(const QUrl &url)
{
    return m_openUrl ? m_openUrl(url) : QDesktopServices::openUrl(url);
}

} // namespace berth
