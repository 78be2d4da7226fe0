#pragma once

#include "domain/deployrequest.h"

#include <QString>

namespace berth {

// A folder or .html file read into deployable content: a DeployRequest with only html or files set.
struct PackagedSite
{
    QString sourcePath;
    DeployRequest content;
    bool singleHtml = false;
    int fileCount = 0;
    qint64 totalBytes = 0;
    int skippedHidden = 0; // hidden files and folders (.git, .DS_Store, ...) left out
    bool hasIndex = false; // a multi-file site without index.html shows "Not found" at its root
};

} // namespace berth
