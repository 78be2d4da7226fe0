// Berth's OpenAPI document, fetched from a real berthd, validated against the OpenAPI 3.1 schema by a maintained
// validator (@seriousme/openapi-schema-validator, pinned in package-lock.json; packaging/setup.sh runs `npm ci`).
// tst_openapi (C++) checks that its routes equal the router's.
//   node openapi.test.mjs /path/to/berthd
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startBerthd } from '../browser/berthd.mjs';

const berthdPath = process.argv[2] ?? process.env.BERTHD;
let server;

before(async () => { server = await startBerthd(berthdPath); });
after(async () => { await server?.stop(); });

test('GET /openapi.json is a valid OpenAPI 3.1 document, public', async () => {
  const response = await fetch(`${server.api}/openapi.json`);
  assert.equal(response.status, 200);
  const document = await response.json();
  assert.equal(document.openapi, '3.1.0');
  assert.equal(document.servers[0].url, server.api);

  const validator = new Validator();
  const result = await validator.validate(document);
  assert.equal(validator.version, '3.1');
  assert.deepEqual(result.errors, undefined, JSON.stringify(result.errors, null, 2));
  assert.equal(result.valid, true);
});

test('the validator rejects a broken document (the check can fail)', async () => {
  const document = await (await fetch(`${server.api}/openapi.json`)).json();
  document.paths['/deploy'].post.responses['200'] = { content: 'not an object' };
  const result = await new Validator().validate(document);
  assert.equal(result.valid, false);
});

test('every documented keyed operation answers 401 Unauthorized without a key', async () => {
  const document = await (await fetch(`${server.api}/openapi.json`)).json();
  let checked = 0;
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation.security) continue; // public
      const response = await fetch(server.api + path.replace(/\{[a-z]+\}/g, 'x-1'), { method: method.toUpperCase() });
      assert.equal(response.status, 401, `${method} ${path}`);
      assert.deepEqual(await response.json(), { error: 'Unauthorized' });
      checked++;
    }
  }
  assert.ok(checked > 10);
});
