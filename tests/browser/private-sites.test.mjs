// Private sites in a real browser: a protected multi-file site opened through its share link loads its
// stylesheet and image (the access cookie covers every file), the link's token leaves the address bar, and a
// password gate on another site lets the right password through to the page that was asked for. A named share link
// opens the site too, until it is revoked: the same browser's next request gets the page that says so.
//   node private-sites.test.mjs /path/to/berthd
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { startBerthd } from './berthd.mjs';
import { launchChromium } from './chromium.mjs';

const berthdPath = process.argv[2] ?? process.env.BERTHD;
// A 1x1 PNG.
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const SITE_FILES = [
  { path: 'index.html', content: `<!doctype html><html><head><meta charset="utf-8"><title>Team notes</title>
<link rel="stylesheet" href="css/site.css"></head>
<body><h1 id="title">Team notes</h1><img id="logo" src="img/logo.png" alt="logo">
<a id="more" href="docs/">More</a></body></html>` },
  { path: 'css/site.css', content: 'h1 { color: rgb(0, 128, 128); }' },
  { path: 'img/logo.png', content: PIXEL_PNG, encoding: 'base64' },
  { path: 'docs/index.html', content: '<!doctype html><title>Docs</title><h1 id="docs">Docs</h1>' },
];

let server;
let browser;
let shareUrl;

before(async () => {
  assert.ok(berthdPath, 'pass the path of berthd as the first argument');
  server = await startBerthd(berthdPath);
  const shared = await server.call('POST', '/deploy', { slug: 'team-notes', protect: true, files: SITE_FILES });
  assert.equal(shared.status, 200, JSON.stringify(shared.json));
  shareUrl = shared.json.share_url;
  const gated = await server.call('POST', '/deploy',
                                  { slug: 'gated-notes', protect: true, password: 'correct horse', files: SITE_FILES });
  assert.equal(gated.status, 200, JSON.stringify(gated.json));
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('a share link opens the whole site: page, stylesheet and image', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const response = await page.goto(shareUrl);
  assert.equal(response.status(), 200);
  assert.equal(new URL(page.url()).search, '', 'the token is dropped from the address');
  assert.equal(await page.textContent('#title'), 'Team notes');
  assert.equal(await page.$eval('#title', (h1) => getComputedStyle(h1).color), 'rgb(0, 128, 128)');
  await page.waitForFunction(() => document.getElementById('logo').complete);
  assert.equal(await page.$eval('#logo', (img) => img.naturalWidth), 1);
  await Promise.all([page.waitForURL('**/docs/'), page.click('#more')]);
  assert.equal(await page.textContent('#docs'), 'Docs');
  await context.close();
});

test('without the link the site is private, and its cookie opens no other site', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  let response = await page.goto(server.siteUrl('team-notes') + '/');
  assert.equal(response.status(), 403);
  assert.match(await page.textContent('h1'), /private/);
  await page.goto(shareUrl);
  response = await page.goto(server.siteUrl('gated-notes') + '/');
  assert.equal(response.status(), 401, 'the other site still asks for its password');
  await context.close();
});

test('the password gate returns the visitor to the page they asked for', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  let response = await page.goto(server.siteUrl('gated-notes') + '/docs/');
  assert.equal(response.status(), 401);
  await page.fill('input[type=password]', 'wrong guess');
  await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);
  assert.match(await page.textContent('[role=alert]'), /not right/);
  if (process.env.BERTH_SCREENSHOTS)
    await page.screenshot({ path: `${process.env.BERTH_SCREENSHOTS}/password-gate.png` });

  await page.fill('input[type=password]', 'correct horse');
  await Promise.all([page.waitForURL('**/docs/'), page.click('button[type=submit]')]);
  assert.equal(await page.textContent('#docs'), 'Docs');
  response = await page.goto(server.siteUrl('gated-notes') + '/');
  assert.equal(response.status(), 200);
  assert.equal(await page.$eval('#title', (h1) => getComputedStyle(h1).color), 'rgb(0, 128, 128)');
  await context.close();
});

test('a named share link opens the site until it is revoked', async () => {
  const made = [];
  for (const label of ['Client', 'Reviewer']) {
    const link = await server.call('POST', `/deploy/${(await siteId('team-notes'))}/links`, { label });
    assert.equal(link.status, 200, JSON.stringify(link.json));
    made.push(link.json);
  }
  const contexts = [await browser.newContext(), await browser.newContext()];
  const pages = await Promise.all(contexts.map((context) => context.newPage()));
  for (const [i, page] of pages.entries()) {
    const response = await page.goto(made[i].url);
    assert.equal(response.status(), 200);
    assert.equal(new URL(page.url()).search, '', 'the token is dropped from the address');
    assert.equal(await page.$eval('#title', (h1) => getComputedStyle(h1).color), 'rgb(0, 128, 128)');
  }

  const revoked = await server.call('DELETE', `/deploy/${(await siteId('team-notes'))}/links/${made[0].id}`);
  assert.equal(revoked.status, 200, JSON.stringify(revoked.json));
  let response = await pages[0].reload();
  assert.equal(response.status(), 403);
  assert.match(await pages[0].textContent('h1'), /revoked/);
  assert.equal(await pages[0].$('#title'), null, 'nothing of the site');
  response = await pages[0].goto(made[0].url);
  assert.equal(response.status(), 403, 'nor does the link itself open it again');

  response = await pages[1].reload();
  assert.equal(response.status(), 200, 'the other link keeps working');
  assert.equal(await pages[1].textContent('#title'), 'Team notes');
  const listed = await server.call('GET', `/deploy/${(await siteId('team-notes'))}/links`);
  assert.deepEqual(listed.json.links.map((link) => [link.label, link.opens, link.status]),
                   [['Client', 1, 'revoked'], ['Reviewer', 1, 'active']]);
  await Promise.all(contexts.map((context) => context.close()));
});

async function siteId(slug) {
  const listed = await server.call('GET', '/deploys');
  return listed.json.deployments.find((deployment) => deployment.slug === slug).id;
}
