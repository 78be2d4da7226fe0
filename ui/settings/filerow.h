#pragma once

#include <QCoreApplication>

QT_BEGIN_NAMESPACE
class QLabel;
class QLayout;
class QLineEdit;
class QWidget;
QT_END_NAMESPACE

namespace berth {

class Prompter;

// Form rows of Settings whose field is a file: a PEM file's field with its Choose… button, which asks the prompter,
// and the label such a row needs.
class FileRow final
{
    Q_DECLARE_TR_FUNCTIONS(berth::FileRow)

public:
    static QLayout *pem(
        QWidget *parent, Prompter &prompter, QLineEdit *field, const QString &objectName, const QString &caption);
    // The label of a row whose field is a layout: a layout cannot be a buddy, so the label is given the field, and its
    // mnemonic moves there.
    static QLabel *label(const QString &text, QWidget *field, QWidget *parent);
};

} // namespace berth
