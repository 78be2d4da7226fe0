#pragma once

#include "storage/deployment.h"

#include <QJsonArray>
#include <QJsonObject>

namespace berth {

class CustomDomainService;
class SiteAddresses;

// The JSON shapes of a deployment in API responses (docs/api.md).
namespace DeploymentJson {

// id, slug, url [, share_url] [, expires_at]
QJsonObject summary(const Deployment &deployment, const SiteAddresses &addresses);
QJsonObject full(const Deployment &deployment, const SiteAddresses &addresses); // GET /deploy/:id, for the owner
// A site's custom domains: [{name, certificate: {status, expires_at, error}}, ...].
QJsonArray domains(const QStringList &names, const CustomDomainService &service);
// The body of GET /deploys, {"deployments": [{expires_at, id, slug, title, updated_at, url}, ...]}: the text
// QJsonDocument would write (compact, keys sorted), written directly, since building a QJsonObject per entry was most
// of its time.
QByteArray listBody(const QList<DeploymentListing> &deployments, const SiteAddresses &addresses);

} // namespace DeploymentJson
} // namespace berth
