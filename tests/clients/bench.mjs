// The benchmark through the official driver (docs/benchmarks-history.md,
// "Through the wire protocol"; the latest figures in docs/BENCHMARKS.md):
// single-document insertOne, findOne by _id, and a touch (updateOne $set
// accessTime, under a TTL index on accessTime), over
// 1 and 16 connections, against `ttldb serve`; plus `ping`, the floor: a
// round trip through the driver and the server that does no database work.
// Each figure is the median of RUNS runs. Not a test: run with
//   TTLDB_BIN=.bazel/out/k8-opt/bin/tools/ttldb \
//     node tests/clients/bench.mjs [docs] [ops] [runs]
import { MongoClient } from 'mongodb';
import { startServer } from './harness.mjs';

const DOCS = Number(process.argv[2] || 20000);
const OPS = Number(process.argv[3] || 20000);
const RUNS = Number(process.argv[4] || 3);
const PAD = 'x'.repeat(200);  // about 256 B documents, as the in-process bench

async function timed(clients, total, fn) {
  const connections = clients.length;
  const start = process.hrtime.bigint();
  await Promise.all(clients.map(async (client, w) => {
    const coll = client.db('bench').collection('c');
    for (let i = w; i < total; i += connections) await fn(coll, i, client);
  }));
  const secs = Number(process.hrtime.bigint() - start) / 1e9;
  return Math.round(total / secs);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = await startServer(['--quiet']);
const setup = new MongoClient(server.uri);
await setup.connect();
try {
  console.log(`docs ${DOCS}, ops ${OPS}, median of ${RUNS} runs`);
  console.log('\n| operation | connections | ops/s (median) | runs |\n|---|---|---|---|');
  for (const conns of [1, 16]) {
    const clients = [];
    for (let i = 0; i < conns; ++i) {
      const c = new MongoClient(server.uri, { maxPoolSize: 1 });
      await c.connect();
      clients.push(c);
    }
    const results = { ping: [], insertOne: [], findOne: [], touch: [] };
    for (let run = 0; run < RUNS; ++run) {
      await setup.db('bench').dropDatabase();
      await setup.db('bench').collection('c').createIndex(
        { accessTime: 1 }, { expireAfterSeconds: 3600 });
      results.ping.push(await timed(clients, OPS, (c, i, client) =>
        client.db('admin').command({ ping: 1 })));
      results.insertOne.push(await timed(clients, DOCS, (c, i) =>
        c.insertOne({ _id: i, pad: PAD, accessTime: new Date() })));
      results.findOne.push(await timed(clients, OPS, (c, i) =>
        c.findOne({ _id: (i * 7919) % DOCS })));
      results.touch.push(await timed(clients, OPS, (c, i) =>
        c.updateOne({ _id: (i * 7919) % DOCS },
                    { $set: { accessTime: new Date() } })));
    }
    const labels = {
      ping: 'ping (round-trip floor)',
      insertOne: 'insertOne',
      findOne: 'findOne by _id',
      touch: 'touch (updateOne $set accessTime)',
    };
    for (const [k, v] of Object.entries(results)) {
      console.log(`| ${labels[k]} | ${conns} | ${median(v)} | ${v.join(', ')} |`);
    }
    await Promise.all(clients.map((c) => c.close()));
  }
} finally {
  await setup.close();
  process.exitCode = await server.stop();
  process.exit();
}
