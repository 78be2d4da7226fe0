#pragma once

#include "core/error.h"

#include <QTest>

// QVERIFY for a Result<T>: fails the test with the Error's message when the result holds one.
#define BERTH_VERIFY_OK(expression)                                                                                    \
    do {                                                                                                               \
        const auto berthResult = (expression);                                                                         \
        QVERIFY2(berthResult.ok(), berthResult.ok() ? "" : qPrintable(berthResult.error().message));                   \
    } while (false)
