// GET /openapi.json over real HTTP: the document lists exactly the router's routes (both directions), each one
// described (no stale or missing entry in the description table), keyed routes with the Bearer scheme and their
// 401/429, and the exact error texts of the domain. Every documented operation also reaches a handler over the wire.
// (tests/openapi validates the same document with an OpenAPI 3.1 validator from npm.)
#include "api/apirouter.h"
#include "api/openapidocument.h"
#include "domain/deploy/customdomainservice.h"
#include "domain/deploy/deploymentservice.h"
#include "enginefixture.h"

#include <QTest>

using namespace Qt::StringLiterals;
using berth::ApiRouter;
using berth::test::EngineFixture;
using berth::test::TestReply;

class TestOpenApi : public QObject
{
    Q_OBJECT

private:
    EngineFixture m_fixture;
    QJsonObject m_document;

    QSet<QString> routerRoutes()
    {
        QSet<QString> routes;
        for (const ApiRouter::RouteInfo &route : m_fixture.engine().apiRouter().routes())
            routes.insert(
                QString::fromLatin1(route.method) + u' ' + berth::OpenApiDocument::openApiPath(route.pattern));
        return routes;
    }
    QJsonObject operation(const QString &path, const QString &method)
    {
        return m_document.value(u"paths"_s).toObject().value(path).toObject().value(method).toObject();
    }
    QStringList examples(const QJsonObject &op, const QString &status)
    {
        QStringList texts;
        const QJsonObject examples = op.value(u"responses"_s)
                                         .toObject()
                                         .value(status)
                                         .toObject()
                                         .value(u"content"_s)
                                         .toObject()
                                         .value(u"application/json"_s)
                                         .toObject()
                                         .value(u"examples"_s)
                                         .toObject();
        for (const QJsonValue &example : examples)
            texts.append(example.toObject().value(u"value"_s).toObject().value(u"error"_s).toString());
        return texts;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_fixture.start());
        const TestReply reply = m_fixture.client().request("GET", m_fixture.client().apiHost(), u"/openapi.json"_s);
        QCOMPARE(reply.status, 200);
        QVERIFY(reply.header("content-type").startsWith("application/json"));
        m_document = reply.json();
        QCOMPARE(m_document.value(u"openapi"_s).toString(), u"3.1.0"_s);
    }

    void routesEqualTheRoutersBothWays()
    {
        QSet<QString> documented;
        const QJsonObject paths = m_document.value(u"paths"_s).toObject();
        for (auto path = paths.constBegin(); path != paths.constEnd(); ++path) {
            const QJsonObject item = path.value().toObject();
            for (auto op = item.constBegin(); op != item.constEnd(); ++op)
                documented.insert(op.key().toUpper() + u' ' + path.key());
        }
        const QSet<QString> routed = routerRoutes();
        QVERIFY2(routed.size() > 20, "the router has its routes");
        for (const QString &route : routed)
            QVERIFY2(documented.contains(route), qPrintable(u"not documented: "_s + route));
        for (const QString &route : documented)
            QVERIFY2(routed.contains(route), qPrintable(u"not routed: "_s + route));
    }

    void everyRouteIsDescribedAndNoDescriptionIsStale()
    {
        const QList<ApiRouter::RouteInfo> routes = m_fixture.engine().apiRouter().routes();
        QCOMPARE(berth::OpenApiDocument::undescribedRoutes(routes), QStringList());
        QSet<QString> keys;
        for (const ApiRouter::RouteInfo &route : routes)
            keys.insert(QString::fromLatin1(route.method) + u' ' + route.pattern);
        for (const QString &described : berth::OpenApiDocument::describedRoutes())
            QVERIFY2(keys.contains(described), qPrintable(u"describes no route: "_s + described));
    }

    void securityAndErrorTexts()
    {
        const QJsonObject scheme = m_document.value(u"components"_s)
                                       .toObject()
                                       .value(u"securitySchemes"_s)
                                       .toObject()
                                       .value(u"bearer"_s)
                                       .toObject();
        QCOMPARE(scheme.value(u"type"_s).toString(), u"http"_s);
        QCOMPARE(scheme.value(u"scheme"_s).toString(), u"bearer"_s);

        const QJsonObject deploy = operation(u"/deploy"_s, u"post"_s);
        QVERIFY(!deploy.contains(u"security"_s)); // the document-wide Bearer requirement
        QCOMPARE(examples(deploy, u"401"_s), QStringList {u"Unauthorized"_s});
        QCOMPARE(examples(deploy, u"403"_s),
            (QStringList {
                berth::DeploymentService::limitReachedMessage(), berth::CustomDomainService::ownerOnlyMessage()}));
        QVERIFY(examples(deploy, u"409"_s).contains(berth::CustomDomainService::inUseMessage()));
        QVERIFY(examples(deploy, u"400"_s).contains(u"html is required"_s));
        QVERIFY(examples(deploy, u"413"_s).contains(u"Total deployment size exceeds the 50 MB limit"_s));
        QCOMPARE(examples(operation(u"/deploy/{id}"_s, u"get"_s), u"404"_s),
            QStringList {berth::DeploymentService::notFoundMessage()});
        const QJsonArray parameters = operation(u"/deploy/{id}/slug"_s, u"patch"_s).value(u"parameters"_s).toArray();
        QCOMPARE(parameters.size(), 1);
        QCOMPARE(parameters.at(0).toObject().value(u"name"_s).toString(), u"id"_s);
        QCOMPARE(parameters.at(0).toObject().value(u"in"_s).toString(), u"path"_s);

        const QJsonObject session = operation(u"/auth/session"_s, u"post"_s);
        QCOMPARE(session.value(u"security"_s).toArray(), QJsonArray());
        QVERIFY(!session.value(u"responses"_s).toObject().contains(u"401"_s));
    }

    // Independent of the generator: each documented method and path, sent without a key, reaches a route (the
    // router's own 404 "Not found" and 405 are what an unknown one gets).
    void everyDocumentedOperationIsRoutedOverTheWire()
    {
        auto &client = m_fixture.client();
        const QJsonObject paths = m_document.value(u"paths"_s).toObject();
        for (auto path = paths.constBegin(); path != paths.constEnd(); ++path) {
            QString concrete = path.key();
            concrete.replace(QRegularExpression(u"\\{[a-z]+\\}"_s), u"x-1"_s);
            const QJsonObject item = path.value().toObject();
            for (auto op = item.constBegin(); op != item.constEnd(); ++op) {
                const TestReply reply = client.request(op.key().toUpper().toLatin1(), client.apiHost(), concrete);
                const QString what = op.key() + u' ' + concrete + u": %1 %2"_s.arg(reply.status).arg(reply.error());
                QVERIFY2(reply.status != 405, qPrintable(what));
                QVERIFY2(!(reply.status == 404 && reply.error() == u"Not found"_s), qPrintable(what));
            }
        }
        // The probe can fail: an undocumented path is the router's 404.
        QCOMPARE(client.request("GET", client.apiHost(), u"/nowhere"_s).error(), u"Not found"_s);
    }
};

QTEST_GUILESS_MAIN(TestOpenApi)
#include "tst_openapi.moc"
