#include "ui/sitelist/expirydialog.h"

#include "domain/common/clock.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/siteloader.h"
#include "instance/engine.h"
#include "ui/widgets/errortext.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/timetext.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

constexpr int kCountdownMs = 30'000; // the time left is said in minutes at the finest
constexpr qint64 kHour = 3600;
constexpr qint64 kDay = 24 * kHour;

QString spanText(qint64 seconds)
{
    if (seconds < kDay)
        return ExpiryDialog::tr("%n hour(s)", nullptr, int(seconds / kHour));
    return ExpiryDialog::tr("%n day(s)", nullptr, int(seconds / kDay));
}

} // namespace

QList<qint64> ExpiryDialog::spans()
{
    return {kHour, kDay, 7 * kDay, 30 * kDay, 90 * kDay};
}

ExpiryDialog::ExpiryDialog(const DashboardContext &context, const Deployment &deployment, QWidget *parent)
    : QDialog(parent)
    , m_context(context)
    , m_deployment(deployment)
    , m_state(new QLabel(this))
    , m_span(new QComboBox(this))
    , m_spanLabel(new QLabel(this))
    , m_extendButton(new QPushButton(this))
    , m_neverButton(new QPushButton(tr("&Never Expire"), this))
    , m_message(new QLabel(this))
{
    setObjectName(u"expiryDialog"_s);
    setWindowTitle(tr("Expiry of %1").arg(deployment.slug));
    setMinimumWidth(480);

    m_state->setObjectName(u"expiryStateLabel"_s);
    m_state->setWordWrap(true);
    m_span->setObjectName(u"expirySpanComboBox"_s);
    for (const qint64 seconds : spans())
        m_span->addItem(spanText(seconds), seconds);
    m_span->setCurrentIndex(2); // a week
    m_spanLabel->setBuddy(m_span);
    m_extendButton->setObjectName(u"extendButton"_s);
    connect(m_extendButton, &QPushButton::clicked, this, &ExpiryDialog::extend);
    m_neverButton->setObjectName(u"neverExpireButton"_s);
    m_neverButton->setToolTip(tr("The site stays online until you delete it"));
    connect(m_neverButton, &QPushButton::clicked, this, &ExpiryDialog::removeExpiry);
    m_message->setObjectName(u"messageLabel"_s);
    m_message->setWordWrap(true);
    m_message->hide();

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &ExpiryDialog::reject);
    connect(&m_watcher, &QFutureWatcherBase::finished, this, [this] { onSaved(m_watcher.future().result()); });

    auto *row = new QHBoxLayout;
    row->addWidget(m_spanLabel);
    row->addWidget(m_span);
    row->addWidget(m_extendButton);
    row->addStretch(1);
    row->addWidget(m_neverButton);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_state);
    layout->addLayout(row);
    layout->addWidget(m_message);
    layout->addStretch(1);
    layout->addWidget(buttons);

    m_countdown.setInterval(kCountdownMs);
    connect(&m_countdown, &QTimer::timeout, this, &ExpiryDialog::showState);
    m_countdown.start();
    // The sweep or another front end may take the site offline, or move its expiry, while this is open.
    SiteLoader &sites = m_context.engine.siteLoader();
    connect(&sites, &SiteLoader::deploymentRemoved, this, [this](const QString &id) {
        if (id == m_deployment.id)
            reject();
    });
    connect(&sites, &SiteLoader::deploymentChanged, this, [this](const QString &id) {
        if (id != m_deployment.id)
            return;
        if (const auto fresh = m_context.engine.deployments().get(m_context.owner, id)) {
            m_deployment = fresh.value();
            showState();
        }
    });
    showState();
}

void ExpiryDialog::showState()
{
    const QDateTime now = m_context.engine.clock().now();
    const QDateTime &expiresAt = m_deployment.expiresAt;
    if (!expiresAt.isValid()) {
        m_state->setText(tr("%1 never expires: it stays online until you delete it.").arg(m_deployment.slug));
        m_spanLabel->setText(tr("Go offline &in:"));
        m_extendButton->setText(tr("&Set Expiry"));
    } else {
        m_state->setText(tr("%1 goes offline %2, on %3. Its address is then free for anyone.")
                             .arg(m_deployment.slug, TimeText::relative(expiresAt, now), TimeText::full(expiresAt)));
        m_spanLabel->setText(tr("Extend &by:"));
        m_extendButton->setText(tr("&Extend"));
    }
    m_state->setToolTip(expiresAt.isValid() ? TimeText::full(expiresAt) : QString());
    m_neverButton->setEnabled(expiresAt.isValid() && !m_watcher.isRunning());
    m_extendButton->setEnabled(!m_watcher.isRunning());
}

void ExpiryDialog::extend()
{
    // From the present expiry while it is ahead: extending never shortens what the site had.
    const QDateTime now = m_context.engine.clock().now();
    const QDateTime &current = m_deployment.expiresAt;
    const QDateTime from = current.isValid() && current > now ? current : now;
    save(from.addSecs(m_span->currentData().toLongLong()));
}

void ExpiryDialog::removeExpiry()
{
    save(std::nullopt);
}

void ExpiryDialog::save(std::optional<QDateTime> expiresAt)
{
    DeployRequest request;
    request.expiresAt.emplace(expiresAt); // an empty inner value: never
    m_extendButton->setEnabled(false);
    m_neverButton->setEnabled(false);
    m_watcher.setFuture(m_context.engine.deployments().update(m_context.owner, m_deployment.id, std::move(request)));
}

void ExpiryDialog::onSaved(const Result<Deployment> &result)
{
    if (!result) {
        Theme::showMessage(m_message, ErrorText::describe(result.error()), Theme::Tone::Error);
        showState();
        return;
    }
    m_deployment = result.value();
    Theme::showMessage(m_message,
        m_deployment.expiresAt.isValid()
            ? tr("Saved: %1 now goes offline on %2.").arg(m_deployment.slug, TimeText::full(m_deployment.expiresAt))
            : tr("Saved: %1 no longer expires.").arg(m_deployment.slug),
        Theme::Tone::Success);
    showState();
}

} // namespace berth
