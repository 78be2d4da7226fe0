#pragma once

#include "core/error.h"

#include <optional>

namespace berth {

class SettingsRepository;

// The owner's setting for agents' sites (berthd agents expire): how long a site an agent deploys lives, counted from
// its deploy; none (the default) keeps agents' sites like any other. Read from the database at each agent's deploy,
// so that a change through the command line reaches a running server (and every server of a cluster) at once.
class AgentSiteLifetime final
{
    Q_DISABLE_COPY_MOVE(AgentSiteLifetime)
public:
    explicit AgentSiteLifetime(SettingsRepository &settings);

    std::optional<qint64> seconds() const; // none: agents' sites do not expire unless they ask
    Result<void> set(std::optional<qint64> seconds); // none, or 1 s to ExpiryRules::kMaxLifetimeSeconds

private:
    SettingsRepository &m_settings;
};

} // namespace berth
