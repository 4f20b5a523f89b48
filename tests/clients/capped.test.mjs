// Capped collections and a tailable awaitData cursor through the Node
// driver: createCollection({capped, size, max}), the oldest documents
// deleted past max, stats() and listCollections' options, and a tailable
// awaitData cursor (the eventLog use case) that returns each document
// inserted after it opened, its getMore waiting for them (maxAwaitTimeMS).
// Expected answers: MongoDB's manual (core/capped-collections,
// core/tailable-cursors), jstests/core/capped/capped_max1.js (stats max,
// maxSize) and jstests/core/query/cursor/tailable_skip_limit.js; the
// tailable-on-non-capped error is query_request_helper / get_executor's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withServerAndClient } from './harness.mjs';

let client;
withServerAndClient((s, c) => { client = c; });

test('capped: max deletes the oldest; stats and listCollections', async () => {
  const db = client.db('capped');
  const log = await db.createCollection('log', { capped: true, size: 65536, max: 3 });
  for (let i = 1; i <= 5; i++) await log.insertOne({ _id: i });
  assert.deepEqual((await log.find().toArray()).map((d) => d._id), [3, 4, 5]);
  assert.equal(await log.isCapped(), true);
  const stats = await db.command({ collStats: 'log' });
  assert.equal(stats.capped, true);
  assert.equal(stats.max, 3);
  assert.equal(stats.maxSize, 65536);
  const [info] = await db.listCollections({ name: 'log' }).toArray();
  assert.deepEqual(info.options, { capped: true, size: 65536, max: 3 });
  await assert.rejects(db.collection('plain').insertOne({}).then(() =>
    db.collection('plain').find({}, { tailable: true }).toArray()),
  { code: 2 });
  await assert.rejects(db.createCollection('bad', { capped: true }), { code: 72 });
  await db.dropDatabase();
});

test('a tailable awaitData cursor follows the inserts', async () => {
  const db = client.db('capped');
  const events = await db.createCollection('events', { capped: true, size: 1 << 20 });
  await events.insertOne({ n: 0 });
  const cursor = events.find({}, { tailable: true, awaitData: true,
                                   maxAwaitTimeMS: 2000 });
  const first = await cursor.next();
  assert.equal(first.n, 0);
  // Inserted while the cursor's getMore waits: next() returns each.
  const writer = (async () => {
    for (let n = 1; n <= 3; n++) {
      await new Promise((r) => setTimeout(r, 50));
      await events.insertOne({ n });
    }
  })();
  const seen = [];
  const t0 = Date.now();
  while (seen.length < 3) seen.push((await cursor.next()).n);
  await writer;
  assert.deepEqual(seen, [1, 2, 3]);
  assert.ok(Date.now() - t0 < 10000, 'woken by the inserts');
  // Nothing new: tryNext gives null after maxAwaitTimeMS, the cursor stays.
  const waitCursor = events.find({}, { tailable: true, awaitData: true,
                                       maxAwaitTimeMS: 100 });
  assert.equal((await waitCursor.next()).n, 0);
  for (let i = 0; i < 3; i++) await waitCursor.next();
  const t1 = Date.now();
  assert.equal(await waitCursor.tryNext(), null);
  assert.ok(Date.now() - t1 >= 80, 'waited maxAwaitTimeMS');
  assert.equal(waitCursor.closed, false);
  await waitCursor.close();
  await cursor.close();
  await db.dropDatabase();
});
