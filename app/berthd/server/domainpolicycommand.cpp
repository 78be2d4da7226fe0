#include "app/berthd/server/domainpolicycommand.h"

#include "app/berthd/cli.h"
#include "domain/deploy/customdomainservice.h"
#include "instance/engine.h"

using namespace Qt::StringLiterals;

namespace berth {

int domainPolicy(const QStringList &arguments)
{
    const Cli::Command command {u"domains policy"_s, u"[owner|everyone]"_s,
        u"Show or set who may give sites custom domains: owner (the default) keeps them to the instance\n"
        "owner's sites; everyone lets every user add them to their own sites."_s,
        0, 1};
    return Cli::run(
        arguments, command,
        [](const QCommandLineParser &parser, Engine &engine) {
            DomainPolicy &policy = engine.customDomains().policy();
            if (const auto who = DomainPolicy::parse(parser.positionalArguments().value(0)); who) {
                if (!policy.set(*who))
                    return Cli::failure(u"could not change the setting"_s);
            }
            Cli::out() << "Custom domains: " << DomainPolicy::name(policy.who()) << "\n";
            return 0;
        },
        {},
        [](const QCommandLineParser &parser) {
            const QString name = parser.positionalArguments().value(0);
            return name.isEmpty() || DomainPolicy::parse(name) ? QString()
                                                               : u"expected owner or everyone, not '%1'"_s.arg(name);
        });
}

} // namespace berth
