// The attackers of hostile_load.test.mjs, run as a process of their own so
// that their work never delays the well-behaved client's event loop (only the
// server may). Usage: node hostile_attackers.mjs URI SECONDS
// Each attacker repeats one finding of ../shared/reviews/reliability-3.md
// (issue 28 items 9-13) until the time is up, and checks that the server
// answers it with the bounded error rather than by growing or stalling. On
// exit it prints one JSON line: how often each attack ran and what it got.
import net from 'node:net';
import { MongoClient, Long } from 'mongodb';
import { opMsg } from './op_msg.mjs';

const [uri, secondsArg] = process.argv.slice(2);
const end = Date.now() + Number(secondsArg) * 1000;
const { port } = new URL(uri);
const counts = {};
const unexpected = [];

function note(name, what) {
  const key = `${name}: ${what}`;
  counts[key] = (counts[key] || 0) + 1;
}

async function expectCode(name, promise, codes) {
  try {
    await promise;
    note(name, 'ok');
  } catch (e) {
    if (codes.includes(e.code)) note(name, `code ${e.code}`);
    else unexpected.push(`${name}: ${e.code ?? ''} ${e.message}`);
  }
}

const range = (n) => Array.from({ length: n }, (_, i) => i);

// Items 9 and 10 (N4, N5, N6): CPU- and memory-heavy aggregations, each
// stopped by maxTimeMS or by the 16 MiB bound.
async function aggregations(client) {
  const db = client.db('attack');
  // Upserts: a later run finds the documents of the one before.
  await db.collection('arr').replaceOne({ _id: 1 }, { a: range(20000) },
                                        { upsert: true });
  const s = 'x'.repeat(1 << 20);
  await db.collection('big').bulkWrite(range(18).map((i) => (
    { replaceOne: { filter: { _id: i }, replacement: { s }, upsert: true } })));
  let i = 0;
  while (Date.now() < end) {
    switch (i++ % 3) {
      case 0:  // N4: an unbounded $unwind + $map, stopped by maxTimeMS
        await expectCode('unwind+map maxTimeMS 100', db.collection('arr').aggregate([
          { $unwind: '$a' },
          { $project: { m: { $size: { $map: { input: { $range: [0, 100000] },
                                              in: '$$this' } } } } },
          { $count: 'n' },
        ], { maxTimeMS: 100 }).toArray(), [50]);
        break;
      case 1:  // N5: a result document over 16 MiB
        await expectCode('$facet over 16 MiB', db.collection('big').aggregate(
          [{ $facet: { a: [], b: [] } }]).toArray(), [10334]);
        break;
      default:  // N6: a $reduce doubling an array
        await expectCode('$reduce doubling', db.collection('arr').aggregate([
          { $limit: 1 },
          { $project: { s: { $reduce: {
            input: { $range: [0, 30] }, initialValue: [1],
            in: { $concatArrays: ['$$value', '$$value'] } } } } },
        ]).toArray(), [10334]);
    }
  }
}

// Item 12 (N7): opening cursors until the per-connection bound, then
// killing them, over and over.
async function cursors(client) {
  const db = client.db('attack');
  await db.collection('many').bulkWrite(range(5).map((i) => (
    { replaceOne: { filter: { _id: i }, replacement: {}, upsert: true } })));
  while (Date.now() < end) {
    const open = [];
    for (;;) {
      try {
        const r = await db.command({ find: 'many', batchSize: 1 });
        // killCursors takes longs (ids are at least 2^53, so the driver
        // keeps them as Longs; Long.fromValue keeps that explicit).
        open.push(Long.fromValue(r.cursor.id));
        if (Date.now() >= end) break;
      } catch (e) {
        if (e.code === 2) note('cursor flood', 'code 2 at the bound');
        else unexpected.push(`cursor flood: ${e.code} ${e.message}`);
        break;
      }
    }
    for (let k = 0; k < open.length; k += 500) {
      await db.command({ killCursors: 'many', cursors: open.slice(k, k + 500) });
    }
  }
}

// Item 13 (L8): creating databases until the server's bound.
async function databases(client) {
  let n = 0;
  while (Date.now() < end) {
    await expectCode('database flood',
                     client.db(`flood${n++}`).collection('c').insertOne({ _id: 1 }),
                     [264]);
    if (n > 200) break;
  }
}

// Item 13 (L7): connections that ask for 16 MiB replies and never read
// them; and item 11 (N9): idle connections by the hundred.
async function sockets() {
  const held = [];
  const connect = () => new Promise((resolve) => {
    const s = net.connect(Number(port), '127.0.0.1', () => resolve(s));
    s.on('error', () => resolve(null));
    held.push(s);
  });
  for (let k = 0; k < 8; ++k) {
    const s = await connect();
    if (!s) continue;
    s.pause();  // never read
    for (let id = 1; id <= 20; ++id) {
      s.write(opMsg(id, { find: 'big', batchSize: 100, $db: 'attack' }));
    }
    note('non-reading connection', 'opened');
  }
  for (let k = 0; k < 300; ++k) {
    if (await connect()) note('idle connection', 'opened');
  }
  while (Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  for (const s of held) s?.destroy();
}

const client = new MongoClient(uri, { maxPoolSize: 4, retryReads: false,
                                      retryWrites: false });
const cursorClient = new MongoClient(uri, { maxPoolSize: 1 });
await client.connect();
await cursorClient.connect();
const started = Date.now();
// HOSTILE_ATTACKS=aggregations,cursors,... runs only those (to find which
// one hurts); all by default.
const attacks = { aggregations: () => aggregations(client),
                  cursors: () => cursors(cursorClient),
                  databases: () => databases(client), sockets };
const chosen = (process.env.HOSTILE_ATTACKS || Object.keys(attacks).join(','))
  .split(',');
await Promise.all(chosen.map((name) => attacks[name]()));
await client.close();
await cursorClient.close();
process.stdout.write(JSON.stringify({ seconds: (Date.now() - started) / 1000,
                                      counts, unexpected }) + '\n');
