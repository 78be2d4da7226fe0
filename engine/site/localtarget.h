#pragma once

#include <QString>
#include <QStringView>

namespace berth {

// Redirects Berth makes on a site host (share link, password gate, a form's _next) go to a path on that same site
// and nowhere else. A browser reads "//host", "/\host" and, since it drops tabs and line breaks from URLs,
// "/<TAB>/host" as another host; those, control characters, spaces and anything not starting with "/" fail, and so
// does a path that comes to "//" or "/\\" once percent-decoded and its "." and ".." segments resolved ("/.%2F/host").
namespace LocalTarget {

// Whether `target` (a path with an optional query, as it goes into Location) stays on this site.
bool isLocal(QStringView target);
// `target` when it is local, otherwise "/".
QString orRoot(const QString &target);

} // namespace LocalTarget
} // namespace berth
