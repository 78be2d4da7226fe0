#pragma once

// TestDeployRequest: parseDeployRequest's answers to the bodies POST /deploy and PUT /deploy/:id carry. The size limits
// are tested in deployrequestsizes.cpp, everything else in tst_deployrequest.cpp.
#include "common/deployfiles.h"
#include "domain/deploy/deployrequest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>

Q_DECLARE_METATYPE(berth::DeployRequest::Mode)
Q_DECLARE_METATYPE(berth::Error::Kind)

namespace deployrequesttest {

using Mode = berth::DeployRequest::Mode;

inline QByteArray json(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

inline QJsonObject withFiles(const QJsonArray &files)
{
    return QJsonObject {{QStringLiteral("files"), files}};
}

} // namespace deployrequesttest

class TestDeployRequest final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void refused_data();
    void refused();
    void htmlWithMetadata();
    void descriptionNullAndEmpty();
    void updateMetadataOnly();
    void unknownFieldsRefused();
    void passwordWithoutProtectIsLeftToTheService();
    void files();
    void base64Decoding();
    void base64Refused_data();
    void base64Refused();
    void contentReadAsQtReadsIt_data();
    void contentReadAsQtReadsIt();
    // deployrequestsizes.cpp
    void htmlSizeBoundary();
    void htmlSizeCountsUtf8();
    void fileSizeBoundary_data();
    void fileSizeBoundary();
    void totalSizeBoundary();
    void tooManyFiles();
    void utf8SizeMatchesToUtf8_data();
    void utf8SizeMatchesToUtf8();

    void parsesOnWorkerThreads();
};
