#pragma once

#include <QString>

namespace berth {

// The shape of a deployment slug, which becomes a subdomain: https://<slug>.<site domain>.
namespace SlugRules {

constexpr int kMinLength = 3;
constexpr int kMaxLength = 63; // one DNS label

// Empty when valid; otherwise a message stating the rule. An empty slug is invalid, not "omitted".
QString validate(const QString &slug);

// A random, always valid slug such as "calm-river-7k2".
QString generate();

// A valid slug proposed from a folder or file name ("My Cool Site!" -> "my-cool-site"); generate()d when the name
// has nothing usable.
QString fromName(const QString &name);

} // namespace SlugRules
} // namespace berth
