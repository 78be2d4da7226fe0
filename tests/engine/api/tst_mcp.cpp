// MCP over Streamable HTTP at the JSON-RPC level, over real HTTP with the engine fixture (tests/mcp drives the same
// server with the official SDK client): initialize and sessions, tools/list, a tool call as the API answers it,
// refusals as isError with the API's texts, argument validation, and the agent identity of a keyless loopback client.
#include "api/mcpcontroller.h"
#include "domain/deploy/deploymentservice.h"
#include "enginefixture.h"

#include <QJsonDocument>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::TestReply;

class TestMcp : public QObject
{
    Q_OBJECT

private:
    EngineFixture m_fixture;
    QByteArray m_userKey;

    TestReply post(const QJsonObject &message, const QByteArray &key, const QByteArray &session = {})
    {
        QList<QPair<QByteArray, QByteArray>> headers {
            {"content-type", "application/json"}, {"accept", "application/json, text/event-stream"}};
        if (!key.isEmpty())
            headers.append({"authorization", "Bearer " + key});
        if (!session.isEmpty())
            headers.append({"mcp-session-id", session});
        auto &client = m_fixture.client();
        return client.request("POST", client.apiHost(), u"/mcp"_s, QJsonDocument(message).toJson(), headers);
    }
    QByteArray open(const QByteArray &key)
    {
        const TestReply reply = post({{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, 1}, {u"method"_s, u"initialize"_s},
                                         {u"params"_s, QJsonObject {{u"protocolVersion"_s, u"2025-03-26"_s}}}},
            key);
        return reply.status == 200 ? reply.header("mcp-session-id") : QByteArray();
    }
    QJsonObject callTool(
        const QByteArray &key, const QByteArray &session, const QString &name, const QJsonObject &arguments)
    {
        return post({{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, 2}, {u"method"_s, u"tools/call"_s},
                        {u"params"_s, QJsonObject {{u"name"_s, name}, {u"arguments"_s, arguments}}}},
            key, session)
            .json()
            .value(u"result"_s)
            .toObject();
    }
    static QString text(const QJsonObject &result)
    {
        return result.value(u"content"_s).toArray().at(0).toObject().value(u"text"_s).toString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_fixture.start());
        m_userKey = m_fixture.keyFor(u"mcp@example.test"_s);
    }

    void initializeNegotiatesAndOpensASession()
    {
        const TestReply reply = post({{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, 1}, {u"method"_s, u"initialize"_s},
                                         {u"params"_s, QJsonObject {{u"protocolVersion"_s, u"2024-01-01"_s}}}},
            m_userKey);
        QCOMPARE(reply.status, 200);
        QVERIFY(!reply.header("mcp-session-id").isEmpty());
        const QJsonObject result = reply.json().value(u"result"_s).toObject();
        QCOMPARE(result.value(u"protocolVersion"_s).toString(), berth::McpController::supportedVersions().constFirst());
        QCOMPARE(result.value(u"serverInfo"_s).toObject().value(u"name"_s).toString(), u"berth"_s);
        QVERIFY(result.value(u"capabilities"_s).toObject().contains(u"tools"_s));
    }

    void toolsAreListedWithSchemas()
    {
        const QByteArray session = open(m_userKey);
        const QJsonArray tools
            = post({{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, 3}, {u"method"_s, u"tools/list"_s}}, m_userKey, session)
                  .json()[u"result"_s][u"tools"_s]
                  .toArray();
        QCOMPARE(tools.size(), 26);
        for (const QJsonValue &tool : tools) {
            QCOMPARE(tool[u"inputSchema"_s][u"type"_s].toString(), u"object"_s);
            QCOMPARE(tool[u"outputSchema"_s][u"type"_s].toString(), u"object"_s);
            QVERIFY(tool[u"annotations"_s].toObject().contains(u"destructiveHint"_s));
            // Output schemas stand alone: no reference into the OpenAPI document is left.
            QVERIFY(!QJsonDocument(tool.toObject()).toJson().contains("$ref"));
        }
    }

    void versionsAndRollbackAreTools()
    {
        const QByteArray session = open(m_userKey);
        const QString id = callTool(m_userKey, session, u"deploy"_s,
            {{u"html"_s, u"<p>first</p>"_s}, {u"slug"_s, u"mcp-versions"_s}})[u"structuredContent"_s][u"id"_s]
                               .toString();
        QVERIFY(!id.isEmpty());
        QCOMPARE(callTool(m_userKey, session, u"update"_s, {{u"id"_s, id}, {u"html"_s, u"<p>second</p>"_s}})
                     .value(u"isError"_s),
            QJsonValue(false));
        const QJsonArray versions
            = callTool(m_userKey, session, u"list_versions"_s, {{u"id"_s, id}})[u"structuredContent"_s][u"versions"_s]
                  .toArray();
        QCOMPARE(versions.size(), 2);
        QCOMPARE(versions.at(1)[u"version"_s].toInt(), 1);
        QCOMPARE(callTool(m_userKey, session, u"rollback"_s, {{u"id"_s, id}, {u"version"_s, 1}}).value(u"isError"_s),
            QJsonValue(false));
        QVERIFY(m_fixture.client().site(u"mcp-versions"_s).body.contains("<p>first</p>"));

        // An update with publish false waits at its version's address until a rollback makes it live.
        const QJsonObject prepared = callTool(m_userKey, session, u"update"_s,
            {{u"id"_s, id}, {u"html"_s, u"<p>prepared</p>"_s}, {u"publish"_s, false}})[u"structuredContent"_s]
                                         .toObject();
        QCOMPARE(prepared[u"live"_s], QJsonValue(false));
        const int number = prepared[u"version"_s].toInt();
        QVERIFY(number > 2);
        QVERIFY(m_fixture.client().site(u"mcp-versions"_s).body.contains("<p>first</p>"));
        QVERIFY(m_fixture.client().site(u"v%1--mcp-versions"_s.arg(number)).body.contains("<p>prepared</p>"));
        QCOMPARE(
            callTool(m_userKey, session, u"rollback"_s, {{u"id"_s, id}, {u"version"_s, number}}).value(u"isError"_s),
            QJsonValue(false));
        QVERIFY(m_fixture.client().site(u"mcp-versions"_s).body.contains("<p>prepared</p>"));
    }

    void shareLinksAreTools()
    {
        const QByteArray session = open(m_userKey);
        const QString id = callTool(m_userKey, session, u"deploy"_s,
            {{u"html"_s, u"<p>private</p>"_s}, {u"slug"_s, u"mcp-links"_s},
                {u"private"_s, true}})[u"structuredContent"_s][u"id"_s]
                               .toString();
        QVERIFY(!id.isEmpty());
        const QJsonObject made = callTool(m_userKey, session, u"create_share_link"_s,
            {{u"id"_s, id}, {u"label"_s, u"Reviewer"_s}, {u"max_opens"_s, 3}})[u"structuredContent"_s]
                                     .toObject();
        QVERIFY(made[u"id"_s].toString().startsWith(u"lnk_"_s));
        QVERIFY(made[u"url"_s].toString().contains(u"?_token="_s));
        const QJsonArray listed
            = callTool(m_userKey, session, u"list_share_links"_s, {{u"id"_s, id}})[u"structuredContent"_s][u"links"_s]
                  .toArray();
        QCOMPARE(listed.size(), 1);
        QCOMPARE(listed.at(0)[u"label"_s].toString(), u"Reviewer"_s);
        QCOMPARE(listed.at(0)[u"max_opens"_s].toInt(), 3);
        const QJsonObject revoked = callTool(
            m_userKey, session, u"revoke_share_link"_s, {{u"id"_s, id}, {u"link_id"_s, made[u"id"_s].toString()}});
        QCOMPARE(revoked[u"structuredContent"_s][u"status"_s].toString(), u"revoked"_s);
        // A link id cannot reach another route.
        QCOMPARE(callTool(m_userKey, session, u"revoke_share_link"_s,
                     {{u"id"_s, id}, {u"link_id"_s, u"lnk_1/../../versions"_s}})
                     .value(u"isError"_s),
            QJsonValue(true));
    }

    void webhooksAreTools()
    {
        const QByteArray session = open(m_userKey);
        const QString url = u"https://203.0.113.10/hook"_s; // a public address, as the default target policy wants
        const QJsonObject added = callTool(m_userKey, session, u"add_webhook"_s,
            {{u"url"_s, url}, {u"events"_s, QJsonArray {u"submission.created"_s}}})[u"structuredContent"_s]
                                      .toObject();
        const QString id = added[u"id"_s].toString();
        QVERIFY(id.startsWith(u"wh_"_s));
        QVERIFY(added[u"secret"_s].toString().startsWith(u"whsec_"_s));
        const QJsonObject unknown = callTool(
            m_userKey, session, u"add_webhook"_s, {{u"url"_s, url}, {u"events"_s, QJsonArray {u"site.exploded"_s}}});
        QCOMPARE(unknown[u"isError"_s], QJsonValue(true));
        QVERIFY2(text(unknown).contains(u"events[0]"_s), qPrintable(text(unknown)));

        const QJsonArray listed
            = callTool(m_userKey, session, u"list_webhooks"_s, {})[u"structuredContent"_s][u"webhooks"_s].toArray();
        QCOMPARE(listed.size(), 1);
        QCOMPARE(listed.at(0)[u"disabled_at"_s], QJsonValue(QJsonValue::Null));
        QVERIFY(!listed.at(0).toObject().contains(u"secret"_s));

        const QJsonObject ping = callTool(m_userKey, session, u"ping_webhook"_s, {{u"webhook_id"_s, id}});
        QCOMPARE(ping[u"structuredContent"_s][u"type"_s].toString(), u"ping"_s);
        QCOMPARE(callTool(m_userKey, session, u"webhook_deliveries"_s,
                     {{u"webhook_id"_s, id}})[u"structuredContent"_s][u"deliveries"_s]
                     .toArray()
                     .size(),
            1);
        // A path argument must be a webhook's id: nothing that could reach another route.
        const QJsonObject crafted
            = callTool(m_userKey, session, u"ping_webhook"_s, {{u"webhook_id"_s, u"../deploys"_s}});
        QCOMPARE(crafted[u"isError"_s], QJsonValue(true));
        QVERIFY2(text(crafted).contains(u"must match"_s), qPrintable(text(crafted)));

        const QJsonObject enabled = callTool(m_userKey, session, u"enable_webhook"_s, {{u"webhook_id"_s, id}});
        QCOMPARE(enabled[u"structuredContent"_s][u"id"_s].toString(), id);
        QCOMPARE(
            callTool(m_userKey, session, u"remove_webhook"_s, {{u"webhook_id"_s, id}})[u"structuredContent"_s][u"id"_s]
                .toString(),
            id);
        QCOMPARE(callTool(m_userKey, session, u"list_webhooks"_s, {})[u"structuredContent"_s][u"webhooks"_s]
                     .toArray()
                     .size(),
            0);
    }

    void callsAnswerAsTheApiDoes()
    {
        const QByteArray session = open(m_userKey);
        const QJsonObject deployed
            = callTool(m_userKey, session, u"deploy"_s, {{u"html"_s, u"<p>via mcp</p>"_s}, {u"slug"_s, u"via-mcp"_s}});
        QCOMPARE(deployed.value(u"isError"_s), QJsonValue(false));
        const QJsonObject site = deployed.value(u"structuredContent"_s).toObject();
        QCOMPARE(site.value(u"slug"_s).toString(), u"via-mcp"_s);
        QCOMPARE(QJsonDocument::fromJson(text(deployed).toUtf8()).object(), site);
        QVERIFY(m_fixture.client().site(u"via-mcp"_s).body.contains("<p>via mcp</p>"));

        const QString ownerSite = m_fixture.deploySite(m_fixture.ownerKey(), u"owner-mcp"_s);
        const QJsonObject refused = callTool(m_userKey, session, u"get_status"_s, {{u"id"_s, ownerSite}});
        QCOMPARE(refused.value(u"isError"_s), QJsonValue(true));
        QCOMPARE(text(refused), berth::DeploymentService::notFoundMessage());
        QVERIFY(!refused.contains(u"structuredContent"_s));

        QCOMPARE(text(callTool(m_userKey, session, u"rename_slug"_s, {{u"id"_s, site[u"id"_s]}, {u"slug"_s, true}})),
            u"Invalid arguments for rename_slug: \"slug\" must be a string"_s);
        QCOMPARE(text(callTool(m_userKey, session, u"get_submissions"_s, {{u"id"_s, site[u"id"_s]}, {u"limit"_s, 0}})),
            u"Invalid arguments for get_submissions: \"limit\" must be at least 1"_s);
        // A number no integer type holds (the mcpmessage fuzz target's find), and a fraction: not integers.
        for (const double limit : {-1.1e27, 1e300, 2.5})
            QCOMPARE(text(callTool(
                         m_userKey, session, u"get_submissions"_s, {{u"id"_s, site[u"id"_s]}, {u"limit"_s, limit}})),
                u"Invalid arguments for get_submissions: \"limit\" must be an integer"_s);
        QCOMPARE(text(callTool(m_userKey, session, u"rename_slug"_s, {{u"id"_s, site[u"id"_s]}, {u"slug"_s, u"x"_s}}))
                     .left(11),
            u"slug must b"_s);
    }

    // An agent reads a submission's fields in the order the visitor's form sent them, as the API writes them.
    void submissionsKeepTheFormsOrder()
    {
        const QByteArray session = open(m_userKey);
        const QString id = m_fixture.deploySite(m_userKey, u"mcp-form"_s);
        const TestReply posted = m_fixture.client().request("POST", m_fixture.siteHost(u"mcp-form"_s), u"/_submit"_s,
            R"({"zeta":"1","alpha":"2","mid":"3"})", {{"Content-Type", "application/json"}});
        QCOMPARE(posted.status, 200);
        const QJsonObject listed = callTool(m_userKey, session, u"get_submissions"_s, {{u"id"_s, id}});
        QCOMPARE(listed.value(u"isError"_s), QJsonValue(false));
        QVERIFY2(text(listed).contains(uR"("data":{"zeta":"1","alpha":"2","mid":"3"})"_s), qPrintable(text(listed)));
        QCOMPARE(QJsonDocument::fromJson(text(listed).toUtf8()).object(), listed[u"structuredContent"_s].toObject());
    }

    // An argument that goes into the API's path fits its schema first: nothing else reaches a path, so a tool cannot
    // be turned into another route of the API (here: deleting a counter, listing versions).
    void pathArgumentsFitTheirSchema()
    {
        const QByteArray session = open(m_userKey);
        const QString id = m_fixture.deploySite(m_userKey, u"mcp-paths"_s);
        QVERIFY(!id.isEmpty());
        const QString host = m_fixture.siteHost(u"mcp-paths"_s);
        QCOMPARE(m_fixture.client().request("POST", host, u"/_counter/visits/increment"_s).status, 200);

        const QString tooFar = id + u"/counters/visits"_s;
        const QJsonObject refused = callTool(m_userKey, session, u"teardown"_s, {{u"id"_s, tooFar}});
        QCOMPARE(refused.value(u"isError"_s), QJsonValue(true));
        QVERIFY2(text(refused).startsWith(u"Invalid arguments for teardown: \"id\" must match"_s),
            qPrintable(text(refused)));
        const QJsonArray counters = m_fixture.client()
                                        .api("GET", u"/deploy/%1/counters"_s.arg(id), m_userKey)
                                        .json()[u"counters"_s]
                                        .toArray();
        QCOMPARE(counters.size(), 1);
        QCOMPARE(m_fixture.client().site(u"mcp-paths"_s).status, 200);

        for (const QString &bad : {id + u"/versions"_s, u"../deploys"_s, id + u"%2F"_s, u"dep_x?y=1"_s,
                 u"mcp-paths\n"_s, u"MCP-PATHS"_s, QString(64, u'a')}) {
            const QJsonObject status = callTool(m_userKey, session, u"get_status"_s, {{u"id"_s, bad}});
            QVERIFY2(text(status).startsWith(u"Invalid arguments for get_status: \"id\" must"_s),
                qPrintable(bad + u": "_s + text(status)));
        }
        QCOMPARE(text(callTool(m_userKey, session, u"delete_submission"_s,
                          {{u"id"_s, id}, {u"submission_id"_s, u"sub_1/../../counters/visits"_s}}))
                     .left(53),
            u"Invalid arguments for delete_submission: \"submission_"_s);

        // A deployment's id fits; so does the shape of a slug, which the API then answers itself.
        QCOMPARE(callTool(m_userKey, session, u"get_status"_s, {{u"id"_s, id}}).value(u"isError"_s), QJsonValue(false));
        QCOMPARE(text(callTool(m_userKey, session, u"get_status"_s, {{u"id"_s, u"mcp-paths"_s}})),
            berth::DeploymentService::notFoundMessage());
        const QJsonArray tools
            = post({{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, 3}, {u"method"_s, u"tools/list"_s}}, m_userKey, session)
                  .json()[u"result"_s][u"tools"_s]
                  .toArray();
        for (const QJsonValue &tool : tools) {
            const QJsonObject properties = tool[u"inputSchema"_s][u"properties"_s].toObject();
            if (properties.contains(u"id"_s))
                QVERIFY2(properties[u"id"_s][u"pattern"_s].toString().startsWith(u"^(dep_"_s),
                    qPrintable(tool[u"name"_s].toString()));
        }
    }

    void sessionsAreBoundToTheirKey()
    {
        const QByteArray session = open(m_userKey);
        const QJsonObject ping {{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, 9}, {u"method"_s, u"ping"_s}};
        QCOMPARE(post(ping, m_userKey, session).status, 200);
        QCOMPARE(post(ping, m_fixture.ownerKey(), session).status, 404);
        QCOMPARE(post(ping, m_userKey).status, 400);
        QCOMPARE(open("bk_wrong"), QByteArray());
    }

    void keylessLoopbackIsAnAgent()
    {
        const QByteArray session = open({});
        QVERIFY(!session.isEmpty());
        const QJsonObject me = callTool({}, session, u"whoami"_s, {}).value(u"structuredContent"_s).toObject();
        QCOMPARE(me.value(u"agent"_s), QJsonValue(true));
        QCOMPARE(me.value(u"plan"_s).toString(), u"agent"_s);
    }
};

QTEST_GUILESS_MAIN(TestMcp)
#include "tst_mcp.moc"
