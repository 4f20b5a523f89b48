// The benchmark through the official driver (docs/BENCHMARKS.md, "Through
// the wire protocol"): single-document insertOne, findOne by _id, and a
// touch (updateOne $set accessTime, under a TTL index on accessTime), over
// 1 and 16 connections, against `ttldb serve`. Not a test: run with
//   TTLDB_BIN=.bazel/out/k8-opt/bin/tools/ttldb node tests/clients/bench.mjs [docs] [ops]
import { MongoClient } from 'mongodb';
import { startServer } from './harness.mjs';

const DOCS = Number(process.argv[2] || 20000);
const OPS = Number(process.argv[3] || 20000);
const PAD = 'x'.repeat(200);  // about 256 B documents, as the in-process bench

async function timed(label, connections, total, fn) {
  const clients = [];
  for (let i = 0; i < connections; ++i) {
    const c = new MongoClient(process.env.URI, { maxPoolSize: 1 });
    await c.connect();
    clients.push(c);
  }
  const start = process.hrtime.bigint();
  await Promise.all(clients.map(async (client, w) => {
    const coll = client.db('bench').collection('c');
    for (let i = w; i < total; i += connections) await fn(coll, i);
  }));
  const secs = Number(process.hrtime.bigint() - start) / 1e9;
  await Promise.all(clients.map((c) => c.close()));
  console.log(`| ${label} | ${connections} | ${total} | ${Math.round(total / secs)} |`);
}

const server = await startServer(['--quiet']);
process.env.URI = server.uri;
const setup = new MongoClient(server.uri);
await setup.connect();
try {
  for (const conns of [1, 16]) {
    await setup.db('bench').dropDatabase();
    await setup.db('bench').collection('c').createIndex(
      { accessTime: 1 }, { expireAfterSeconds: 3600 });
    console.log(`\n| operation | connections | operations | ops/s |\n|---|---|---|---|`);
    await timed('insertOne', conns, DOCS, (c, i) =>
      c.insertOne({ _id: i, pad: PAD, accessTime: new Date() }));
    await timed('findOne by _id', conns, OPS, (c, i) =>
      c.findOne({ _id: (i * 7919) % DOCS }));
    await timed('touch (updateOne $set accessTime)', conns, OPS, (c, i) =>
      c.updateOne({ _id: (i * 7919) % DOCS }, { $set: { accessTime: new Date() } }));
  }
} finally {
  await setup.close();
  process.exitCode = await server.stop();
  process.exit();
}
