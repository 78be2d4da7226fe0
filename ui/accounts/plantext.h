#pragma once

#include <QCoreApplication>

namespace berth {

// The plans as the dashboard names them.
class PlanText final
{
    Q_DECLARE_TR_FUNCTIONS(berth::PlanText)

public:
    static QString name(const QString &plan); // "free" -> "Free"; an unknown plan as it is
};

} // namespace berth
