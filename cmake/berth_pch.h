// The Qt and standard headers most of Berth's sources include, precompiled once per library (and once per group of
// tests that share a folder, libraries and definitions) so that each source does not parse them again. Only what a
// target links is included: its QT_*_LIB definitions say which. Nothing here may depend on Berth's own code.
#pragma once

#ifdef __cplusplus

#include <QtCore/QByteArray>
#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QHash>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QRegularExpression>
#include <QtCore/QSet>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtCore/QTimer>
#include <QtCore/QUrl>
#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

#ifdef QT_NETWORK_LIB
#include <QtNetwork/QHostAddress>
#include <QtNetwork/QTcpSocket>
#endif

#ifdef QT_SQL_LIB
#include <QtSql/QSqlError>
#include <QtSql/QSqlQuery>
#endif

#ifdef QT_WIDGETS_LIB
#include <QtWidgets/QWidget>
#endif

#ifdef QT_TESTLIB_LIB
#include <QtCore/QTemporaryDir>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>
#endif

#endif
