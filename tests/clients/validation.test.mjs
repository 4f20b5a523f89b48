// Schema validation through the Node driver: createCollection with a
// validator, the 121 DocumentValidationFailure write error and its errInfo
// (MongoDB 5.0+), collMod, listCollections' options and
// bypassDocumentValidation. Expected answers: MongoDB's
// jstests/core/doc_validation/doc_validation_options.js (errInfo of {a: 1}
// on {a: 2}), doc_validation_error.js ("Contacts 2": a $jsonSchema's
// properties and required), bypass_doc_validation.js, and the manual's
// core/schema-validation/ pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MongoBulkWriteError, MongoServerError } from 'mongodb';
import { withServerAndClient } from './harness.mjs';

let client;
withServerAndClient((s, c) => { client = c; });

test('insert fails with 121 and errInfo; collMod changes the rules', async () => {
  const db = client.db('validation');
  await db.createCollection('t', { validator: { a: 1 } });
  const t = db.collection('t');
  await assert.rejects(t.insertOne({ _id: 1, a: 2 }), (e) => {
    assert.ok(e instanceof MongoServerError);
    assert.equal(e.code, 121);
    assert.equal(e.errmsg, 'Document failed validation');
    assert.deepEqual(e.errInfo, {
      failingDocumentId: 1,
      details: { operatorName: '$eq', specifiedAs: { a: 1 },
                 reason: 'comparison failed', consideredValue: 2 },
    });
    return true;
  });
  await t.insertOne({ _id: 1, a: 1 });
  await assert.rejects(t.updateOne({}, { $set: { a: 2 } }), { code: 121 });
  const infos = await db.listCollections({ name: 't' }).toArray();
  assert.deepEqual(infos[0].options, {
    validator: { a: 1 }, validationLevel: 'strict', validationAction: 'error',
  });
  // warn: the write goes through.
  await db.command({ collMod: 't', validationAction: 'warn' });
  await t.updateOne({}, { $set: { a: 2 } });
  assert.equal(await t.countDocuments({ a: 2 }), 1);
  const log = await client.db('admin').command({ getLog: 'global' });
  assert.ok(log.log.some((l) => JSON.parse(l).id === 20294), 'warning 20294');
  // moderate: an invalid document may be updated, a valid one stays valid.
  await db.command({ collMod: 't', validationAction: 'error',
                     validationLevel: 'moderate' });
  await t.updateOne({ _id: 1 }, { $set: { a: 3 } });
  await t.insertOne({ _id: 2, a: 1 });
  await assert.rejects(t.updateOne({ _id: 2 }, { $set: { a: 4 } }),
                       { code: 121 });
  // validator {} removes it.
  await db.command({ collMod: 't', validator: {}, validationLevel: 'strict' });
  await t.insertOne({ _id: 3, a: 'anything' });
  await db.dropDatabase();
});

test('$jsonSchema errInfo, bulk writes and bypassDocumentValidation', async () => {
  const db = client.db('validation');
  await db.createCollection('contacts', { validator: { $jsonSchema: {
    bsonType: 'object', required: ['phone'],
    properties: {
      phone: { bsonType: 'string', description: 'must be a string and is required' },
      status: { enum: ['Unknown', 'Incomplete'],
                description: 'can only be one of the enum values' },
    },
  } } });
  const c = db.collection('contacts');
  await assert.rejects(
    c.insertMany([{ _id: 1, phone: '1' },
                  { _id: 2, email: 'info@mongodb.com', status: 'Complete' }]),
    (e) => {
      assert.ok(e instanceof MongoBulkWriteError);
      assert.equal(e.insertedCount, 1);
      assert.equal(e.writeErrors.length, 1);
      const err = e.writeErrors[0];
      assert.equal(err.code, 121);
      assert.equal(err.index, 1);
      assert.deepEqual(err.errInfo, {
        failingDocumentId: 2,
        details: {
          operatorName: '$jsonSchema',
          schemaRulesNotSatisfied: [
            { operatorName: 'properties', propertiesNotSatisfied: [{
              propertyName: 'status',
              description: 'can only be one of the enum values',
              details: [{ operatorName: 'enum',
                          specifiedAs: { enum: ['Unknown', 'Incomplete'] },
                          reason: 'value was not found in enum',
                          consideredValue: 'Complete' }] }] },
            { operatorName: 'required', specifiedAs: { required: ['phone'] },
              missingProperties: ['phone'] },
          ],
        },
      });
      return true;
    });
  await c.insertOne({ _id: 3 }, { bypassDocumentValidation: true });
  await c.updateOne({ _id: 3 }, { $set: { status: 'x' } },
                    { bypassDocumentValidation: true });
  await c.findOneAndUpdate({ _id: 3 }, { $set: { n: 1 } },
                           { bypassDocumentValidation: true });
  await assert.rejects(c.findOneAndUpdate({ _id: 1 }, { $set: { phone: 5 } }),
                       { code: 121 });
  // $out into a validated collection: refused unless bypassed.
  await db.createCollection('out', { validator: { a: { $exists: true } } });
  await assert.rejects(
    c.aggregate([{ $match: { _id: 3 } }, { $merge: { into: 'out' } }]).toArray(),
    { code: 121 });
  await c.aggregate([{ $match: { _id: 3 } }, { $merge: { into: 'out' } }],
                    { bypassDocumentValidation: true }).toArray();
  assert.equal(await db.collection('out').countDocuments(), 1);
  // $jsonSchema is a query operator too.
  assert.deepEqual(
    await c.find({ $jsonSchema: { required: ['phone'] } }).toArray(),
    [{ _id: 1, phone: '1' }]);
  await assert.rejects(db.createCollection('bad', { validator: { $where: '1' } }),
                       { code: 224 });
  await assert.rejects(
    db.createCollection('bad', { validator: { $jsonSchema: { invalid: 1 } } }),
    { code: 9 });
  await db.dropDatabase();
});
