#pragma once

#include <QtGlobal>
#include <functional>

namespace berth {

// Named points of the deploy path where a test may stop the process dead, to prove crash safety: "before-commit"
// (DeploymentService), "before-rollback-commit" and "after-rollback-commit" (VersionHistory), "before-garbage-check"
// (BlobGarbage). One object shared by all three, so that one hook reaches every point.
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
