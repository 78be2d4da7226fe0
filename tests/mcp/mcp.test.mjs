// Berth's MCP server driven by the official MCP TypeScript SDK client (pinned in package-lock.json; setup.sh runs
// `npm ci`) against a real berthd: over Streamable HTTP at /mcp and over stdio (`berthd mcp`). Lists the tools,
// calls every one (the SDK checks each structuredContent against the tool's output schema), another user's
// deployment, a bad argument and a deploy over the limits as isError results with the API's texts; version
// negotiation, sessions, Origin and the agent identity given on loopback with no key.
//   node mcp.test.mjs /path/to/berthd
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startBerthd } from '../browser/berthd.mjs';

const berthdPath = process.argv[2] ?? process.env.BERTHD;
const EMAIL = 'mcp-user@example.test';
const TOOLS = ['add_webhook', 'claim', 'create_share_link', 'delete_submission', 'deploy', 'enable_webhook',
               'get_analytics', 'get_status', 'get_submissions', 'list_counters', 'list_deploys', 'list_share_links',
               'list_versions', 'list_webhooks', 'login', 'logout', 'ping_webhook', 'remove_webhook', 'rename_slug',
               'revoke_share_link', 'rollback', 'teardown', 'update', 'verify', 'webhook_deliveries', 'whoami'];
let server;
let userKey;

const berthd = (...args) => execFileSync(berthdPath, [...args, '--data-dir', server.dataDir], { encoding: 'utf8' });

async function connect(key) {
  const client = new Client({ name: 'berth-test', version: '1.0.0' });
  const headers = key ? { Authorization: `Bearer ${key}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(`${server.api}/mcp`), { requestInit: { headers } });
  await client.connect(transport);
  return client;
}

async function call(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  if (!result.isError) {
    assert.equal(result.content[0].type, 'text');
    assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent, `${name}: text is the content`);
  }
  return result;
}

function errorText(result) {
  assert.equal(result.isError, true, JSON.stringify(result));
  return result.content[0].text;
}

// A request to a site host (<slug>.localhost), which Node cannot resolve by itself: Host header on loopback.
function site(slug, path, method = 'GET', body) {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path, method,
                              headers: { Host: `${slug}.localhost:${server.port}`,
                                         ...(body ? { 'Content-Type': 'application/json' } : {}) } },
                            (res) => {
                              let data = '';
                              res.on('data', (chunk) => { data += chunk; });
                              res.on('end', () => resolve({ status: res.statusCode, body: data }));
                            });
    req.on('error', reject);
    req.end(body);
  });
}

async function rawPost(body, headers = {}) {
  const response = await fetch(`${server.api}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
               Authorization: `Bearer ${userKey}`, ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, session: response.headers.get('mcp-session-id'),
           json: text ? JSON.parse(text) : undefined };
}

const initialize = (version) => ({ jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

before(async () => {
  server = await startBerthd(berthdPath);
  userKey = execFileSync(berthdPath, ['key', 'create', '--user', EMAIL, '--data-dir', server.dataDir],
                         { encoding: 'utf8' }).trim();
});
after(async () => { await server?.stop(); });

test('tools/list: every tool with input and output schemas and the four annotations', async () => {
  const client = await connect(userKey);
  assert.equal(client.getServerVersion().name, 'berth');
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name).sort(), TOOLS);
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, 'object', tool.name);
    assert.equal(tool.outputSchema.type, 'object', tool.name);
    assert.ok(tool.description.length > 10, tool.name);
    for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'])
      assert.equal(typeof tool.annotations[hint], 'boolean', `${tool.name} ${hint}`);
  }
  assert.equal(tools.find((tool) => tool.name === 'teardown').annotations.destructiveHint, true);
  assert.equal(tools.find((tool) => tool.name === 'whoami').annotations.readOnlyHint, true);
  await client.close();
});

