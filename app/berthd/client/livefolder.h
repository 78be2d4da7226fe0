#pragma once

#include <QString>

namespace berth {

class ApiClient;

// `berthd deploy PATH --watch`: after the first deploy, watches the folder and redeploys it to the same
// deployment after every burst of changes, sending only the files the server lacks. A refused redeploy (a file
// over a limit) is printed and the watch goes on. Runs until SIGINT or SIGTERM; returns the exit status.
namespace LiveFolder {

int run(ApiClient &client, const QString &folder, const QString &deploymentId);

} // namespace LiveFolder
} // namespace berth
