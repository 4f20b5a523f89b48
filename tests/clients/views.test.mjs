// Views and hashed indexes through the Node driver: createCollection with
// viewOn and pipeline, find / aggregate / countDocuments / distinct through
// the view, a write refused with 166 CommandNotSupportedOnView, the view
// in listCollections; a hashed index that an equality query uses per
// explain. Expected answers: MongoDB's jstests/core/views/views_basic.js,
// views_creation.js (the listCollections entry), views_all_commands.js
// (166 on writes), jstests/core/index/hashed/hashed_index_queries.js and
// src/mongo/db/hasher_test.cpp (the hash of 1: 5902408780260971510).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withServerAndClient } from './harness.mjs';

let client;
withServerAndClient((s, c) => { client = c; });

test('views: created with viewOn, read by find/aggregate/count/distinct', async () => {
  const db = client.db('views');
  const cities = db.collection('cities');
  await cities.insertMany([
    { _id: 'New York', state: 'NY', pop: 7 },
    { _id: 'Oakland', state: 'CA', pop: 3 },
    { _id: 'Palo Alto', state: 'CA', pop: 10 },
    { _id: 'San Francisco', state: 'CA', pop: 4 },
    { _id: 'Trenton', state: 'NJ', pop: 5 },
  ]);
  const ca = await db.createCollection('californiaCities',
    { viewOn: 'cities', pipeline: [{ $match: { state: 'CA' } }] });
  assert.deepEqual(
    await ca.find({}, { projection: { _id: 1, pop: 1 } }).sort({ _id: 1 }).toArray(),
    [{ _id: 'Oakland', pop: 3 }, { _id: 'Palo Alto', pop: 10 },
      { _id: 'San Francisco', pop: 4 }]);
  assert.deepEqual(
    await ca.aggregate([{ $group: { _id: '$state', totalPop: { $sum: '$pop' } } }]).toArray(),
    [{ _id: 'CA', totalPop: 17 }]);
  assert.equal(await ca.countDocuments({ pop: { $gt: 3 } }), 2);
  assert.deepEqual((await ca.distinct('pop')).sort((a, b) => a - b), [3, 4, 10]);
  // A view on the view, through a small batch size (getMore).
  const big = await db.createCollection('bigCalifornia',
    { viewOn: 'californiaCities', pipeline: [{ $match: { pop: { $gte: 4 } } }] });
  assert.deepEqual(
    (await big.find({}, { batchSize: 1 }).sort({ pop: -1 }).toArray()).map((d) => d._id),
    ['Palo Alto', 'San Francisco']);
  const [info] = await db.listCollections({ name: 'californiaCities' }).toArray();
  assert.deepEqual(info, {
    name: 'californiaCities', type: 'view',
    options: { viewOn: 'cities', pipeline: [{ $match: { state: 'CA' } }] },
    info: { readOnly: true },
  });
  await assert.rejects(ca.insertOne({ _id: 'Fresno' }), { code: 166 });
  await assert.rejects(ca.updateOne({}, { $set: { x: 1 } }), { code: 166 });
  assert.equal(await cities.countDocuments(), 5);
  await db.dropDatabase();
});

test('hashed index: equality uses it, with the hash as its bounds', async () => {
  const db = client.db('views');
  const c = db.collection('hashed');
  await c.insertMany([...Array(20).keys()].map((i) => ({ _id: i, a: i })));
  assert.equal(await c.createIndex({ a: 'hashed' }), 'a_hashed');
  const plan = await c.find({ a: 1 }).explain();
  const ixscan = plan.queryPlanner.winningPlan;
  assert.equal(ixscan.stage, 'IXSCAN');
  assert.deepEqual(ixscan.keyPattern, { a: 'hashed' });
  assert.deepEqual(ixscan.indexBounds,
    { a: ['[5902408780260971510, 5902408780260971510]'] });
  assert.deepEqual(await c.find({ a: 1 }).toArray(), [{ _id: 1, a: 1 }]);
  const range = await c.find({ a: { $gt: 15 } }).explain();
  assert.equal(range.queryPlanner.winningPlan.stage, 'COLLSCAN');
  await assert.rejects(c.insertOne({ a: [1, 2] }), { code: 16766 });
  await db.dropDatabase();
});
