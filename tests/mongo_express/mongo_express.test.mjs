// mongo-express (the web admin UI, on its own pinned mongodb 4.x driver)
// against `ttldb serve`, driven in headless Chromium (Debian's chromium
// through playwright-core), as an administrator uses it (issue 33): list a
// collection, query it, create, edit and delete a document, see the TTL
// index. Run by scripts/mongo_express_test.sh (not by scripts/test.sh: the
// browser is a large download).
// What the pages show is mongo-express 1.0.0's (lib/views/collection.html,
// document.html; lib/routes/document.js) over MongoDB's listIndexes reply,
// whose TTL entry carries expireAfterSeconds (manual core/index-ttl).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { withServerAndClient } from '../clients/harness.mjs';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const APP = join(dirname(fileURLToPath(import.meta.url)), 'node_modules',
                 'mongo-express', 'app.js');

let client;
let express;
let browser;
let page;
let base;

function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// Registered first so that it runs before the server stops.
after(async () => {
  await browser?.close();
  express?.kill('SIGTERM');
});

withServerAndClient(async (server, c) => {
  client = c;
  const items = client.db('shop').collection('items');
  await items.insertMany([
    { _id: 'apple', name: 'apple', qty: 5 },
    { _id: 'pear', name: 'pear', qty: 2 },
    { _id: 'plum', name: 'plum', qty: 9 },
  ]);
  await items.createIndex({ createdAt: 1 }, { expireAfterSeconds: 3600 });

  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  express = spawn(process.execPath, [APP], {
    cwd: dirname(APP),
    env: { ...process.env, ME_CONFIG_MONGODB_URL: server.uri,
           ME_CONFIG_MONGODB_ENABLE_ADMIN: 'true',
           ME_CONFIG_BASICAUTH_USERNAME: '', PORT: String(port),
           VCAP_APP_HOST: '127.0.0.1', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(
      `mongo-express did not start: ${out}`)), 30000);
    express.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('Mongo Express server listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    express.on('exit', (code) => reject(new Error(
      `mongo-express exited (${code}): ${out}`)));
  });
  express.stdout.resume();

  browser = await chromium.launch({ executablePath: CHROMIUM,
                                    args: ['--no-sandbox'] });
  page = await browser.newPage();
});

const items = () => client.db('shop').collection('items');

test('the collection page lists the documents and the TTL index', async () => {
  const res = await page.goto(`${base}/db/shop/items`);
  assert.equal(res.status(), 200);
  const text = await page.textContent('body');
  for (const name of ['apple', 'pear', 'plum']) assert.ok(text.includes(name));
  const indexes = await page.$$eval('#indexes tbody tr',
                                    (trs) => trs.map((tr) => tr.innerText));
  const ttl = indexes.find((r) => r.includes('createdAt_1'));
  assert.ok(ttl, `indexes: ${indexes}`);
  assert.match(ttl, /expireAfterSeconds:\s*3600/);
});

test('a simple query lists only the matching documents', async () => {
  await page.goto(`${base}/db/shop/items`);
  await page.fill('#simple #key', 'name');
  await page.fill('#simple #value', 'pear');
  await Promise.all([page.waitForNavigation(),
                     page.click('#simple button[type=submit]')]);
  const text = await page.textContent('body');
  assert.ok(text.includes('pear'));
  assert.ok(!text.includes('plum'), 'plum is filtered out');
  assert.equal(new URL(page.url()).searchParams.get('value'), 'pear');
});

test('create, edit and delete a document through the UI', async () => {
  // Create: the "New Document" dialog.
  await page.goto(`${base}/db/shop/items`);
  await page.click('button[data-target="#addDocument"]');
  await page.waitForSelector('#addDocument .CodeMirror', { state: 'visible' });
  await page.evaluate(() => document.querySelector('#addDocument .CodeMirror')
    .CodeMirror.setValue('{"_id": "kiwi", "name": "kiwi", "qty": 7}'));
  await Promise.all([page.waitForNavigation(),
                     page.click('#addDocument button[type=submit]')]);
  assert.deepEqual(await items().findOne({ _id: 'kiwi' }),
                   { _id: 'kiwi', name: 'kiwi', qty: 7 });

  // Edit: the document page's editor.
  const res = await page.goto(
    `${base}/db/shop/items/${encodeURIComponent('"kiwi"')}`);
  assert.equal(res.status(), 200);
  await page.evaluate(() => document.querySelector('.CodeMirror')
    .CodeMirror.setValue('{"_id": "kiwi", "name": "kiwi", "qty": 8, "ripe": true}'));
  await Promise.all([page.waitForNavigation(),
                     page.click('#documentEditForm button[type=submit]')]);
  assert.deepEqual(await items().findOne({ _id: 'kiwi' }),
                   { _id: 'kiwi', name: 'kiwi', qty: 8, ripe: true });

  // Delete: the row's delete button, confirmed in the dialog it opens.
  await page.goto(`${base}/db/shop/items`);
  await page.locator('tr', { hasText: 'kiwi' })
    .locator('form.deleteButtonDocument button').click();
  await page.waitForSelector('#confirm-deletion-document #delete',
                             { state: 'visible' });
  await Promise.all([page.waitForNavigation(),
                     page.click('#confirm-deletion-document #delete')]);
  assert.equal(await items().countDocuments({ _id: 'kiwi' }), 0);
  assert.equal(await items().countDocuments(), 3);
});
