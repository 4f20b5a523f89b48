// MongoDB 8.0's bulkWrite command (writes across namespaces in one
// command) through the Node driver's client.bulkWrite and as a raw command.
// Expected replies are MongoDB's: src/mongo/db/commands/query_cmd/
// bulk_write.cpp (BulkWriteReplies), bulk_write.idl (BulkWriteCommandReply),
// bulk_write_parser.cpp (BulkWriteReplyItem::serialize) and
// bulk_write_common.cpp (validateRequest); the manual's
// reference/command/bulkWrite/ and Mongo.bulkWrite() pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MongoClientBulkWriteError, MongoServerError }
  from 'mongodb';
import { withServerAndClient } from './harness.mjs';

let server;
let client;
withServerAndClient((s, c) => { server = s; client = c; });

const admin = () => client.db('admin');

test('client.bulkWrite across two databases, verbose results', async () => {
  const r = await client.bulkWrite([
    { namespace: 'shop.orders', name: 'insertOne', document: { _id: 1, qty: 2 } },
    { namespace: 'shop.orders', name: 'insertOne', document: { _id: 2, qty: 5 } },
    { namespace: 'stats.pages', name: 'updateOne', filter: { _id: 'home' },
      update: { $inc: { views: 1 } }, upsert: true },
    { namespace: 'shop.orders', name: 'updateMany', filter: { qty: { $gte: 1 } },
      update: { $set: { seen: true } } },
    { namespace: 'shop.orders', name: 'replaceOne', filter: { _id: 2 },
      replacement: { qty: 6 } },
    { namespace: 'shop.orders', name: 'deleteOne', filter: { _id: 1 } },
    { namespace: 'stats.pages', name: 'deleteMany', filter: { _id: 'none' } },
  ], { verboseResults: true });
  assert.equal(r.insertedCount, 2);
  assert.equal(r.upsertedCount, 1);
  assert.equal(r.matchedCount, 3);
  assert.equal(r.modifiedCount, 3);
  assert.equal(r.deletedCount, 1);
  assert.deepEqual([...r.insertResults], [[0, { insertedId: 1 }],
                                          [1, { insertedId: 2 }]]);
  assert.deepEqual([...r.updateResults], [
    [2, { matchedCount: 1, modifiedCount: 0, didUpsert: true,
          upsertedId: 'home' }],
    [3, { matchedCount: 2, modifiedCount: 2, didUpsert: false }],
    [4, { matchedCount: 1, modifiedCount: 1, didUpsert: false }],
  ]);
  assert.deepEqual([...r.deleteResults], [[5, { deletedCount: 1 }],
                                          [6, { deletedCount: 0 }]]);
  assert.deepEqual(await client.db('shop').collection('orders').find().toArray(),
                   [{ _id: 2, qty: 6 }]);
  assert.deepEqual(await client.db('stats').collection('pages').find().toArray(),
                   [{ _id: 'home', views: 1 }]);
});

test('client.bulkWrite ordered stops at the first error', async () => {
  const c = client.db('ord').collection('c');
  await c.insertOne({ _id: 1 });
  await assert.rejects(client.bulkWrite([
    { namespace: 'ord.c', name: 'insertOne', document: { _id: 2 } },
    { namespace: 'ord.c', name: 'insertOne', document: { _id: 1 } },
    { namespace: 'ord.c', name: 'insertOne', document: { _id: 3 } },
  ]), (e) => {
    assert.ok(e instanceof MongoClientBulkWriteError, String(e));
    assert.deepEqual([...e.writeErrors.keys()], [1]);
    assert.equal(e.writeErrors.get(1).code, 11000);
    assert.match(e.writeErrors.get(1).message,
                 /^E11000 duplicate key error collection: ord\.c index: _id_ dup key: \{ _id: 1 \}/);
    assert.equal(e.partialResult.insertedCount, 1);
    return true;
  });
  assert.deepEqual((await c.find().toArray()).map((d) => d._id), [1, 2]);
});

test('client.bulkWrite unordered runs every op and reports each error',
     async () => {
  const c = client.db('unord').collection('c');
  await c.insertOne({ _id: 1 });
  await assert.rejects(client.bulkWrite([
    { namespace: 'unord.c', name: 'insertOne', document: { _id: 1 } },
    { namespace: 'unord.c', name: 'insertOne', document: { _id: 2 } },
    { namespace: 'unord.c', name: 'updateOne', filter: { _id: 2 },
      update: { $set: { _id: 9 } } },
    { namespace: 'unord.c', name: 'insertOne', document: { _id: 3 } },
  ], { ordered: false }), (e) => {
    assert.ok(e instanceof MongoClientBulkWriteError, String(e));
    assert.deepEqual([...e.writeErrors.keys()].sort(), [0, 2]);
    assert.equal(e.writeErrors.get(0).code, 11000);
    assert.equal(e.writeErrors.get(2).code, 66);
    assert.equal(e.partialResult.insertedCount, 2);
    return true;
  });
  assert.deepEqual((await c.find().toArray()).map((d) => d._id), [1, 2, 3]);
});

