#pragma once

#include "domain/error.h"

#include <QCoreApplication>

namespace berth {

// The dashboard's wording for the engine's refusals: translated where the kind says it all, the
// engine's own text (which names the field or file) where it carries the detail.
class ErrorText final
{
    Q_DECLARE_TR_FUNCTIONS(berth::ErrorText)

public:
    static QString describe(const Error &error);
};

} // namespace berth
