#pragma once

#include "layoutcheck.h"

#include <QDir>
#include <QStringList>
#include <functional>

QT_BEGIN_NAMESPACE
class QDialog;
class QWidget;
QT_END_NAMESPACE

namespace berth::test {

// Walks through windows as a person would look at them: checks each with a LayoutCheck, keeps what it found under
// the window's name and the variant ("de-dark-x2"), and saves a picture of each into a folder.
class WindowLooker final
{
public:
    WindowLooker(const LayoutCheck &check, const QString &variant, const QDir &pictures);

    // Lays window out as it would be shown, checks it and saves its picture as name.png.
    void look(QWidget *window, const QString &name);
    // What a step does with the modal window it meets: look at it, then answer it (by default: reject it).
    struct ModalStep
    {
        QString name;
        std::function<void(QDialog *)> answer;
    };
    // Runs trigger, which opens modal windows one after another (a message box, then an input dialog); each is
    // looked at under its step's name and answered; modal windows after the last step are rejected unseen.
    void lookAtModals(const std::function<void()> &trigger, const QList<ModalStep> &steps);
    void lookAtModal(const std::function<void()> &trigger, const QString &name);
    // A problem of the walk itself (a window that never opened), kept with the findings.
    void fail(const QString &name, const QString &what);

    QStringList findings() const { return m_findings; }
    int looked() const { return m_looked; }

    // PNG compression for pictures meant for the repository: smallest files.
    void setCompact(bool compact) { m_compact = compact; }
    // Only these names are saved (all when empty).
    void setPictureNames(const QStringList &names) { m_pictureNames = names; }

private:
    const LayoutCheck &m_check;
    QString m_variant;
    QDir m_pictures;
    QStringList m_findings;
    QStringList m_pictureNames;
    int m_looked = 0;
    bool m_compact = false;
};

} // namespace berth::test
