#include "ui/accounts/firstkeydialog.h"

#include "domain/siterules/siteaddresses.h"
#include "instance/engine.h"
#include "ui/widgets/iconlabel.h"
#include "ui/widgets/icons.h"

#include <QAbstractTextDocumentLayout>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QGridLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextBlock>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr int kHeaderIconSize = 40;
} // namespace

FirstKeyDialog::FirstKeyDialog(const DashboardContext &context, const QString &key, QWidget *parent)
    : QDialog(parent, Qt::Sheet)
    , m_key(new QLineEdit(key, this))
    , m_example(new QPlainTextEdit(curlExample(context.engine.addresses().baseUrl(), key), this))
{
    setObjectName(u"firstKeyDialog"_s);
    setWindowTitle(tr("Welcome to Berth"));
    setMinimumWidth(600);

    auto *heading = new QLabel(tr("Your API key"), this);
    QFont headingFont = heading->font();
    headingFont.setPointSizeF(headingFont.pointSizeF() * 1.25);
    headingFont.setBold(true);
    heading->setFont(headingFont);
    auto *intro = new QLabel(tr("Scripts and agents publish through Berth's API with this key. <b>Copy it now:</b> "
                                "it is shown only this once. More keys, and revoking this one, are under "
                                "File ▸ API Keys."),
        this);
    intro->setObjectName(u"firstKeyIntroLabel"_s);
    intro->setWordWrap(true);

    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_key->setObjectName(u"firstKeyLineEdit"_s);
    m_key->setAccessibleName(tr("Owner API key"));
    m_key->setReadOnly(true);
    m_key->setFont(fixed);
    m_key->setCursorPosition(0);
    auto *copyKey = new QPushButton(Icons::icon(u"copy"_s), tr("&Copy Key"), this);
    copyKey->setObjectName(u"copyKeyButton"_s);
    connect(copyKey, &QPushButton::clicked, this, [this] { QGuiApplication::clipboard()->setText(m_key->text()); });

    auto *exampleLabel = new QLabel(tr("Try it: this publishes a page at once."), this);
    m_example->setObjectName(u"curlExampleTextEdit"_s);
    m_example->setAccessibleName(tr("Example command"));
    m_example->setReadOnly(true);
    m_example->setFont(fixed);
    m_example->setLineWrapMode(QPlainTextEdit::NoWrap);
    fitExample();
    auto *copyExample = new QPushButton(Icons::icon(u"copy"_s), tr("Copy &Example"), this);
    copyExample->setObjectName(u"copyExampleButton"_s);
    connect(copyExample, &QPushButton::clicked, this,
        [this] { QGuiApplication::clipboard()->setText(m_example->toPlainText()); });

    auto *buttons = new QDialogButtonBox(this);
    QPushButton *done = buttons->addButton(tr("&Done"), QDialogButtonBox::AcceptRole);
    done->setObjectName(u"doneButton"_s);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);

    auto *header = new QGridLayout;
    header->addWidget(new IconLabel(Icons::icon(u"key"_s), kHeaderIconSize, this), 0, 0, 2, 1, Qt::AlignTop);
    header->addWidget(heading, 0, 1);
    header->addWidget(intro, 1, 1);
    header->setColumnStretch(1, 1);
    auto *keyRow = new QHBoxLayout;
    keyRow->addWidget(m_key, 1);
    keyRow->addWidget(copyKey);
    auto *exampleRow = new QHBoxLayout;
    exampleRow->addStretch();
    exampleRow->addWidget(copyExample);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(header);
    layout->addLayout(keyRow);
    layout->addSpacing(8);
    layout->addWidget(exampleLabel);
    layout->addWidget(m_example);
    layout->addLayout(exampleRow);
    layout->addWidget(buttons);
    copyKey->setFocus();
}

FirstKeyDialog::~FirstKeyDialog() = default;

void FirstKeyDialog::fitExample()
{
    // Every line whole, the key's included: no scrolling, sideways or down, to see the command or copy it by eye.
    const QTextDocument *document = m_example->document();
    const QAbstractTextDocumentLayout *layout = document->documentLayout();
    qreal width = 0;
    qreal height = 0;
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        const QRectF bounds = layout->blockBoundingRect(block);
        width = std::max(width, bounds.width());
        height += bounds.height();
    }
    const int margins = 2 * m_example->frameWidth() + qCeil(2 * document->documentMargin());
    m_example->setMinimumWidth(qCeil(width) + margins + m_example->cursorWidth());
    m_example->setFixedHeight(qCeil(height) + margins);
    // It all fits, so scroll bars could only take room from it (and, shown once, keep each other shown).
    m_example->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_example->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

QString FirstKeyDialog::curlExample(const QString &baseUrl, const QString &key)
{
    // The key on a line of its own, so that it is seen whole where the example is shown.
    return u"curl -s %1/deploy \\\n"
           "     -H \"Authorization: Bearer %2\" \\\n"
           "     -H 'Content-Type: application/json' \\\n"
           "     -d '{\"html\": \"<h1>Hello, world</h1>\", \"slug\": \"hello-world\"}'"_s.arg(baseUrl, key);
}

} // namespace berth
