#include "ui/sitelist/emptystatepage.h"

#include "ui/widgets/iconlabel.h"
#include "ui/widgets/icons.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr int kIconSize = 72;
constexpr float kTint = 0.25F;

QColor mix(const QColor &from, const QColor &to, float share)
{
    return QColor::fromRgbF(from.redF() + (to.redF() - from.redF()) * share,
        from.greenF() + (to.greenF() - from.greenF()) * share, from.blueF() + (to.blueF() - from.blueF()) * share);
}
} // namespace

EmptyStatePage::EmptyStatePage(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(u"emptyStateWidget"_s);
    setAutoFillBackground(true);
    auto *icon = new IconLabel(Icons::icon(u"drop"_s), kIconSize, this);
    auto *text = new QLabel(tr("Drop a folder or an .html file here to publish it"), this);
    text->setObjectName(u"emptyStateLabel"_s);
    text->setAlignment(Qt::AlignCenter);
    text->setWordWrap(true);
    QFont font = text->font();
    font.setPointSizeF(font.pointSizeF() * 1.4);
    text->setFont(font);
    auto *hint = new QLabel(tr("It goes live at once at its own address. Hidden files and .git are left out."), this);
    hint->setAlignment(Qt::AlignCenter);
    hint->setWordWrap(true);
    hint->setForegroundRole(QPalette::PlaceholderText);
    auto *folder = new QPushButton(Icons::icon(u"folder"_s), tr("Choose &Folder…"), this);
    folder->setObjectName(u"chooseFolderButton"_s);
    auto *file = new QPushButton(Icons::icon(u"file"_s), tr("Choose HTML &File…"), this);
    file->setObjectName(u"chooseFileButton"_s);
    connect(folder, &QPushButton::clicked, this, &EmptyStatePage::chooseFolder);
    connect(file, &QPushButton::clicked, this, &EmptyStatePage::chooseFile);

    auto *buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(folder);
    buttons->addWidget(file);
    buttons->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->addStretch(2);
    layout->addWidget(icon, 0, Qt::AlignHCenter);
    layout->addSpacing(8);
    layout->addWidget(text);
    layout->addWidget(hint);
    layout->addSpacing(12);
    layout->addLayout(buttons);
    layout->addStretch(3);
}

EmptyStatePage::~EmptyStatePage() = default;

void EmptyStatePage::setDropTarget(bool active)
{
    m_dropTarget = active;
    setProperty("dropTarget", active);
    if (!active) {
        setPalette(QPalette()); // back to the window's own
        return;
    }
    // A tint of the highlight colour, so that the text keeps its contrast in light and dark palettes.
    QPalette tinted = palette();
    tinted.setColor(QPalette::Window, mix(tinted.color(QPalette::Window), tinted.color(QPalette::Highlight), kTint));
    setPalette(tinted);
}

} // namespace berth
