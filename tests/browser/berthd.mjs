// A real berthd for browser tests: a fresh data directory, an owner key from `berthd key create`, and the server
// on an ephemeral loopback port read from its banner ("Listening on 127.0.0.1:PORT").
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const STARTUP_TIMEOUT_MS = 15000;

export async function startBerthd(berthdPath) {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-browser-'));
  const key = execFileSync(berthdPath, ['key', 'create', '--data-dir', dataDir], { encoding: 'utf8' }).trim();
  const child = spawn(berthdPath, ['serve', '--listen', '127.0.0.1:0', '--data-dir', dataDir],
                      { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    let banner = '';
    const timer = setTimeout(() => reject(new Error(`berthd did not start: ${banner}`)), STARTUP_TIMEOUT_MS);
    child.stdout.on('data', (chunk) => {
      banner += chunk;
      const match = banner.match(/Listening on 127\.0\.0\.1:(\d+)/);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.on('exit', (code) => reject(new Error(`berthd exited with ${code}: ${banner}`)));
  });
  const api = `http://localhost:${port}`;
  return {
    port,
    key,
    api,
    dataDir, // for `berthd <command> --data-dir` while the server runs
    siteUrl: (slug) => `http://${slug}.localhost:${port}`,
    async call(method, path, body) {
      const response = await fetch(api + path, {
        method,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, json: await response.json() };
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
