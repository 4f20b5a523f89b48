// $setWindowFields (and $densify / $fill) through the Node driver against
// `ttldb serve`. Expected answers: MongoDB's manual pages for
// $setWindowFields (cakeSales examples), $rank, $densify and $fill, cited
// per test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withServerAndClient } from './harness.mjs';

let db;
withServerAndClient(async (s, c) => {
  db = c.db('window');
  // https://www.mongodb.com/docs/manual/reference/operator/aggregation/setWindowFields/
  await db.collection('cakeSales').insertMany([
    { _id: 0, type: 'chocolate', orderDate: new Date('2020-05-18T14:10:30Z'), state: 'CA', price: 13, quantity: 120 },
    { _id: 1, type: 'chocolate', orderDate: new Date('2021-03-20T11:30:05Z'), state: 'WA', price: 14, quantity: 140 },
    { _id: 2, type: 'vanilla', orderDate: new Date('2021-01-11T06:31:15Z'), state: 'CA', price: 12, quantity: 145 },
    { _id: 3, type: 'vanilla', orderDate: new Date('2020-02-08T13:13:23Z'), state: 'WA', price: 13, quantity: 104 },
    { _id: 4, type: 'strawberry', orderDate: new Date('2019-05-18T16:09:01Z'), state: 'CA', price: 41, quantity: 162 },
    { _id: 5, type: 'strawberry', orderDate: new Date('2019-01-08T06:12:03Z'), state: 'WA', price: 43, quantity: 134 },
  ]);
});

test('a running total per state (the manual\'s cumulative quantity)', async () => {
  const out = await db.collection('cakeSales').aggregate([
    { $setWindowFields: {
      partitionBy: '$state', sortBy: { orderDate: 1 },
      output: { total: { $sum: '$quantity', window: { documents: ['unbounded', 'current'] } } },
    } },
    { $project: { _id: 1, total: 1 } },
  ]).toArray();
  assert.deepEqual(out, [
    { _id: 4, total: 162 }, { _id: 0, total: 282 }, { _id: 2, total: 427 },
    { _id: 5, total: 134 }, { _id: 3, total: 238 }, { _id: 1, total: 378 },
  ]);
});

test('a moving average over a time range (range [-1, 0], unit hour)', async () => {
  // A range window holds the documents whose sortBy date lies within
  // [current - 1 hour, current] (manual: "range" with "unit").
  const c = db.collection('temps');
  await c.insertMany([
    { _id: 1, t: new Date('2021-01-01T00:00:00Z'), v: 10 },
    { _id: 2, t: new Date('2021-01-01T01:00:00Z'), v: 20 },
    { _id: 3, t: new Date('2021-01-01T02:30:00Z'), v: 30 },
    { _id: 4, t: new Date('2021-01-01T03:00:00Z'), v: 40 },
  ]);
  const out = await c.aggregate([
    { $setWindowFields: {
      sortBy: { t: 1 },
      output: { avg: { $avg: '$v', window: { range: [-1, 0], unit: 'hour' } } },
    } },
    { $project: { avg: 1 } },
  ]).toArray();
  assert.deepEqual(out, [
    { _id: 1, avg: 10 }, { _id: 2, avg: 15 }, { _id: 3, avg: 30 }, { _id: 4, avg: 35 },
  ]);
});

test('$rank per state by quantity (the manual\'s $rank example)', async () => {
  // https://www.mongodb.com/docs/manual/reference/operator/aggregation/rank/
  const out = await db.collection('cakeSales').aggregate([
    { $setWindowFields: {
      partitionBy: '$state', sortBy: { quantity: -1 },
      output: { rank: { $rank: {} } },
    } },
    { $project: { rank: 1 } },
  ]).toArray();
  assert.deepEqual(out, [
    { _id: 4, rank: 1 }, { _id: 2, rank: 2 }, { _id: 0, rank: 3 },
    { _id: 1, rank: 1 }, { _id: 5, rank: 2 }, { _id: 3, rank: 3 },
  ]);
});

test('errors come with MongoDB\'s codes', async () => {
  // window_bounds.cpp: 5339901 "Document-based bounds require a sortBy".
  await assert.rejects(db.collection('cakeSales').aggregate([
    { $setWindowFields: { output: { x: { $sum: 1, window: { documents: [-1, 0] } } } } },
  ]).toArray(), (e) => e.code === 5339901);
  // ExpressionFromRankAccumulator::parse: 5371602.
  await assert.rejects(db.collection('cakeSales').aggregate([
    { $setWindowFields: { output: { r: { $rank: {} } } } },
  ]).toArray(), (e) => e.code === 5371602);
});
