#include "ui/widgets/tabbedwindow.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QTabWidget>
#include <QVBoxLayout>

namespace berth::TabbedWindow {

void layOut(QDialog *window, QTabWidget *tabs)
{
    tabs->setDocumentMode(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, window);
    QObject::connect(buttons, &QDialogButtonBox::rejected, window, &QDialog::reject);
    auto *layout = new QVBoxLayout(window);
    layout->setContentsMargins(0, 6, 0, 0);
    layout->addWidget(tabs, 1);
    auto *footer = new QVBoxLayout;
    footer->setContentsMargins(12, 0, 12, 12);
    footer->addWidget(buttons);
    layout->addLayout(footer);
}

} // namespace berth::TabbedWindow
