// connect-mongo (express-session's MongoDB store) in a real Express app
// against `ttldb serve` (issue 33): the store's TTL index, sessions saved,
// read back, touched, destroyed, and expired by the TTL monitor.
// Expected behaviour is MongoDB's TTL monitor (src/mongo/db/ttl/ttl.cpp:
// documents whose indexed date is older than now - expireAfterSeconds are
// deleted on each pass, counted in metrics.ttl.deletedDocuments; manual
// core/index-ttl) and connect-mongo 6's use of it (src/lib/MongoStore.ts:
// createIndex({expires: 1}, {expireAfterSeconds: 0}), upsert on save).
//
// The server runs with --setParameter ttlMonitorSleepSecs=1 (as mongod
// accepts it), so an expired session goes within about a second instead of
// MongoDB's default 60 s; the expiry test polls with a deadline rather than
// sleeping a fixed time.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import express from 'express';
import session from 'express-session';
import MongoStore from 'connect-mongo';
import { withServerAndClient } from './harness.mjs';

let client;
let store;
let http;
let base;

// Registered first so that it runs before the server stops.
after(async () => {
  http?.closeAllConnections();  // fetch keeps its connections alive
  await new Promise((resolve) => http?.close(resolve));
});

withServerAndClient(async (s, c) => {
  client = c;
  store = MongoStore.create({ client, dbName: 'web', touchAfter: 0 });
  const app = express();
  app.use(session({ secret: 'ttldb test', resave: false,
                    saveUninitialized: false, store }));
  app.post('/login', (req, res) => {
    req.session.user = req.query.user;
    if (req.query.ms) req.session.cookie.maxAge = Number(req.query.ms);
    res.send('ok');
  });
  app.post('/visit', (req, res) => {
    req.session.visits = (req.session.visits ?? 0) + 1;
    res.json({ visits: req.session.visits });
  });
  app.get('/me', (req, res) => res.json({ user: req.session.user ?? null }));
  app.post('/logout', (req, res) => req.session.destroy(() => res.send('bye')));
  await new Promise((resolve) => { http = app.listen(0, '127.0.0.1', resolve); });
  base = `http://127.0.0.1:${http.address().port}`;
}, ['--setParameter', 'ttlMonitorSleepSecs=1']);


const sessions = () => client.db('web').collection('sessions');

// A request as a browser sends it; resolves to {status, body, cookie} with
// the session cookie the server set (or the one sent).
async function request(method, path, cookie) {
  const res = await fetch(base + path,
                          { method, headers: cookie ? { cookie } : {} });
  const set = res.headers.get('set-cookie');
  return { status: res.status, body: await res.text(),
           cookie: set ? set.split(';')[0] : cookie };
}

function sidOf(cookie) {
  // connect.sid=s%3A<sid>.<signature>
  return decodeURIComponent(cookie.split('=')[1]).slice(2).split('.')[0];
}

async function ttlDeleted() {
  const s = await client.db('admin').command({ serverStatus: 1 });
  return Number(s.metrics.ttl.deletedDocuments);
}

test('the store creates its TTL index on expires', async () => {
  // The store builds the index in the background of create(); wait for it.
  const deadline = Date.now() + 10000;
  let index;
  while (!index && Date.now() < deadline) {
    index = (await sessions().listIndexes().toArray().catch(() => []))
      .find((i) => i.name === 'expires_1');
    if (!index) await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(index, 'expires_1 exists');
  assert.deepEqual(index.key, { expires: 1 });
  assert.equal(index.expireAfterSeconds, 0);
});

test('a login is saved, read back with its cookie, and destroyed', async () => {
  const login = await request('POST', '/login?user=ada');
  assert.equal(login.status, 200);
  assert.match(login.cookie, /^connect\.sid=/);
  const sid = sidOf(login.cookie);

  const doc = await sessions().findOne({ _id: sid });
  assert.ok(doc, 'session document stored under the sid');
  assert.equal(JSON.parse(doc.session).user, 'ada');
  assert.ok(doc.expires instanceof Date);
  // No cookie maxAge: connect-mongo's default ttl of 14 days.
  const days = (doc.expires - Date.now()) / 86400000;
  assert.ok(days > 13.9 && days <= 14, `expires in ${days} days`);

  assert.deepEqual(JSON.parse((await request('GET', '/me', login.cookie)).body),
                   { user: 'ada' });
  assert.deepEqual(JSON.parse((await request('GET', '/me')).body),
                   { user: null });

  // Every modified request rewrites the document (an upsert with $set).
  for (let i = 1; i <= 3; i++) {
    const r = await request('POST', '/visit', login.cookie);
    assert.deepEqual(JSON.parse(r.body), { visits: i });
  }
  assert.equal(JSON.parse((await sessions().findOne({ _id: sid })).session)
    .visits, 3);

  assert.equal((await request('POST', '/logout', login.cookie)).status, 200);
  assert.equal(await sessions().countDocuments({ _id: sid }), 0);
  assert.deepEqual(JSON.parse((await request('GET', '/me', login.cookie)).body),
                   { user: null });
});

test('reading an unmodified session touches it: expires moves', async () => {
  // express-session calls store.touch for an unmodified session; with
  // touchAfter 0 connect-mongo $sets the new expires every time.
  const login = await request('POST', '/login?user=toucher&ms=60000');
  const sid = sidOf(login.cookie);
  const first = (await sessions().findOne({ _id: sid })).expires;
  await new Promise((r) => setTimeout(r, 20));
  await request('GET', '/me', login.cookie);
  const second = (await sessions().findOne({ _id: sid })).expires;
  assert.ok(second > first, `${second} after ${first}`);
  assert.equal(JSON.parse((await sessions().findOne({ _id: sid })).session)
    .user, 'toucher');
});

test('store.length and store.all see the live sessions', async () => {
  await sessions().deleteMany({});
  await request('POST', '/login?user=a');
  await request('POST', '/login?user=b');
  const length = await new Promise((resolve, reject) =>
    store.length((e, n) => (e ? reject(e) : resolve(n))));
  assert.equal(length, 2);
  const all = await new Promise((resolve, reject) =>
    store.all((e, list) => (e ? reject(e) : resolve(list))));
  assert.deepEqual(all.map((s) => s.user).sort(), ['a', 'b']);
});

test('an expired session is deleted by the TTL monitor', async () => {
  const before = await ttlDeleted();
  const keep = await request('POST', '/login?user=stays');
  const short = await request('POST', '/login?user=brief&ms=1500');
  const sid = sidOf(short.cookie);
  const doc = await sessions().findOne({ _id: sid });
  const ms = doc.expires - Date.now();
  assert.ok(ms > 0 && ms <= 1500, `expires in ${ms} ms`);
  assert.deepEqual(JSON.parse((await request('GET', '/me', short.cookie)).body),
                   { user: 'brief' });

  // The monitor runs every second; 20 s is far beyond a pass.
  const deadline = Date.now() + 20000;
  while (await ttlDeleted() === before && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(await ttlDeleted(), before + 1, 'the monitor deleted it');
  assert.equal(await sessions().countDocuments({ _id: sid }), 0);
  assert.deepEqual(JSON.parse((await request('GET', '/me', short.cookie)).body),
                   { user: null });
  assert.deepEqual(JSON.parse((await request('GET', '/me', keep.cookie)).body),
                   { user: 'stays' });
});
