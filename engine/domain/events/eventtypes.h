#pragma once

#include <QString>
#include <QStringList>

namespace berth {

// The events a webhook may subscribe to, as their API names.
namespace EventTypes {

inline constexpr char kDeploymentCreated[] = "deployment.created";
inline constexpr char kDeploymentUpdated[] = "deployment.updated";
inline constexpr char kDeploymentRenamed[] = "deployment.renamed";
inline constexpr char kDeploymentDeleted[] = "deployment.deleted";
inline constexpr char kSubmissionCreated[] = "submission.created";
inline constexpr char kPing[] = "ping"; // sent on request only, to one webhook

QStringList all();
bool isKnown(const QString &type);

} // namespace EventTypes
} // namespace berth