test('every tool over Streamable HTTP, as the API would answer', async () => {
  const client = await connect(userKey);
  const me = (await call(client, 'whoami')).structuredContent;
  assert.equal(me.email, EMAIL);
  assert.equal(me.plan, 'free');
  assert.deepEqual(me.deployments, { used: 0, allowed: 5 });

  const page = (await call(client, 'deploy', { html: '<p>from mcp</p>', slug: 'mcp-page', title: 'MCP' }))
    .structuredContent;
  assert.equal(page.url, `http://mcp-page.localhost:${server.port}`);
  assert.match((await site('mcp-page', '/')).body, /<p>from mcp<\/p>$/); // after the title tags


  const files = [{ path: 'index.html', content: '<h1>files</h1>' },
                 { path: 'img/dot.png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64'),
                   encoding: 'base64' }];
  const secret = (await call(client, 'deploy', { files, slug: 'mcp-secret', private: true, password: 'pw-123' }))
    .structuredContent;
  assert.match(secret.share_url, /\/\?_token=/);
  assert.equal((await site('mcp-secret', '/img/dot.png')).status, 401);

  const listed = (await call(client, 'list_deploys')).structuredContent.deployments.map((d) => d.slug).sort();
  assert.deepEqual(listed, ['mcp-page', 'mcp-secret']);
  const status = (await call(client, 'get_status', { id: page.id })).structuredContent;
  assert.equal(status.title, 'MCP');
  assert.equal(status.storage_type, 'html');

  await call(client, 'update', { id: page.id, html: '<p>updated</p>' });
  assert.match((await site('mcp-page', '/')).body, /<p>updated<\/p>$/);
  const renamed = (await call(client, 'rename_slug', { id: page.id, slug: 'mcp-renamed' })).structuredContent;
  assert.equal(renamed.slug, 'mcp-renamed');
  assert.equal((await site('mcp-page', '/')).status, 404);

  assert.equal((await site('mcp-renamed', '/_submit', 'POST', JSON.stringify({ name: 'Ada' }))).status, 200);
  assert.equal((await site('mcp-renamed', '/_counter/likes/increment', 'POST')).status, 200);
  const submissions = (await call(client, 'get_submissions', { id: page.id, limit: 10 })).structuredContent;
  assert.equal(submissions.total, 1);
  assert.deepEqual(submissions.submissions[0].data, { name: 'Ada' });
  await call(client, 'delete_submission', { id: page.id, submission_id: submissions.submissions[0].id });
  assert.equal((await call(client, 'get_submissions', { id: page.id })).structuredContent.total, 0);
  const counters = (await call(client, 'list_counters', { id: page.id })).structuredContent.counters;
  assert.deepEqual(counters.map((c) => [c.name, c.value]), [['likes', 1]]);

  const after = (await call(client, 'whoami')).structuredContent;
  assert.deepEqual(after.deployments, { used: 2, allowed: 5 });

  const removed = (await call(client, 'teardown', { id: secret.id })).structuredContent;
  assert.equal(removed.id, secret.id);
  assert.equal((await site('mcp-secret', '/')).status, 404);

  // claim: an agent's deployment becomes this user's.
  const agent = await (await fetch(`${server.api}/auth/session`, { method: 'POST' })).json();
  const agentSite = await fetch(`${server.api}/deploy`, {
    method: 'POST', headers: { Authorization: `Bearer ${agent.api_key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ html: '<p>agent</p>', slug: 'mcp-agent-site' }) }).then((r) => r.json());
  const claimed = (await call(client, 'claim', { claim_token: agent.claim_token })).structuredContent;
  assert.deepEqual(claimed.deployments, [agentSite.id]);
  await client.close();
});

test('login, verify and logout: the session acts as the signed-in account, then as before', async () => {
  const client = await connect(server.key); // the owner
  const other = 'mcp-signin@example.test';
  assert.match(berthd('allow', 'add', other), /may sign in/);
  assert.deepEqual((await call(client, 'login', { email: other })).structuredContent, { sent: true });
  const line = berthd('signin-requests').split('\n').find((row) => row.startsWith(other));
  const code = line?.match(/\b(\d{6})\s*$/)?.[1];
  assert.match(code ?? '', /^\d{6}$/);
  assert.equal(errorText(await call(client, 'verify', { email: other, code: code === '000000' ? '000001' : '000000' })),
               'Invalid or expired code');
  const signedIn = (await call(client, 'verify', { email: other, code })).structuredContent;
  assert.equal(signedIn.user.email, other);
  assert.equal((await call(client, 'whoami')).structuredContent.email, other);
  assert.deepEqual((await call(client, 'logout')).structuredContent, { signed_out: true });
  const me = (await call(client, 'whoami')).structuredContent;
  assert.equal(me.owner, true);
  await client.close();
});

test('refusals are isError results with the API\'s texts', async () => {
  const ownerSite = await fetch(`${server.api}/deploy`, {
    method: 'POST', headers: { Authorization: `Bearer ${server.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ html: '<p>owner</p>', slug: 'owner-only' }) }).then((r) => r.json());
  const client = await connect(userKey);
  assert.equal(errorText(await call(client, 'get_status', { id: ownerSite.id })), 'Deployment not found');
  assert.equal(errorText(await call(client, 'teardown', { id: ownerSite.id })), 'Deployment not found');
  assert.equal(errorText(await call(client, 'deploy', { html: '<p>x</p>', slug: 5 })),
               'Invalid arguments for deploy: "slug" must be a string');
  assert.equal(errorText(await call(client, 'get_status', {})), 'Invalid arguments for get_status: "id" is required');
  assert.equal(errorText(await call(client, 'deploy', { html: '<p>x</p>', colour: 'red' })),
               'Invalid arguments for deploy: unknown argument "colour"');
  assert.equal(errorText(await call(client, 'deploy', {})), 'html is required');
  assert.equal(errorText(await call(client, 'deploy', { html: '<p>x</p>', slug: 'owner-only' })),
               'slug "owner-only" is already taken');
  const big = 'x'.repeat(6 * 1024 * 1024);
  assert.equal(errorText(await call(client, 'deploy', { html: big })), 'HTML exceeds the 5 MB limit (6.0 MB)');
  await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), /Unknown tool: no_such_tool/);
  await client.close();
});

