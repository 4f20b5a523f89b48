// Concurrent upserts of one document through the Node driver (issue 33,
// item 1). MongoDB retries an upsert whose insert lost the race to another
// upsert of the same document when the duplicate key is on the filter's
// equality fields (src/mongo/db/ops/write_ops_exec.cpp,
// shouldRetryDuplicateKeyException; jstests/noPassthrough/
// upsert_duplicate_key_retry.js), so no client sees E11000 and the
// counter counts every request.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { MongoClient } from 'mongodb';
import { startServer } from './harness.mjs';

let server;
let client;

before(async () => {
  server = await startServer();
  // One connection per concurrent request (the pool opens them on demand).
  client = new MongoClient(server.uri, { maxPoolSize: 50,
                                         serverSelectionTimeoutMS: 10000 });
  await client.connect();
});

after(async () => {
  await client?.close();
  if (server) assert.equal(await server.stop(), 0, 'clean shutdown');
});

// Runs `n` calls of `op(i)` at once; resolves to the errors.
async function concurrently(n, op) {
  const settled = await Promise.allSettled(
    Array.from({ length: n }, (_, i) => op(i)));
  return settled.filter((s) => s.status === 'rejected').map((s) => s.reason);
}

test('40 concurrent $inc upserts of one _id on a new collection', async () => {
  // The page-view counter, three times on fresh collections.
  for (let round = 0; round < 3; ++round) {
    const c = client.db('app').collection(`hits${round}`);
    const results = [];
    const errors = await concurrently(40, async () => {
      results.push(await c.updateOne({ _id: 'page' }, { $inc: { n: 1 } },
                                     { upsert: true }));
    });
    assert.deepEqual(errors, []);
    assert.deepEqual(await c.find().toArray(), [{ _id: 'page', n: 40 }]);
    assert.equal(results.filter((r) => r.upsertedCount === 1).length, 1);
    assert.equal(results.filter((r) => r.matchedCount === 1 &&
                                       r.modifiedCount === 1).length, 39);
  }
});

test('concurrent upserts of one unique key on an existing collection',
     async () => {
  // keyv's set(): updateOne({key: {$eq: k}}, {$set}, {upsert: true}) with a
  // unique index on key; and replaceOne the same way.
  const c = client.db('cache').collection('fill');
  await c.createIndex({ key: 1 }, { unique: true });
  await c.insertOne({ key: 'seed', value: 0 });
  for (let round = 0; round < 5; ++round) {
    const errors = await concurrently(40, (i) => (i % 2 === 0
      ? c.updateOne({ key: { $eq: `k${round}` } }, { $set: { value: i } },
                    { upsert: true })
      : c.replaceOne({ key: `k${round}` }, { key: `k${round}`, value: i },
                     { upsert: true })));
    assert.deepEqual(errors, []);
    assert.equal(await c.countDocuments({ key: `k${round}` }), 1);
  }
  assert.equal(await c.countDocuments(), 6);
});

test('40 concurrent findOneAndUpdate upserts of one _id', async () => {
  const c = client.db('app').collection('ticks');
  const errors = await concurrently(40, () => c.findOneAndUpdate(
    { _id: 'tick' }, { $inc: { n: 1 } },
    { upsert: true, returnDocument: 'after' }));
  assert.deepEqual(errors, []);
  assert.deepEqual(await c.find().toArray(), [{ _id: 'tick', n: 40 }]);
});

test('a duplicate the filter does not name is still E11000', async () => {
  // As MongoDB: the update sets the unique email; the filter asks for _id.
  const c = client.db('app').collection('users');
  await c.createIndex({ email: 1 }, { unique: true });
  await c.insertOne({ _id: 1, email: 'a@x' });
  await assert.rejects(
    c.updateOne({ _id: 2 }, { $set: { email: 'a@x' } }, { upsert: true }),
    (e) => {
      assert.equal(e.code, 11000);
      assert.deepEqual(e.errorResponse?.keyPattern ?? e.keyPattern,
                       { email: 1 });
      assert.match(e.message, /E11000 duplicate key error collection: app\.users index: email_1 dup key: \{ email: "a@x" \}/);
      return true;
    });
  assert.deepEqual(await c.find().toArray(), [{ _id: 1, email: 'a@x' }]);
});
