// Collations through the official Node driver (issue 34, item 2): the
// case-insensitive unique index applications use most, find with a
// collation and a sort, numericOrdering, and a collection's default
// collation. Expected answers: the manual's "Case-Insensitive Indexes"
// (https://www.mongodb.com/docs/manual/core/index-case-insensitive/: an
// index with {locale, strength: 2} is used by queries with the same
// collation, a unique one refuses a value differing only in case with
// E11000) and "Collation" (reference/collation/: numericOrdering sorts "10"
// after "2"), and jstests/core/query/collation/collation.js (listIndexes
// and listCollections show the resolved spec; operations inherit the
// collection's default; {locale: "simple"} overrides it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withServerAndClient, rejectsWithCode } from './harness.mjs';

let client;
withServerAndClient((s, c) => { client = c; });
const db = () => client.db('collation');
const ci = { locale: 'en', strength: 2 };

test('a case-insensitive unique index refuses "ABC" after "abc"', async () => {
  const users = db().collection('users');
  await users.createIndex({ email: 1 }, { unique: true, collation: ci });
  await users.insertOne({ email: 'ann@example.com' });
  await rejectsWithCode(users.insertOne({ email: 'ANN@example.com' }), 11000);
  const indexes = await users.indexes();
  const email = indexes.find((i) => i.name === 'email_1');
  assert.equal(email.collation.locale, 'en');
  assert.equal(email.collation.strength, 2);
  assert.equal(email.collation.version, '57.1');
  // Found through the index with the same collation.
  const found = await users.find({ email: 'Ann@Example.com' })
    .collation(ci).toArray();
  assert.deepEqual(found.map((d) => d.email), ['ann@example.com']);
  const plan = await users.find({ email: 'Ann@Example.com' })
    .collation(ci).explain();
  assert.match(JSON.stringify(plan.queryPlanner.winningPlan), /email_1/);
  // Without the collation: the binary comparison, and no match.
  assert.equal(await users.countDocuments({ email: 'Ann@Example.com' }), 0);
  assert.equal(
    await users.countDocuments({ email: 'Ann@Example.com' }, { collation: ci }),
    1);
});

test('find with a collation and a sort; numericOrdering', async () => {
  const c = db().collection('names');
  await c.insertMany([{ n: 'b' }, { n: 'B' }, { n: 'a' }, { n: 'A' },
    { n: '10' }, { n: '2' }]);
  const binary = await c.find({}, { projection: { _id: 0 } })
    .sort({ n: 1 }).toArray();
  assert.deepEqual(binary.map((d) => d.n), ['10', '2', 'A', 'B', 'a', 'b']);
  const en = await c.find({ n: { $in: ['a', 'b'] } })
    .collation(ci).sort({ n: 1, _id: 1 }).toArray();
  assert.deepEqual(en.map((d) => d.n), ['a', 'A', 'b', 'B']);
  const numeric = await c.find({ n: { $lt: 'a' } })
    .collation({ locale: 'en', numericOrdering: true }).sort({ n: 1 })
    .toArray();
  assert.deepEqual(numeric.map((d) => d.n), ['2', '10']);
  const agg = await c.aggregate(
    [{ $match: { n: 'a' } }, { $sort: { n: -1 } }], { collation: ci })
    .toArray();
  assert.equal(agg.length, 2);
  const deleted = await c.deleteMany({ n: 'B' }, { collation: ci });
  assert.equal(deleted.deletedCount, 2);
  await rejectsWithCode(c.find({}).collation({ locale: 'no_such' }).toArray(),
    2);
});

test('a collection default collation is inherited; simple overrides',
  async () => {
    await db().createCollection('tags', { collation: ci });
    const [info] = await db().listCollections({ name: 'tags' }).toArray();
    assert.equal(info.options.collation.strength, 2);
    const tags = db().collection('tags');
    await tags.createIndex({ tag: 1 }, { unique: true });
    await tags.insertOne({ tag: 'Red' });
    await rejectsWithCode(tags.insertOne({ tag: 'RED' }), 11000);
    assert.equal(await tags.countDocuments({ tag: 'red' }), 1);
    assert.equal(
      await tags.countDocuments({ tag: 'red' },
        { collation: { locale: 'simple' } }),
      0);
    const r = await tags.updateOne({ tag: 'rEd' }, { $set: { n: 1 } });
    assert.equal(r.modifiedCount, 1);
    assert.deepEqual(await tags.distinct('tag'), ['Red']);
  });
