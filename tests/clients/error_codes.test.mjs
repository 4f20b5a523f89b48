// MongoDB's error codes where ttldb used to answer 1 InternalError or accept
// bad input (issue 28 item 14; review reliability-3 L2-L5, L9), through the
// real Node driver, and through raw OP_MSG frames for what a driver cannot
// send (duplicate field names). Expected codes and messages are mongod
// 8.0's: src/mongo/db/ops/insert.cpp fixDocumentForInsert (BadValue "Document
// can't have $ prefixed field names", "can't have multiple _id fields in one
// document"), src/mongo/db/storage/storage_validation.cpp (Overflow
// "Document exceeds maximum nesting depth of 100"), src/mongo/db/index/
// index_key_validate.cpp validateIndexSpec (TypeMismatch "The field 'key'
// must be an object"), src/mongo/idl/idl_parser.cpp throwDuplicateField
// (40413) and throwTypeMismatch (14), src/mongo/db/repl/replication_info.cpp
// (hello: 31373 "maxAwaitTimeMS must be a non-negative integer", 31368) and
// src/mongo/bson/util/bson_extract.cpp bsonExtractIntegerField (BadValue for
// a NaN).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { join } from 'node:path';
import { BSON } from 'mongodb';
import { rejectsWithCode, withServerAndClient } from './harness.mjs';

let server;
let client;
withServerAndClient((s, c) => { server = s; client = c; });

const db = () => client.db('codes');


// ---- raw frames ---------------------------------------------------------

// A BSON document from already-encoded elements, so that a name may repeat.
function rawDoc(...elements) {
  const body = Buffer.concat([...elements, Buffer.from([0])]);
  const len = Buffer.alloc(4);
  len.writeInt32LE(body.length + 4);
  return Buffer.concat([len, body]);
}
const cstr = (s) => Buffer.concat([Buffer.from(s, 'utf8'), Buffer.from([0])]);
function int32El(name, v) {
  const b = Buffer.alloc(4);
  b.writeInt32LE(v);
  return Buffer.concat([Buffer.from([0x10]), cstr(name), b]);
}
function strEl(name, s) {
  const len = Buffer.alloc(4);
  len.writeInt32LE(Buffer.byteLength(s) + 1);
  return Buffer.concat([Buffer.from([0x02]), cstr(name), len, cstr(s)]);
}
const docEl = (name, doc) => Buffer.concat([Buffer.from([0x03]), cstr(name), doc]);
const arrEl = (name, doc) => Buffer.concat([Buffer.from([0x04]), cstr(name), doc]);

// Sends one OP_MSG with `doc` as its body and resolves to the decoded reply.
function rawCommand(doc) {
  return new Promise((resolve, reject) => {
    const header = Buffer.alloc(16);
    const flags = Buffer.alloc(4);
    const msg = Buffer.concat([flags, Buffer.from([0]), doc]);
    header.writeInt32LE(16 + msg.length, 0);
    header.writeInt32LE(1, 4);
    header.writeInt32LE(0, 8);
    header.writeInt32LE(2013, 12);
    const sock = net.connect(server.port, '127.0.0.1');
    let got = Buffer.alloc(0);
    sock.on('data', (chunk) => {
      got = Buffer.concat([got, chunk]);
      if (got.length >= 4 && got.length >= got.readInt32LE(0)) {
        sock.destroy();
        resolve(BSON.deserialize(got.subarray(21, got.readInt32LE(0))));
      }
    });
    sock.on('error', reject);
    sock.write(Buffer.concat([header, msg]));
  });
}

// ---- documents ----------------------------------------------------------

