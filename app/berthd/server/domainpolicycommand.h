#pragma once

#include <QStringList>

namespace berth {

// berthd domains policy [owner|everyone]: shows or sets who may give sites custom domains (the owner's decision; a
// running server applies it from its next request). Takes the program name, then the command line.
int domainPolicy(const QStringList &arguments);

} // namespace berth
