// mongoose (with its own pinned Node driver) against `ttldb serve` (issue
// 33): schema indexes with `expires` becoming TTL indexes, syncIndexes,
// expiry by the TTL monitor, unique violations, and Model.watch() served
// from ttldb's change log.
// Expected answers are MongoDB's: the TTL monitor (src/mongo/db/ttl/ttl.cpp,
// metrics.ttl.deletedDocuments), the E11000 reply
// (src/mongo/db/storage/duplicate_key_error_info.cpp: keyPattern,
// keyValue), and $changeStream on a standalone
// (src/mongo/db/pipeline/document_source_change_stream.cpp,
// assertIsLegalSpecification: uassert 40573 "The $changeStream stage is only
// supported on replica sets"; jstests/change_streams use
// notReplicaSetErrorCode = 40573). mongoose maps `expires` to
// expireAfterSeconds (lib/schema/date.js, ms() for strings like '1h').
//
// The server runs with --setParameter ttlMonitorSleepSecs=1, so the expiry
// test waits about a second (polled with a deadline) rather than 60 s.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import mongoose from 'mongoose';
import { withServerAndClient } from './harness.mjs';

let client;
let conn;

// Registered first so that it runs before the server stops.
after(async () => { await conn?.close(); });

withServerAndClient(async (s, c) => {
  client = c;
  conn = await mongoose.createConnection(`${s.uri}odm`,
                                         { serverSelectionTimeoutMS: 10000 })
    .asPromise();
}, ['--setParameter', 'ttlMonitorSleepSecs=1']);

const tokenSchema = new mongoose.Schema({
  user: { type: String, required: true, unique: true },
  createdAt: { type: Date, default: Date.now, expires: 2 },
});

const cacheSchema = new mongoose.Schema({
  key: String,
  role: String,
  age: Number,
  filledAt: { type: Date, expires: '1h' },
});
cacheSchema.index({ key: 1, role: 1 });

async function ttlDeleted() {
  const s = await client.db('admin').command({ serverStatus: 1 });
  return Number(s.metrics.ttl.deletedDocuments);
}

function byName(indexes) {
  return Object.fromEntries(indexes.map((i) => [i.name, i]));
}

test('Model.init builds the schema indexes: expires is a TTL index',
     async () => {
       const Token = conn.model('Token', tokenSchema);
       await Token.init();
       const ix = byName(await client.db('odm').collection('tokens')
         .listIndexes().toArray());
       assert.deepEqual(Object.keys(ix).sort(),
                        ['_id_', 'createdAt_1', 'user_1']);
       assert.equal(ix.createdAt_1.expireAfterSeconds, 2);
       assert.deepEqual(ix.createdAt_1.key, { createdAt: 1 });
       assert.equal(ix.user_1.unique, true);
     });

test('a unique violation is E11000 with keyPattern and keyValue', async () => {
  const Token = conn.model('Token');
  await Token.create({ user: 'ada' });
  await assert.rejects(Token.create({ user: 'ada' }), (e) => {
    assert.equal(e.code, 11000);
    assert.deepEqual(e.keyPattern, { user: 1 });
    assert.deepEqual(e.keyValue, { user: 'ada' });
    assert.match(e.message, /^E11000 duplicate key error collection: odm\.tokens index: user_1 dup key: \{ user: "ada" \}/);
    return true;
  });
  await Token.deleteMany({});
});

test('syncIndexes drops what the schema lost and builds what it gained',
     async () => {
       const raw = client.db('odm').collection('caches');
       await raw.createIndex({ role: 1, age: -1 });
       const Cache = conn.model('Cache', cacheSchema);
       const diff = await Cache.diffIndexes();
       assert.deepEqual(diff.toDrop, ['role_1_age_-1']);
       assert.deepEqual(diff.toCreate.map((k) => Object.keys(k)).sort(),
                        [['filledAt'], ['key', 'role']]);
       const dropped = await Cache.syncIndexes();
       assert.deepEqual(dropped, ['role_1_age_-1']);
       const ix = byName(await raw.listIndexes().toArray());
       assert.deepEqual(Object.keys(ix).sort(),
                        ['_id_', 'filledAt_1', 'key_1_role_1']);
       // '1h' is 3600 seconds.
       assert.equal(ix.filledAt_1.expireAfterSeconds, 3600);
       assert.deepEqual((await Cache.diffIndexes()),
                        { toDrop: [], toCreate: [] });
     });

test('documents past their expires are deleted by the TTL monitor',
     async () => {
       const Token = conn.model('Token');
       const before = await ttlDeleted();
       const old = new Date(Date.now() - 10000);
       await Token.create([{ user: 'old', createdAt: old },
                           { user: 'fresh' },
                           { user: 'keep', createdAt: new Date(Date.now() + 3600e3) }]);
       const deadline = Date.now() + 20000;
       while (await ttlDeleted() < before + 2 && Date.now() < deadline) {
         await new Promise((r) => setTimeout(r, 100));
       }
       assert.equal(await ttlDeleted(), before + 2, 'old and fresh expired');
       assert.deepEqual((await Token.find().lean()).map((t) => t.user),
                        ['keep']);
     });

test('Model.watch() delivers change events (ttldb keeps a change log)',
     async () => {
       // A standalone mongod answers 40573; ttldb serves the stream from its
       // change log (docs/change_streams.md).
       const Token = conn.model('Token');
       const stream = Token.watch();
       const change = new Promise((resolve, reject) => {
         stream.once('change', resolve);
         stream.once('error', reject);
       });
       // Model.watch() opens the stream asynchronously: insert until seen.
       let seen = null;
       change.then((c) => { seen = c; }, () => {});
       for (let i = 0; i < 50 && !seen; i++) {
         await Token.create({ user: `watch${i}`, createdAt: new Date() });
         await new Promise((r) => setTimeout(r, 100));
       }
       const c = await change;
       await stream.close();
       assert.equal(c.operationType, 'insert');
       assert.match(c.fullDocument.user, /^watch/);
     });

test('Model.watch(): an expiry by the monitor is a delete marked expired, ' +
     'and a stream resumed after it sees what came next', async () => {
  const Token = conn.model('Token');
  const stream = Token.watch([{ $match: { operationType: 'delete' } }]);
  const deleted = new Promise((resolve, reject) => {
    stream.once('change', resolve);
    stream.once('error', reject);
  });
  // createdAt expires after 2 s (the schema's `expires`); one already older.
  // Model.watch() opens asynchronously: keep inserting expired tokens until
  // one's deletion is seen.
  let seen = null;
  deleted.then((c) => { seen = c; }, () => {});
  for (let i = 0; i < 100 && !seen; i++) {
    await Token.create({ user: `expired${i}`,
                         createdAt: new Date(Date.now() - 60000) });
    await new Promise((r) => setTimeout(r, 200));
  }
  const d = await deleted;
  await stream.close();
  assert.equal(d.operationType, 'delete');
  assert.equal(d.expired, true);
  // Resume after that event: a later insert comes through.
  const resumed = Token.watch([{ $match: { operationType: 'insert' } }],
                              { resumeAfter: d._id });
  const next = new Promise((resolve, reject) => {
    resumed.once('change', resolve);
    resumed.once('error', reject);
  });
  await Token.create({ user: 'after-resume' });
  const n = await next;
  await resumed.close();
  assert.equal(n.operationType, 'insert');
  assert.ok(n.fullDocument.user.startsWith('expired') ||
            n.fullDocument.user === 'after-resume', n.fullDocument.user);
});
