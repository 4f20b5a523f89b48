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

test('$densify of hourly dates (the manual\'s weather example)', async () => {
  // https://www.mongodb.com/docs/manual/reference/operator/aggregation/densify/
  // The upper bound is exclusive; generated documents hold only the field.
  const c = db.collection('weather');
  const at = (h) => new Date(`2021-05-18T${String(h).padStart(2, '0')}:00:00Z`);
  await c.insertMany([0, 4, 8, 12].map((h, i) => ({ _id: i + 1, timestamp: at(h), temp: 11 })));
  const out = await c.aggregate([
    { $densify: { field: 'timestamp', range: { step: 1, unit: 'hour', bounds: [at(0), at(8)] } } },
    { $project: { _id: 1, timestamp: 1 } },
  ]).toArray();
  assert.deepEqual(out, [
    { _id: 1, timestamp: at(0) }, { timestamp: at(1) }, { timestamp: at(2) }, { timestamp: at(3) },
    { _id: 2, timestamp: at(4) }, { timestamp: at(5) }, { timestamp: at(6) }, { timestamp: at(7) },
    { _id: 3, timestamp: at(8) }, { _id: 4, timestamp: at(12) },
  ]);
  // internalQueryMaxAllowedDensifyDocs (500,000): 5897900.
  await assert.rejects(c.aggregate([
    { $densify: { field: 'n', range: { step: 1, bounds: [0, 1000000] } } },
  ]).toArray(), (e) => e.code === 5897900);
});

test('$fill with locf and linear (the manual\'s $fill examples)', async () => {
  // https://www.mongodb.com/docs/manual/reference/operator/aggregation/fill/
  const c = db.collection('stock');
  const at = (h) => new Date(`2021-03-08T${String(h).padStart(2, '0')}:00:00Z`);
  await c.insertMany([
    { _id: 1, time: at(9), price: 500 }, { _id: 2, time: at(10) },
    { _id: 3, time: at(11), price: 515 }, { _id: 4, time: at(12) },
    { _id: 5, time: at(13) }, { _id: 6, time: at(14), price: 560 },
  ]);
  const run = (method) => c.aggregate([
    { $fill: { sortBy: { time: 1 }, output: { price: { method } } } },
    { $project: { price: 1 } },
  ]).toArray();
  assert.deepEqual((await run('linear')).map((d) => d.price), [500, 507.5, 515, 530, 545, 560]);
  assert.deepEqual((await run('locf')).map((d) => d.price), [500, 500, 515, 515, 515, 560]);
});
