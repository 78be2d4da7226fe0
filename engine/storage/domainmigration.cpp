#include "storage/migrationsteps.h"

namespace berth::migrationsteps {

// Version 15: custom domains, each a host name that serves one site besides its own address. The name is the key, so
// no two sites can hold the same one; a deployment's delete takes its names with it (ON DELETE CASCADE), and a rename
// keeps them, since they hang off the deployment's id.
Migration siteDomains()
{
    return {15,
        {
            uR"(CREATE TABLE site_domains (
                        name TEXT PRIMARY KEY NOT NULL,
                        deployment_id TEXT NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
                        created_at TEXT NOT NULL))"_s,
            u"CREATE INDEX site_domains_deployment ON site_domains(deployment_id)"_s,
        }};
}

} // namespace berth::migrationsteps
