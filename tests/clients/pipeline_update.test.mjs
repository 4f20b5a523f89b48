// Pipeline-style updates (MongoDB 4.2+) through the official Node driver:
// updateOne/updateMany/findOneAndUpdate/bulkWrite with an array of stages,
// upserts with a pipeline, and the server's errors for what a pipeline
// update may not hold. Expected answers from
// jstests/core/write/update/update_with_pipeline.js and
// jstests/core/write/update/update_pipeline_shell_helpers.js (the same
// calls through the shell's helpers), and the manual's "Updates with
// Aggregation Pipeline" (tutorial/update-documents-with-aggregation-pipeline).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rejectsWithCode, withServerAndClient } from './harness.mjs';

let client;
withServerAndClient((s, c) => { client = c; });

const coll = (name) => client.db('pipe').collection(name);

test('updateOne / updateMany / bulkWrite with a pipeline', async () => {
  const c = coll('helpers');
  await c.insertMany([{ _id: 1, a: 1, b: 2 }, { _id: 2, a: 2, b: 3 }]);
  let r = await c.updateOne({ _id: 1 }, [{ $set: { updateOne: true } }]);
  assert.equal(r.matchedCount, 1);
  assert.equal(r.modifiedCount, 1);
  r = await c.updateMany({}, [{ $set: { total: { $add: ['$a', '$b'] } } }]);
  assert.equal(r.modifiedCount, 2);
  const b = await c.bulkWrite([
    { updateOne: { filter: { _id: 1 }, update: [{ $set: { bulkOne: true } }] } },
    { updateMany: { filter: {}, update: [{ $unset: 'b' }] } },
  ]);
  assert.equal(b.matchedCount, 3);
  assert.equal(b.modifiedCount, 3);
  assert.deepEqual(await c.find().sort({ _id: 1 }).toArray(), [
    { _id: 1, a: 1, updateOne: true, total: 3, bulkOne: true },
    { _id: 2, a: 2, total: 5 },
  ]);
});

test('findOneAndUpdate with a pipeline returns the new document', async () => {
  const c = coll('fam');
  await c.insertOne({ _id: 1, scores: [8, 6, 10] });
  const doc = await c.findOneAndUpdate(
    { _id: 1 },
    [{ $set: { avg: { $avg: '$scores' } } }, { $project: { scores: 0 } }],
    { returnDocument: 'after' });
  assert.deepEqual(doc, { _id: 1, avg: 8 });
});

test('upsert with a pipeline runs on the query document', async () => {
  const c = coll('upsert');
  // update_with_pipeline.js testUpsertDoesInsert.
  let r = await c.updateOne({ _id: 1, x: 1 }, [{ $set: { foo: 4 } }],
                            { upsert: true });
  assert.equal(r.upsertedCount, 1);
  assert.equal(r.upsertedId, 1);
  assert.deepEqual(await c.findOne({ _id: 1 }), { _id: 1, x: 1, foo: 4 });
  r = await c.updateOne({ _id: 2, x: 1, y: 1 }, [{ $unset: ['x'] }],
                        { upsert: true });
  assert.deepEqual(await c.findOne({ _id: 2 }), { _id: 2, y: 1 });
  // The same statement again matches and changes nothing.
  r = await c.updateOne({ _id: 2, y: 1 }, [{ $unset: ['x'] }], { upsert: true });
  assert.equal(r.matchedCount, 1);
  assert.equal(r.modifiedCount, 0);
  const doc = await c.findOneAndUpdate(
    { _id: 3 }, [{ $set: { n: { $literal: '$n' } } }],
    { upsert: true, returnDocument: 'after' });
  assert.deepEqual(doc, { _id: 3, n: '$n' });
});

test('let variables and the errors of a pipeline update', async () => {
  const c = coll('errors');
  await c.insertOne({ _id: 1, x: 1 });
  await c.updateOne({ _id: 1 }, [{ $set: { v: '$$v' } }], { let: { v: 'let' } });
  assert.deepEqual(await c.findOne(), { _id: 1, x: 1, v: 'let' });
  // update_with_pipeline.js: stages other than the document transformations
  // are 72 InvalidOptions; arrayFilters with a pipeline is 9 FailedToParse.
  await rejectsWithCode(c.updateOne({ x: 1 }, [{ $match: { x: 1 } }]), 72,
                        /\$match is not allowed to be used within an update/);
  await rejectsWithCode(
    c.updateOne({ _id: 1 }, [{ $set: { x: 2 } }],
                { arrayFilters: [{ 'i.a': 1 }] }),
    9, /arrayFilters may not be specified for pipeline-style updates/);
  // The _id is immutable (object_replace_executor.cpp, 66).
  await rejectsWithCode(c.updateOne({ _id: 1 }, [{ $set: { _id: 2 } }]), 66);
  assert.deepEqual(await c.findOne(), { _id: 1, x: 1, v: 'let' });
});
