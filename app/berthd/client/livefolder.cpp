#include "app/berthd/client/livefolder.h"

#include "app/berthd/cli.h"
#include "app/berthd/client/incrementalupload.h"
#include "app/berthd/client/sitefolder.h"
#include "app/berthd/commands.h"
#include "app/berthd/shutdownsignals.h"
#include "domain/deploy/folderwatcher.h"

#include <QEventLoop>
#include <QTime>

using namespace Qt::StringLiterals;

namespace berth::LiveFolder {

namespace {

using Cli::err;
using Cli::out;

void syncOnce(ApiClient &client, const QString &folder, const QString &id)
{
    const QString now = QTime::currentTime().toString(u"HH:mm:ss"_s);
    const auto content = SiteFolder::read(folder);
    if (!content) {
        err() << "berthd: " << now << " not synced: " << content.error().message << "\n";
        err().flush();
        return;
    }
    int sent = 0;
    const auto sending
        = IncrementalUpload::send(client, "PUT", u"/deploy/"_s + id, {}, content.value().folder, false, &sent);
    if (!sending) {
        err() << "berthd: " << now << " not synced: " << sending.error().message << "\n";
        err().flush();
        return;
    }
    const ApiClient::Reply &reply = sending.value();
    if (reply.status == 200) {
        out() << "Synced " << now << ": " << content.value().folder.fileCount << " files, " << sent << " sent\n";
        out().flush();
        return;
    }
    const QString reason = reply.reached ? reply.error() : reply.networkError;
    err() << "berthd: " << now << " not synced: " << (reason.isEmpty() ? u"HTTP %1"_s.arg(reply.status) : reason)
          << "\n";
    err().flush();
}

} // namespace

int run(ApiClient &client, const QString &folder, const QString &deploymentId)
{
    FolderWatcher watcher(folder);
    if (!watcher.isWatching())
        return Cli::failure(u"cannot watch \"%1\""_s.arg(folder));
    ShutdownSignals stop;
    QEventLoop loop;
    QObject::connect(&stop, &ShutdownSignals::received, &loop, &QEventLoop::quit);

    // A redeploy waits for its answer in a nested event loop, where the watcher may signal again: that change is
    // remembered and synced right after, never by a second redeploy inside the first.
    bool busy = false;
    bool pending = false;
    QObject::connect(&watcher, &FolderWatcher::changed, &loop, [&] {
        if (busy) {
            pending = true;
            return;
        }
        busy = true;
        do {
            pending = false;
            syncOnce(client, folder, deploymentId);
        } while (pending);
        busy = false;
    });
    out() << "Watching " << folder << " for changes (Ctrl+C to stop)\n";
    out().flush();
    loop.exec();
    return ExitOk;
}

} // namespace berth::LiveFolder
