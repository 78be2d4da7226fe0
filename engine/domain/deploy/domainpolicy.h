#pragma once

#include "core/error.h"

#include <QString>
#include <optional>

namespace berth {

class SettingsRepository;

// The owner's decision on who may give sites custom domains: the owner alone (the default), or every user. Read from
// the database at each check, so that `berthd domains policy` reaches a running server (and a cluster) at once.
class DomainPolicy final
{
    Q_DISABLE_COPY_MOVE(DomainPolicy)
public:
    enum class Who
    {
        Owner,
        Everyone,
    };

    explicit DomainPolicy(SettingsRepository &settings);

    Who who() const;
    Result<void> set(Who who);

    static std::optional<Who> parse(const QString &name); // "owner" or "everyone"
    static QString name(Who who);

private:
    SettingsRepository &m_settings;
};

} // namespace berth
