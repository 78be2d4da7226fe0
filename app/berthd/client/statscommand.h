#pragma once

#include <QStringList>

namespace berth {

// berthd stats SLUG|ID [--days N] [--json]: a site's page views and visitors (GET /deploy/:id/analytics) as totals,
// a bar per day and its top pages, referrers and 404s. Takes the program name, then the command line; returns the
// exit status (ClientExitCode).
namespace StatsCommand {

int run(const QStringList &arguments);

} // namespace StatsCommand
} // namespace berth
