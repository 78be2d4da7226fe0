#pragma once

#include "storage/user.h"

namespace berth {

class AppSettings;
class Engine;
class Prompter;

// What every dashboard window and dialog works with: the running engine, the account it acts as,
// the saved settings, and the seam through which it asks the user (answerable by tests).
struct DashboardContext
{
    Engine &engine;
    User owner;
    AppSettings &settings;
    Prompter &prompter;
};

} // namespace berth
