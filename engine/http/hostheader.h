#pragma once

#include <QByteArrayView>
#include <QString>

namespace berth {

// The Host header as requests are dispatched by it: surrounding whitespace trimmed, any port stripped (for an
// IPv6 literal, what follows its closing bracket), lower-cased. Bytes are read as Latin-1 and not validated:
// callers compare the result with the names they know, so an odd value simply matches nothing.
// The one reading of Host: HttpRequest::host() and the front door's body limit (HostDispatcher) both use it.
QString normalisedHost(QByteArrayView hostHeader);

} // namespace berth
