#pragma once

#include <QString>

namespace berth {

class Engine;
struct Deployment;

// The address a QR code in the dashboard stands for: what a phone should open to see the site. A private site's
// share link (which lets its holder in), else the site's URL. The one place that decides it for every QR code.
QString qrAddress(const Engine &engine, const Deployment &deployment);

} // namespace berth
