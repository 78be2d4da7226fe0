#pragma once

#include <QtGlobal>
#include <functional>

namespace berth {

// Named points of the deploy path where a test may stop the process dead, to prove crash safety: "blob-written" (after
// each new blob of a deploy, unflushed), "before-blob-flush", "after-blob-flush" (on the worker), "before-commit" and
// "after-commit" (DeploymentService), "before-rollback-commit" and "after-rollback-commit" (VersionHistory),
// "before-garbage-check" (BlobGarbage). One object shared by all, so that one hook reaches every point; points on a
// worker are reached from several threads.
class FaultPoints final
{
public:
    FaultPoints() = default;
    Q_DISABLE_COPY_MOVE(FaultPoints)

    using Hook = std::function<void(const char *point)>;

    void setHook(Hook hook) { m_hook = std::move(hook); }
    void reach(const char *point) const
    {
        if (m_hook)
            m_hook(point);
    }

private:
    Hook m_hook;
};

} // namespace berth
