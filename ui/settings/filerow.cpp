#include "ui/settings/filerow.h"

#include "ui/widgets/prompter.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace berth {

QLayout *FileRow::pem(
    QWidget *parent, Prompter &prompter, QLineEdit *field, const QString &objectName, const QString &caption)
{
    auto *choose = new QPushButton(tr("Choose…"), parent);
    choose->setObjectName(objectName);
    choose->setAccessibleName(caption);
    Prompter *ask = &prompter; // the prompter itself, not this function's reference to it
    QObject::connect(choose, &QPushButton::clicked, parent, [parent, ask, field, caption] {
        const QString file = ask->openFileName(
            parent, caption, field->text(), tr("PEM files (*.pem *.crt *.cer *.key);;All files (*)"));
        if (!file.isEmpty())
            field->setText(file);
    });
    auto *row = new QHBoxLayout;
    row->addWidget(field, 1);
    row->addWidget(choose);
    return row;
}

QLabel *FileRow::label(const QString &text, QWidget *field, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setBuddy(field);
    return label;
}

} // namespace berth