test('the raw reply: cursor of per-op results and the totals', async () => {
  await client.db('raw').collection('c').insertOne({ _id: 0 });
  const reply = await admin().command({
    bulkWrite: 1,
    ops: [
      { insert: 0, document: { _id: 1 } },
      { update: 0, filter: { _id: 1 }, updateMods: { $set: { a: 1 } } },
      { update: 1, filter: { k: 'x' }, updateMods: { $set: { v: 1 } },
        upsert: true },
      { insert: 0, document: { _id: 0 } },
      { delete: 0, filter: {}, multi: true },
    ],
    nsInfo: [{ ns: 'raw.c' }, { ns: 'raw.d' }],
    ordered: false,
  }, { useBigInt64: true });
  const upsertedId = reply.cursor.firstBatch[2].upserted._id;
  assert.deepEqual(reply, {
    cursor: {
      id: 0n,
      firstBatch: [
        { ok: 1, idx: 0, n: 1 },
        { ok: 1, idx: 1, n: 1, nModified: 1 },
        { ok: 1, idx: 2, n: 1, nModified: 0, upserted: { _id: upsertedId } },
        { ok: 0, idx: 3, code: 11000,
          errmsg: 'E11000 duplicate key error collection: raw.c index: _id_ dup key: { _id: 0 }',
          keyPattern: { _id: 1 }, keyValue: { _id: 0 }, n: 0 },
        { ok: 1, idx: 4, n: 2 },
      ],
      ns: 'admin.$cmd.bulkWrite',
    },
    nErrors: 1, nInserted: 1, nMatched: 1, nModified: 1, nUpserted: 1,
    nDeleted: 2, ok: 1,
  });
});

test('errorsOnly and cursor.batchSize', async () => {
  const ops = [
    { insert: 0, document: { _id: 1 } },
    { insert: 0, document: { _id: 1 } },
    { insert: 0, document: { _id: 2 } },
  ];
  const only = await admin().command({
    bulkWrite: 1, ops, nsInfo: [{ ns: 'eo.c' }], ordered: false,
    errorsOnly: true,
  });
  assert.deepEqual(only.cursor.firstBatch.map((i) => [i.ok, i.idx, i.code]),
                   [[0, 1, 11000]]);
  assert.equal(only.nInserted, 2);
  assert.equal(only.nErrors, 1);
  // One result per batch: the rest over getMore on admin.$cmd.bulkWrite.
  const first = await admin().command({
    bulkWrite: 1, ops: [{ delete: 0, filter: { _id: 1 } },
                        { delete: 0, filter: { _id: 2 } }],
    nsInfo: [{ ns: 'eo.c' }], cursor: { batchSize: 1 },
  }, { useBigInt64: true });
  assert.deepEqual(first.cursor.firstBatch, [{ ok: 1, idx: 0, n: 1 }]);
  assert.notEqual(first.cursor.id, 0n);
  const more = await admin().command({
    getMore: first.cursor.id, collection: '$cmd.bulkWrite' },
  { useBigInt64: true });
  assert.deepEqual(more.cursor.nextBatch, [{ ok: 1, idx: 1, n: 1 }]);
  assert.equal(more.cursor.id, 0n);
});

test('request errors', async () => {
  const expect = async (cmd, code, message, db = admin()) => {
    await assert.rejects(db.command(cmd), (e) => {
      assert.ok(e instanceof MongoServerError, String(e));
      assert.equal(e.code, code, e.message);
      assert.equal(e.message, message);
      return true;
    });
  };
  const ops = [{ insert: 0, document: {} }];
  await expect({ bulkWrite: 1, ops, nsInfo: [{ ns: 'x.c' }] }, 13,
               'bulkWrite may only be run against the admin database.',
               client.db('x'));
  await expect({ bulkWrite: 1, ops: [], nsInfo: [{ ns: 'x.c' }] }, 16,
               'Write batch sizes must be between 1 and 100000. Got 0 operations.');
  await expect({ bulkWrite: 1, ops: [{ insert: 1, document: {} }],
                 nsInfo: [{ ns: 'x.c' }] }, 2,
               'BulkWrite ops entry { insert: 1, document: {} } has an invalid nsInfo index.');
  await expect({ bulkWrite: 1, ops, nsInfo: [{ ns: 'nodot' }] }, 73,
               "Invalid namespace specified for bulkWrite: 'nodot'");
  // Nothing was written by the refused requests.
  assert.deepEqual(await client.db('x').listCollections().toArray(), []);
});
