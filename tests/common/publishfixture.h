#pragma once

#include <QString>
#include <QStringList>

namespace berth::test {

// A folder with one of every problem the pre-publish checks report (PublishChecks): no index.html, a missing image
// and a script outside the folder referenced from a page, a file over the 10 MB limit, an .env file, a private key
// block, an AWS-style key in a script and a large image. Written into `dir`; false when a file cannot be written.
bool writeProblemFolder(const QString &dir);

// The files and references of that folder the checks must name, one per problem.
QStringList problemFolderFindings();

} // namespace berth::test
