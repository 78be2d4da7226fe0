#include "app/berthd/server/webhooktargetscommand.h"

#include "app/berthd/cli.h"
#include "domain/events/webhookservice.h"
#include "domain/events/webhooktargets.h"
#include "instance/engine.h"

using namespace Qt::StringLiterals;

namespace berth {

int webhookTargets(const QStringList &arguments)
{
    const Cli::Command command {u"webhooks targets"_s, u"[public|lan|any]"_s,
        u"Show or set where webhooks may deliver: public (the default) refuses hosts that resolve to a\n"
        "loopback, link-local or private address; lan also allows private ranges; any also loopback.\n"
        "Checked when a webhook is added and again before each delivery."_s,
        0, 1};
    return Cli::run(
        arguments, command,
        [](const QCommandLineParser &parser, Engine &engine) {
            if (const auto policy = WebhookTargets::parse(parser.positionalArguments().value(0)); policy) {
                if (!engine.webhooks().setTargets(*policy))
                    return Cli::failure(u"could not change the setting"_s);
            }
            Cli::out() << "Webhook targets: " << WebhookTargets::name(engine.webhooks().targets()) << "\n";
            return 0;
        },
        {},
        [](const QCommandLineParser &parser) {
            const QString name = parser.positionalArguments().value(0);
            return name.isEmpty() || WebhookTargets::parse(name) ? QString()
                                                                 : u"expected public, lan or any, not '%1'"_s.arg(name);
        });
}

} // namespace berth
