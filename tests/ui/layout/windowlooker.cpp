#include "windowlooker.h"

#include <QApplication>
#include <QDialog>
#include <QEventLoop>
#include <QPointer>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace berth::test {

WindowLooker::WindowLooker(const LayoutCheck &check, const QString &variant, const QDir &pictures)
    : m_check(check)
    , m_variant(variant)
    , m_pictures(pictures)
{
}

void WindowLooker::look(QWidget *window, const QString &name)
{
    if (!window) {
        fail(name, u"did not open"_s);
        return;
    }
    window->show();
    // Pending layouts, polish and palette changes reach every widget before anything is measured.
    for (int i = 0; i < 3; ++i) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
    }
    ++m_looked;
    const QString where = u"%1 [%2]: "_s.arg(name, m_variant);
    for (const QString &finding : m_check.check(window))
        m_findings.append(where + finding);
    if (!m_pictureNames.isEmpty() && !m_pictureNames.contains(name))
        return;
    const QString file = m_pictures.filePath(name + u".png"_s);
    if (!m_pictures.mkpath(u"."_s) || !window->grab().toImage().save(file, "PNG", m_compact ? 0 : 50))
        fail(name, u"picture not saved to "_s + file);
}

void WindowLooker::lookAtModals(const std::function<void()> &trigger, const QList<ModalStep> &steps)
{
    // The trigger blocks in the modal window's own event loop: a timer in that loop finds each window and answers it.
    qsizetype next = 0;
    QPointer<QDialog> previous;
    QTimer timer;
    timer.setInterval(5);
    QObject::connect(&timer, &QTimer::timeout, [&] {
        auto *modal = qobject_cast<QDialog *>(QApplication::activeModalWidget());
        if (!modal || modal == previous || !modal->isVisible())
            return;
        previous = modal;
        if (next >= steps.size()) {
            modal->reject();
            return;
        }
        const ModalStep &step = steps.at(next++);
        look(modal, step.name);
        if (step.answer)
            step.answer(modal);
        else
            modal->reject();
    });
    timer.start();
    trigger();
    timer.stop();
    for (; next < steps.size(); ++next)
        fail(steps.at(next).name, u"did not open"_s);
}

void WindowLooker::lookAtModal(const std::function<void()> &trigger, const QString &name)
{
    lookAtModals(trigger, {{name, {}}});
}

void WindowLooker::fail(const QString &name, const QString &what)
{
    m_findings.append(u"%1 [%2]: %3"_s.arg(name, m_variant, what));
}

} // namespace berth::test
