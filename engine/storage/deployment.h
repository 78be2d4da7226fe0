#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

namespace berth {

// One file of a stored deployment version: where it is served and which blob holds it.
struct StoredFile
{
    QString path; // normalised, relative, e.g. "css/site.css"
    QByteArray blob; // hex SHA-256 of the content (the blob store's name)
    qint64 size = 0;
    QByteArray contentType; // e.g. "text/html; charset=utf-8"
};

// A deployment's row: its identity, settings and the version it currently serves.
struct Deployment
{
    QString id; // "dep_" + base62
    QString userId;
    QString slug;
    QString storageType; // "html" or "files"
    bool isSpa = false;
    QString title; // what is served and shown: the owner's own, else the document's
    bool titleIsCustom = false; // the owner set title; else it follows the document on every content change
    QString documentTitle; // the <title> of the document served now (empty: none)
    QString description; // a null QString means unset (JSON null)
    QString favicon;
    QString ogImage;
    bool isProtected = false;
    QByteArray passwordHash; // empty: no password gate
    QByteArray shareToken; // empty unless protected
    QDateTime createdAt; // UTC
    QDateTime updatedAt; // UTC
    qint64 versionId = 0; // the version being served
    QDateTime expiresAt; // UTC; when the site goes offline as on a delete (invalid: never)
    QStringList warnings; // not stored: what a deploy reports back (skipped rules lines, a root that answers 404)
    int preparedVersion = 0; // not stored: the version an update with "publish": false stored without serving it
};

// What a listing of deployments shows of each (GET /deploys): five columns of the row, read without the others.
struct DeploymentListing
{
    QString id;
    QString slug;
    QString title;
    QDateTime updatedAt; // UTC
    QDateTime expiresAt = {}; // UTC; invalid: never
};

// One kept version of a deployment: its content's metadata and the size of its file list. Protection
// (private, password, share link) belongs to the deployment, not to a version: a rollback never changes who may see
// a site.
struct StoredVersion
{
    qint64 id = 0; // the row; files hang off it
    int number = 0; // 1, 2, ... per deployment, in the order the versions were made
    QDateTime createdAt; // UTC
    QString storageType;
    bool isSpa = false;
    QString title;
    bool titleIsCustom = false;
    QString documentTitle;
    QString description; // null: unset
    QString favicon;
    QString ogImage;
    int fileCount = 0;
    qint64 totalSize = 0;
};

} // namespace berth
