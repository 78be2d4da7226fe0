#include "instance/databasemarker.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace berth::DatabaseMarker {

namespace {
constexpr char kContent[] = "postgresql\n";
constexpr QFile::Permissions kPrivate = QFile::ReadOwner | QFile::WriteOwner; // 0600, like the rest of the folder
} // namespace

QString fileName()
{
    return u"berth.backend"_s;
}

Result<void> record(const QString &dataDir, bool postgresql)
{
    const QString path = QDir(dataDir).filePath(fileName());
    if (!postgresql) {
        if (QFile::exists(path) && !QFile::remove(path))
            return Error {Error::Kind::Internal, u"Cannot remove %1"_s.arg(path)};
        return {};
    }
    // Created private; an older file is made private before it is rewritten. Once per start: no need to compare.
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate, kPrivate) || !file.setPermissions(kPrivate)
        || file.write(kContent) != qint64(sizeof kContent - 1) || !file.flush())
        return Error {Error::Kind::Internal, u"Cannot write %1: %2"_s.arg(path, file.errorString())};
    return {};
}

bool isPostgresql(const QString &dataDir)
{
    return QFileInfo::exists(QDir(dataDir).filePath(fileName()));
}

} // namespace berth::DatabaseMarker
