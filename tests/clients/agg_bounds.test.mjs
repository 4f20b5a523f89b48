// One client cannot take `ttldb serve` down through aggregation (issue 28,
// review reliability-3 N4, N5, N6), with the Node driver as the review
// found them:
//  - N4: $unwind of one large array is linear, and maxTimeMS and SIGTERM
//    stop a running aggregation (50 MaxTimeMSExpired, 11600
//    InterruptedAtShutdown: src/mongo/base/error_codes.yml);
//  - N5: a result document over 16 MiB fails with 10334 BSONObjectTooLarge
//    (src/mongo/bson/bsonobj.cpp) instead of a 40 MB reply;
//  - N6: a $reduce doubling an array with $concatArrays fails with 10334
//    instead of aborting the server with std::bad_alloc.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { MongoClient } from 'mongodb';
import { startServer } from './harness.mjs';

let server;
let client;
let db;

before(async () => {
  server = await startServer();
  client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000 });
  await client.connect();
  db = client.db('bounds');
});

after(async () => {
  await client?.close();
  assert.equal(await server?.stop(), 0);
});

const range = (n) => Array.from({ length: n }, (_, i) => i);

// The review measured 94 s for 20,000 elements (quadratic); linear, it is
// well under the test's timeout.
test('$unwind of a 20,000-element array', { timeout: 60000 }, async () => {
  await db.collection('arr').insertOne({ _id: 1, a: range(20000) });
  const r = await db.collection('arr').aggregate([
    { $match: { _id: 1 } }, { $unwind: '$a' }, { $count: 'n' },
  ]).toArray();
  assert.deepEqual(r, [{ n: 20000 }]);
});

test('maxTimeMS stops an aggregation inside one document',
     { timeout: 60000 }, async () => {
  await db.collection('arr2').insertOne({ _id: 1, a: range(20000) });
  // $unwind into a $map over 100,000 elements per output: far more than
  // 1 ms of work, all from one scanned document.
  await assert.rejects(
    db.collection('arr2').aggregate([
      { $match: { _id: 1 } }, { $unwind: '$a' },
      { $project: { m: { $size: { $map: { input: { $range: [0, 100000] },
                                          in: '$$this' } } } } },
      { $count: 'n' },
    ], { maxTimeMS: 1 }).toArray(),
    (e) => e.code === 50 && e.codeName === 'MaxTimeMSExpired');
  assert.deepEqual(await db.command({ ping: 1 }), { ok: 1 });
});

test('a result document over 16 MiB is BSONObjectTooLarge', async () => {
  const s = 'x'.repeat(1 << 20);
  await db.collection('big').insertMany(
    range(20).map((i) => ({ _id: i, s })));
  // The review's 62 MB reply: $facet returned two copies of the input.
  await assert.rejects(
    db.collection('big').aggregate([{ $facet: { a: [], b: [] } }]).toArray(),
    (e) => e.code === 10334 && e.codeName === 'BSONObjectTooLarge' &&
           /^BSONObj size: \d+ \(0x[0-9A-F]+\) is invalid/.test(e.message));
  await assert.rejects(
    db.collection('big').aggregate(
      [{ $group: { _id: null, p: { $push: '$s' } } }]).toArray(),
    (e) => e.code === 10334);
  // The same pipelines below the limit still answer.
  const r = await db.collection('big').aggregate([
    { $facet: { a: [{ $count: 'n' }], b: [{ $limit: 1 }, { $project: { _id: 1 } }] } },
  ]).toArray();
  assert.deepEqual(r, [{ a: [{ n: 20 }], b: [{ _id: 0 }] }]);
});

test('a $reduce doubling an array fails instead of crashing the server',
     async () => {
  await db.collection('one').insertOne({ _id: 1 });
  await assert.rejects(
    db.collection('one').aggregate([
      { $project: { s: { $reduce: {
        input: { $range: [0, 25] }, initialValue: [1],
        in: { $concatArrays: ['$$value', '$$value'] } } } } },
      { $project: { n: { $size: '$s' } } },
    ]).toArray(),
    (e) => e.code === 10334 && /^\$concatArrays would build a value/.test(e.message));
  // The server is still there.
  assert.deepEqual(await db.command({ ping: 1 }), { ok: 1 });
});

test('SIGTERM interrupts a running aggregation', { timeout: 60000 },
     async (t) => {
  const other = await startServer();
  // No retry: the driver would retry a read that failed with 11600.
  const c = new MongoClient(other.uri, { serverSelectionTimeoutMS: 5000,
                                         retryReads: false });
  try {
    await c.connect();
    const coll = c.db('t').collection('arr');
    await coll.insertOne({ _id: 1, a: range(200000) });
    // 200,000 outputs, each mapping 1,000,000 elements: hours of work.
    const running = coll.aggregate([
      { $unwind: '$a' },
      { $project: { m: { $size: { $map: { input: { $range: [0, 1000000] },
                                          in: 1 } } } } },
      { $count: 'n' },
    ]).toArray().then(() => 'finished', (e) => e);
    // Let the command reach the server, then stop it.
    await new Promise((r) => setTimeout(r, 500));
    const start = Date.now();
    const code = other.stop();
    const outcome = await running;
    assert.notEqual(outcome, 'finished');
    assert.equal(outcome.code, 11600, String(outcome));
    assert.equal(outcome.codeName, 'InterruptedAtShutdown');
    assert.equal(await code, 0);
    // The wait is the work between two interrupt points (docs/server.md
    // "Shutdown"): here one $map element, so the exit comes within seconds
    // even at -O0 on a loaded machine.
    const took = Date.now() - start;
    t.diagnostic(`shutdown took ${took} ms`);
    assert.ok(took < 10000, `shutdown took ${took} ms`);
  } finally {
    await c.close().catch(() => {});
  }
});
