#pragma once

#include "core/error.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace berth {

// One file of a multi-file deploy, validated and decoded.
struct FileUpload
{
    QString path; // normalised (FilePath::normalise)
    QByteArray content; // decoded bytes
    QByteArray contentType; // final type, with a charset for text
    // Set instead of content (an incremental upload): the content is a blob this user's deployments already hold,
    // named by its lower-case hex SHA-256. size is then filled from the stored copy before any size limit is applied.
    QByteArray sha256 = {};
    qint64 size = 0;

    bool isReference() const { return !sha256.isEmpty(); }
    qint64 byteSize() const { return isReference() ? size : content.size(); }
};

// The body of POST /deploy (Create) or PUT /deploy/:id (Update), validated. An empty optional is an omitted field.
struct DeployRequest
{
    enum class Mode
    {
        Create,
        Update
    };

    std::optional<QString> html; // single-HTML deploy
    std::optional<QList<FileUpload>> files; // multi-file deploy
    std::optional<QString> slug; // Create only
    std::optional<QString> title;
    std::optional<QString> description; // a present JSON null -> a null QString (means "unset")
    std::optional<QString> favicon;
    std::optional<QString> ogImage; // JSON field og_image
    std::optional<bool> isSpa; // is_spa
    std::optional<bool> protect;
    std::optional<QString> password;
    std::optional<bool> removePassword; // remove_password, Update only
    // rotate_share_link, Update only: a private site gets a new share link; the old link and every access cookie
    // stop working, and the site stays private.
    std::optional<bool> rotateShareLink;
    // expires_at or expires_in: when the site goes offline as on a delete (expiryrules.h). Unset: unchanged, or for
    // an agent's new site the owner's default; an empty inner value (JSON null): never. expires_in, in seconds, is
    // turned into expiresAt against the service's clock before the deploy goes on.
    std::optional<std::optional<QDateTime>> expiresAt;
    std::optional<qint64> expiresIn;
    // publish, Update only: false stores the content as a new version without serving it (it goes live by rollback);
    // the site's access and expiry cannot change in the same request.
    std::optional<bool> publish;
    // The site's custom domains, replacing its list (empty: none). As given: CustomDomainService checks and
    // normalises them against the instance's addresses and the other sites.
    std::optional<QStringList> domains;

    qint64 contentBytes() const; // decoded size of html (as UTF-8) or of all files
};

// Field limits beyond the size limits of limits.h.
constexpr int kMaxTitleLength = 500;
constexpr int kMaxDescriptionLength = 2000;
constexpr int kMaxFaviconLength = 32;
constexpr int kMaxOgImageLength = 2048;
constexpr int kMaxPasswordLength = 1024;

// Parses and validates a deploy body; BadRequest or TooLarge with the error texts docs/api.md lists when it is refused.
// Pure and thread-safe, meant for a worker thread: bodies can be tens of megabytes.
// The same rules for a request built in-process (the dashboard): sizes, file paths (already normalised),
// duplicates, the slug and the fields. parseDeployRequest() applies them while it parses.
Result<void> validateDeployRequest(const DeployRequest &request);

Result<DeployRequest> parseDeployRequest(const QByteArray &body, DeployRequest::Mode mode);
// The fields of a deploy whose files come apart from them (an archive upload): the body's names and rules, with html
// and files refused.
Result<DeployRequest> parseDeployFields(const QJsonObject &fields, DeployRequest::Mode mode);

// The UTF-8 size of text without encoding it.
qint64 utf8Size(QStringView text);

} // namespace berth
