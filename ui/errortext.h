#pragma once

#include "core/error.h"

#include <QCoreApplication>

namespace berth {

// The dashboard's wording for the engine's refusals, in the user's language. The engine's Error has
// a kind but no code yet, so the code is recognised here from kind and message (the messages the
// engine keeps in one place where it has them); once engine/domain/error.h carries a code, code()
// reads it instead and nothing else changes. Refusals with no code keep the engine's own text,
// which names the field or file.
class ErrorText final
{
    Q_DECLARE_TR_FUNCTIONS(berth::ErrorText)

public:
    enum class Code
    {
        Other,
        DeploymentLimitReached,
        CounterLimitReached,
        SubmissionLimitReached,
        SlugTaken,
        SlugInvalid,
        DeploymentNotFound,
        CounterNotFound,
        SubmissionNotFound,
        KeyNotFound,
        UserNotFound,
        RateLimited,
        ServerFailure,
    };

    static Code code(const Error &error);
    static QString describe(const Error &error);
};

} // namespace berth
