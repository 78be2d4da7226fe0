// The sign-in page in a real browser: an agent's claim link, the email, the code the owner relays (no SMTP here:
// read with `berthd signin-requests`, as the owner would), a wrong code's message, then the new key shown once with
// a working copy button and a curl example; the agent's site is the user's afterwards.
//   node signin.test.mjs /path/to/berthd
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';

import { startBerthd } from './berthd.mjs';
import { launchChromium } from './chromium.mjs';

const berthdPath = process.argv[2] ?? process.env.BERTHD;
const EMAIL = 'ann@example.com';

let server;
let browser;

function berthd(...args) {
  return execFileSync(berthdPath, [...args, '--data-dir', server.dataDir], { encoding: 'utf8' });
}

// The code waiting for the owner to relay to this email.
function relayedCode(email) {
  const line = berthd('signin-requests').split('\n').find((row) => row.startsWith(email));
  return line?.match(/\b(\d{6})\s*$/)?.[1];
}

async function post(path, body, key) {
  const headers = { 'Content-Type': 'application/json' };
  if (key) headers.Authorization = `Bearer ${key}`;
  const response = await fetch(server.api + path, { method: 'POST', headers, body: JSON.stringify(body ?? {}) });
  return { status: response.status, json: await response.json() };
}

// A page that records every script error and console error (a Content-Security-Policy violation included), but
// for the browser's note on a 401 answer, which a wrong code is meant to get.
async function strictPage(context) {
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/Failed to load resource: .* 401/.test(message.text()))
      problems.push(message.text());
  });
  return { page, problems };
}

before(async () => {
  assert.ok(berthdPath, 'pass the path of berthd as the first argument');
  server = await startBerthd(berthdPath);
  assert.match(berthd('allow', 'add', EMAIL), /may sign in/);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('sign in from an agent\'s claim link: code, key with copy button, and the agent\'s site moves over', async () => {
  const agent = await post('/auth/session');
  assert.equal(agent.status, 200, JSON.stringify(agent.json));
  const deployed = await post('/deploy', { html: '<h1>made by an agent</h1>', slug: 'agent-made' }, agent.json.api_key);
  assert.equal(deployed.status, 200, JSON.stringify(deployed.json));

  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const { page, problems } = await strictPage(context);
  const response = await page.goto(agent.json.claim_url);
  assert.equal(response.status(), 200);
  assert.equal(await page.title(), 'Sign in · Berth');
  assert.ok(await page.isVisible('#claim-note'), 'the page says an agent\'s sites will move');
  assert.ok(!(await page.isVisible('#code-step')));

  await page.fill('#email', EMAIL);
  await page.click('#send-code');
  await page.waitForSelector('#code-step', { state: 'visible' });
  assert.equal(await page.textContent('#code-email'), EMAIL);
  if (process.env.BERTH_SCREENSHOTS)
    await page.screenshot({ path: `${process.env.BERTH_SCREENSHOTS}/sign-in-code.png` });

  const code = relayedCode(EMAIL);
  assert.match(code ?? '', /^\d{6}$/, 'the owner sees the code to relay');
  await page.fill('#code', code === '000000' ? '000001' : '000000');
  await page.click('#verify');
  await page.waitForFunction(() => document.getElementById('message').textContent !== '');
  assert.equal(await page.textContent('#message'), 'Invalid or expired code');
  assert.ok(await page.isVisible('#code-step'), 'a wrong code leaves the form for another try');

  await page.fill('#code', code);
  await page.click('#verify');
  await page.waitForSelector('#key-step', { state: 'visible' });
  assert.ok(!(await page.isVisible('#code-step')));
  assert.ok(!(await page.isVisible('#claim-note')), 'the claim is done: its note goes');
  const key = await page.inputValue('#api-key');
  assert.match(key, /^bk_[0-9A-Za-z]{40}$/);
  assert.equal(await page.textContent('#signed-in-email'), EMAIL);
  assert.equal(await page.textContent('#signed-in-plan'), 'free');
  assert.equal(await page.textContent('#claim-result'), 'Claimed the agent\'s 1 site: they are yours now.');
  const curl = await page.textContent('#curl');
  assert.ok(curl.includes(`${server.api}/deploy`), curl);
  assert.ok(curl.includes(`Authorization: Bearer ${key}`), curl);
  assert.equal(await page.textContent('#message'), '');
  if (process.env.BERTH_SCREENSHOTS)
    await page.screenshot({ path: `${process.env.BERTH_SCREENSHOTS}/sign-in-key.png` });

  await page.click('#copy');
  await page.waitForFunction(() => document.getElementById('copy').textContent === 'Copied');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key);

  // The key works, the site is now the user's, and the agent's key is done.
  const listed = await fetch(`${server.api}/deploys`, { headers: { Authorization: `Bearer ${key}` } });
  assert.equal(listed.status, 200);
  assert.deepEqual((await listed.json()).deployments.map((d) => d.id), [deployed.json.id]);
  const agentNow = await fetch(`${server.api}/deploys`, { headers: { Authorization: `Bearer ${agent.json.api_key}` } });
  assert.equal(agentNow.status, 401);
  assert.equal(relayedCode(EMAIL), undefined, 'the used code is gone from the owner\'s list');
  assert.deepEqual(problems, []);
  await context.close();
});

test('without a claim the page is a plain sign-in, and "Use another email" starts over', async () => {
  const context = await browser.newContext();
  const { page, problems } = await strictPage(context);
  await page.goto(`${server.api}/auth/login`);
  assert.ok(!(await page.isVisible('#claim-note')));
  await page.fill('#email', 'someone@example.com');
  await page.click('#send-code');
  await page.waitForSelector('#code-step', { state: 'visible' });
  // Not on the allow-list: the page says the same as for anyone, and the owner sees no code to relay.
  assert.match(await page.textContent('#code-step'), /If someone@example\.com may sign in here/);
  assert.equal(relayedCode('someone@example.com'), undefined);
  await page.click('#restart');
  await page.waitForSelector('#email-step', { state: 'visible' });
  assert.ok(!(await page.isVisible('#code-step')));
  assert.deepEqual(problems, []);
  await context.close();
});

test('without mail the page says sign-in by email is not available, and how to get a key', async () => {
  const context = await browser.newContext();
  const { page, problems } = await strictPage(context);
  await page.goto(`${server.api}/auth/login`);
  assert.ok(await page.isVisible('#no-mail-note'), 'no SMTP here: the page says so');
  assert.match(await page.textContent('#no-mail-note'), /Sign-in by email is not available on this instance/);
  assert.match(await page.textContent('#no-mail-note'), /berthd key create --user EMAIL/);
  assert.ok(!(await page.isVisible('text=We send a 6-digit code to your email')), 'no promise of mail');
  assert.equal(await page.innerText('#send-code'), 'Ask the owner for a code');
  assert.deepEqual(problems, []);
  await context.close();
});
