#pragma once

#include "core/error.h"

#include <QCoreApplication>

namespace berth {

// The dashboard's wording for the engine's refusals, in the user's language, chosen by the code the engine
// gives each refusal (Error::Code), never by its English message. Refusals with no code keep the engine's own
// text, which names the field or file; server failures and rate limits are worded by their kind.
class ErrorText final
{
    Q_DECLARE_TR_FUNCTIONS(berth::ErrorText)

public:
    using Code = Error::Code;

    static Code code(const Error &error);
    static QString describe(const Error &error);
};

} // namespace berth