test('a top-level $-prefixed field is 2 BadValue', async () => {
  const c = db().collection('dollar');
  await rejectsWithCode(c.insertOne({ $a: 1 }), 2,
                    /^Document can't have \$ prefixed field names: \$a$/);
  assert.equal(await c.countDocuments(), 0);
});

test('nesting over 100 levels is 15 Overflow', async () => {
  const c = db().collection('deep');
  const nest = (n) => { let d = { x: 1 }; for (let i = 1; i < n; ++i) d = { d }; return d; };
  await c.insertOne({ _id: 'ok', d: nest(99) });  // 100 levels with the top
  await rejectsWithCode(c.insertOne({ _id: 'deep', d: nest(100) }), 15,
                    /^Document exceeds maximum nesting depth of 100/);
  assert.deepEqual(await c.distinct('_id'), ['ok']);
});

test('createIndexes with a non-object key is 14 TypeMismatch', async () => {
  await rejectsWithCode(db().command({ createIndexes: 'ix', indexes: [{ key: 1, name: 'k' }] }),
                    14, /^The field 'key' must be an object, but got int$/);
});

test('two _id fields are 2 BadValue; nothing is stored', async () => {
  const r = await rawCommand(rawDoc(
    strEl('insert', 'dupid'),
    arrEl('documents', rawDoc(docEl('0', rawDoc(int32El('_id', 1), int32El('_id', 2),
                                              int32El('a', 1))))),
    strEl('$db', 'codes')));
  assert.equal(r.ok, 1);
  assert.equal(r.n, 0);
  assert.equal(r.writeErrors[0].code, 2);
  assert.equal(r.writeErrors[0].errmsg, "can't have multiple _id fields in one document");
  assert.equal(await db().collection('dupid').countDocuments(), 0);
});

test('a command field given twice is 40413', async () => {
  const r = await rawCommand(rawDoc(
    strEl('find', 'c'), docEl('filter', rawDoc(int32El('a', 1))),
    docEl('filter', rawDoc(int32El('a', 2))), strEl('$db', 'codes')));
  assert.equal(r.ok, 0);
  assert.equal(r.code, 40413);
  assert.equal(r.errmsg, "BSON field 'find.filter' is a duplicate field");
});

// ---- hello --------------------------------------------------------------

test('hello refuses a NaN, negative or lone maxAwaitTimeMS', async () => {
  const hello = await client.db('admin').command({ hello: 1 });
  const tv = hello.topologyVersion;
  await rejectsWithCode(client.db('admin').command(
    { hello: 1, topologyVersion: tv, maxAwaitTimeMS: -1 }), 31373,
  /^maxAwaitTimeMS must be a non-negative integer$/);
  await rejectsWithCode(client.db('admin').command(
    { hello: 1, topologyVersion: tv, maxAwaitTimeMS: NaN }), 2,
  /exactly representable as a 64-bit integer/);
  await rejectsWithCode(client.db('admin').command(
    { hello: 1, topologyVersion: tv, maxAwaitTimeMS: 1.5 }), 2);
  await rejectsWithCode(client.db('admin').command(
    { hello: 1, maxAwaitTimeMS: 10 }), 31368,
  /^A request with 'maxAwaitTimeMS' must include a 'topologyVersion'$/);
  // The driver's own monitoring (awaitable hello with a real
  // topologyVersion) still works: the client above is connected.
  assert.equal((await client.db('admin').command({ ping: 1 })).ok, 1);
});

// ---- wrong-typed arguments ----------------------------------------------

test('wrong-typed let, hint, collation and documents are 14', async () => {
  const d = db();
  await d.collection('t').insertOne({ _id: 1 });
  for (const [cmd, field] of [
    [{ find: 't', let: 1 }, 'find.let'],
    [{ update: 't', updates: [{ q: {}, u: { $set: { a: 1 } } }], let: 'x' }, 'update.let'],
    [{ delete: 't', deletes: [{ q: {}, limit: 0 }], let: [] }, 'delete.let'],
    [{ aggregate: 't', pipeline: [], cursor: {}, hint: 5 }, 'aggregate.hint'],
    [{ aggregate: 't', pipeline: [], cursor: {}, collation: 'x' }, 'aggregate.collation'],
    [{ insert: 't', documents: [{ _id: 2 }, 1, 'a'] }, 'insert.documents.1'],
  ]) {
    await rejectsWithCode(d.command(cmd), 14, new RegExp(`^BSON field '${field.replace('.', '\\.')}' is the wrong type`));
  }
  // Nothing was written by any of them.
  assert.deepEqual(await d.collection('t').find().toArray(), [{ _id: 1 }]);
});

// ---- createBackup -------------------------------------------------------

test('createBackup into the served directory is refused', async () => {
  await db().collection('b').insertOne({ _id: 1 });
  for (const dir of [join(server.dir, 'snap'), server.dir,
                     join(server.dir, 'x', '..', 'snap2')]) {
    await rejectsWithCode(client.db('admin').command({ createBackup: 1, backupDir: dir }),
                      72, /outside the server's data directory/);
  }
  const names = (await client.db('admin').admin().listDatabases()).databases
    .map((x) => x.name);
  assert.ok(!names.includes('snap'), names.join());
});