test('protocol versions are negotiated back to 2025-03-26', async () => {
  for (const version of ['2025-11-25', '2025-06-18', '2025-03-26']) {
    const reply = await rawPost(initialize(version));
    assert.equal(reply.status, 200);
    assert.equal(reply.json.result.protocolVersion, version);
    assert.ok(reply.session);
  }
  assert.equal((await rawPost(initialize('1999-01-01'))).json.result.protocolVersion, '2025-11-25');
});

test('sessions, batches, Origin and keys at the HTTP level', async () => {
  const { session } = await rawPost(initialize('2025-03-26'));
  const ping = { jsonrpc: '2.0', id: 7, method: 'ping' };
  assert.deepEqual((await rawPost(ping, { 'Mcp-Session-Id': session })).json, { jsonrpc: '2.0', id: 7, result: {} });
  assert.equal((await rawPost(ping)).status, 400);
  assert.equal((await rawPost(ping, { 'Mcp-Session-Id': 'nope' })).status, 404);
  // Bound to the key it was made with.
  assert.equal((await rawPost(ping, { 'Mcp-Session-Id': session, Authorization: `Bearer ${server.key}` })).status, 404);
  const batch = await rawPost([ping, { jsonrpc: '2.0', method: 'notifications/initialized' },
                               { jsonrpc: '2.0', id: 8, method: 'nope' }], { 'Mcp-Session-Id': session });
  assert.equal(batch.json.length, 2);
  assert.equal(batch.json[1].error.code, -32601);
  assert.equal((await rawPost({ jsonrpc: '2.0', method: 'notifications/initialized' },
                              { 'Mcp-Session-Id': session })).status, 202);
  assert.equal((await rawPost(ping, { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '1999-01-01' })).status, 400);

  assert.equal((await rawPost(initialize('2025-06-18'), { Origin: 'http://evil.example' })).status, 403);
  assert.equal((await rawPost(initialize('2025-06-18'), { Origin: `http://owner-only.localhost:${server.port}` }))
    .status, 403);
  assert.equal((await rawPost(initialize('2025-06-18'), { Origin: `http://localhost:${server.port}` })).status, 200);
  assert.equal((await rawPost(initialize('2025-06-18'), { Authorization: 'Bearer bk_wrong' })).status, 401);
  assert.equal((await fetch(`${server.api}/mcp`)).status, 405);

  const ended = await fetch(`${server.api}/mcp`, { method: 'DELETE',
    headers: { 'Mcp-Session-Id': session, Authorization: `Bearer ${userKey}` } });
  assert.equal(ended.status, 204);
  assert.equal((await rawPost(ping, { 'Mcp-Session-Id': session })).status, 404);
});

test('from loopback with no key: an agent identity', async () => {
  const client = await connect(undefined);
  const me = (await call(client, 'whoami')).structuredContent;
  assert.equal(me.agent, true);
  assert.equal(me.plan, 'agent');
  const page = (await call(client, 'deploy', { html: '<p>agent via mcp</p>' })).structuredContent;
  assert.equal((await call(client, 'list_deploys')).structuredContent.deployments[0].id, page.id);
  await client.close();
});

test('stdio: berthd mcp proxies the same tools', async () => {
  const config = mkdtempSync(join(tmpdir(), 'berth-mcp-config-'));
  const transport = new StdioClientTransport({
    command: berthdPath, args: ['mcp', '--url', server.api],
    env: { BERTH_API_KEY: userKey, XDG_CONFIG_HOME: config, PATH: process.env.PATH }, stderr: 'pipe' });
  const client = new Client({ name: 'berth-stdio-test', version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name).sort(), TOOLS);
  assert.equal((await call(client, 'whoami')).structuredContent.email, EMAIL);
  const page = (await call(client, 'deploy', { html: '<p>stdio</p>', slug: 'mcp-stdio' })).structuredContent;
  assert.equal((await site('mcp-stdio', '/')).body, '<p>stdio</p>');
  assert.equal(errorText(await call(client, 'get_status', { id: 'dep_nothing' })), 'Deployment not found');
  await call(client, 'teardown', { id: page.id });
  await client.close();
  rmSync(config, { recursive: true, force: true });
});
