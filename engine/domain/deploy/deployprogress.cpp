#include "domain/deploy/deployprogress.h"

using namespace Qt::StringLiterals;

namespace berth {

DeployProgress::DeployProgress() = default;
DeployProgress::~DeployProgress() = default;

std::shared_ptr<DeployProgress> DeployProgress::make()
{
    return std::shared_ptr<DeployProgress>(
        new DeployProgress, [](DeployProgress *progress) { progress->deleteLater(); });
}

bool DeployProgress::cancel()
{
    State expected = State::Running;
    return m_state.compare_exchange_strong(expected, State::Cancelled);
}

bool DeployProgress::beginCommit()
{
    State expected = State::Running;
    if (!m_state.compare_exchange_strong(expected, State::Committing))
        return expected == State::Committing;
    Q_EMIT progressed(Step::Committing, 0, 0);
    return true;
}

void DeployProgress::report(Step step, qint64 done, qint64 total)
{
    if (step == Step::Storing && total > 0) {
        // Thousands of small files would otherwise queue thousands of events for one progress bar.
        const int permille = int(done * 1000 / total);
        if (m_lastPermille.exchange(permille) == permille && done < total)
            return;
    }
    Q_EMIT progressed(step, done, total);
}

Error DeployProgress::cancelledError()
{
    return {Error::Kind::BadRequest, u"The deploy was cancelled"_s, Error::Code::PublishCancelled};
}

} // namespace berth
