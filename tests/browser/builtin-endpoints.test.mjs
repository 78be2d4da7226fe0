// The built-in site endpoints in a real browser: a deployed page submits a real HTML form to /_submit and a button
// increments a counter through /_counter and shows its value; the owner API then shows both.
//   node builtin-endpoints.test.mjs /path/to/berthd
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startBerthd } from './berthd.mjs';
import { launchChromium } from './chromium.mjs';

const berthdPath = process.argv[2] ?? process.env.BERTHD;
const SLUG = 'browser-endpoints';

const INDEX_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Guestbook</title></head>
<body>
  <form id="guestbook" method="post" action="/_submit">
    <input name="name" id="name">
    <textarea name="message" id="message"></textarea>
    <label>Newsletter <input type="checkbox" name="topics" value="news" id="news"></label>
    <label>Events <input type="checkbox" name="topics" value="events" id="events"></label>
    <input type="text" name="_hp" value="" style="display:none" tabindex="-1" autocomplete="off">
    <input type="hidden" name="_next" value="/thanks.html">
    <button type="submit" id="send">Send</button>
  </form>
  <p>Likes: <span id="likes">?</span> <button type="button" id="like">Like</button></p>
  <script>
    const likes = document.getElementById('likes');
    fetch('/_counter/likes', { cache: 'no-cache' }).then((r) => r.json()).then((c) => { likes.textContent = c.value; });
    document.getElementById('like').addEventListener('click', async () => {
      const response = await fetch('/_counter/likes/increment', { method: 'POST' });
      likes.textContent = (await response.json()).value;
    });
  </script>
</body></html>`;
const THANKS_HTML = '<!doctype html><title>Thanks</title><h1 id="thanks">Thanks for signing!</h1>';
// No _next: the visitor sees the built-in thank-you page, with a link back here.
const CONTACT_HTML = `<!doctype html><title>Contact</title>
<form method="post" action="/_submit"><input name="email" id="email"><button id="send">Send</button></form>`;

let server;
let browser;
let deploymentId;

before(async () => {
  assert.ok(berthdPath, 'pass the path of berthd as the first argument');
  server = await startBerthd(berthdPath);
  const created = await server.call('POST', '/deploy', {
    slug: SLUG,
    files: [{ path: 'index.html', content: INDEX_HTML }, { path: 'thanks.html', content: THANKS_HTML },
            { path: 'contact.html', content: CONTACT_HTML }],
  });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  deploymentId = created.json.id;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('a real form post is stored and redirected to _next', async () => {
  const page = await browser.newPage();
  await page.goto(server.siteUrl(SLUG) + '/');
  await page.fill('#name', 'Ada Lovelace');
  await page.fill('#message', 'Hello from a browser, with "quotes" & an ampersand');
  await page.check('#news');
  await page.check('#events');
  await Promise.all([page.waitForURL('**/thanks.html'), page.click('#send')]);
  assert.equal(await page.textContent('#thanks'), 'Thanks for signing!');
  await page.close();

  const listed = await server.call('GET', `/deploy/${deploymentId}/submissions`);
  assert.equal(listed.status, 200);
  assert.equal(listed.json.total, 1);
  assert.equal(listed.json.next_before, null);
  assert.deepEqual(listed.json.submissions[0].data, {
    name: 'Ada Lovelace',
    message: 'Hello from a browser, with "quotes" & an ampersand',
    topics: ['news', 'events'],
  });
  assert.match(listed.json.submissions[0].id, /^sub_/);
});

test('without _next the built-in thank-you page links back to the form', async () => {
  const page = await browser.newPage();
  await page.goto(server.siteUrl(SLUG) + '/contact.html');
  await page.fill('#email', 'grace@example.com');
  await Promise.all([page.waitForURL('**/_submit'), page.click('#send')]);
  assert.equal(await page.textContent('h1'), 'Thank you');
  if (process.env.BERTH_SCREENSHOTS)
    await page.screenshot({ path: `${process.env.BERTH_SCREENSHOTS}/thank-you.png` });
  await Promise.all([page.waitForURL('**/contact.html'), page.click('#back')]);
  await page.close();

  const listed = await server.call('GET', `/deploy/${deploymentId}/submissions?limit=1`);
  assert.deepEqual(listed.json.submissions[0].data, { email: 'grace@example.com' });
});

test('a button increments a counter and shows its value', async () => {
  const page = await browser.newPage();
  await page.goto(server.siteUrl(SLUG) + '/');
  await page.waitForFunction(() => document.getElementById('likes').textContent === '0');
  await page.click('#like');
  await page.waitForFunction(() => document.getElementById('likes').textContent === '1');
  await page.click('#like');
  await page.click('#like');
  await page.waitForFunction(() => document.getElementById('likes').textContent === '3');
  await page.reload();
  await page.waitForFunction(() => document.getElementById('likes').textContent === '3');
  await page.close();

  const counters = await server.call('GET', `/deploy/${deploymentId}/counters`);
  assert.equal(counters.status, 200);
  assert.equal(counters.json.counters.length, 1);
  assert.equal(counters.json.counters[0].name, 'likes');
  assert.equal(counters.json.counters[0].value, 3);
});
