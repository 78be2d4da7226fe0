#pragma once

#include "storage/deployment.h"

#include <QJsonObject>

namespace berth {

class SiteAddresses;

// The JSON shapes of a deployment in API responses (README, "The API").
namespace DeploymentJson {

QJsonObject summary(const Deployment &deployment, const SiteAddresses &addresses); // id, slug, url [, share_url]
QJsonObject full(const Deployment &deployment, const SiteAddresses &addresses); // GET /deploy/:id, for the owner
QJsonObject listEntry(const Deployment &deployment, const SiteAddresses &addresses); // GET /deploys

} // namespace DeploymentJson
} // namespace berth
