#!/usr/bin/env node
// nedb_bench: ttldb_bench's workloads (tools/bench/ttldb_bench.cc) on NeDB
// (@seald-io/nedb), the embedded JavaScript store with MongoDB-style TTL
// indexes, so its rows can sit beside ttldb's in docs/BENCHMARKS.md.
//
//   node --max-old-space-size=8192 nedb_bench.js [--quick] [--runs=3]
//        [--docs=50000] [--ops=20000] [--csv=PATH] ...
//
// Same documents as MakeDoc (tools/bench/bench_util.cc): _id "k%012d",
// accessTime (a Date), userId "user-%07d", group i/10 and a payload padded
// to about 256 B or 2 KB with the very same characters; same access times,
// same "now" (2027-01-15, kNowMillis), same pseudo-random key sequences
// (xorshift seeds 1..4), same default counts. NeDB runs in persistent mode
// (a datafile in a temp directory, what an embedded user runs): it keeps
// every document in memory and appends each write to the datafile
// (fs.appendFile, no fsync). Every operation is one awaited call, one at a
// time, as a service makes them.
//
// How each workload maps to NeDB:
//   insert        insertAsync(doc)
//   get           findOneAsync({_id}) - NeDB's own TTL hiding: a document
//                 found expired is deleted right then (lazy expiry on read)
//   find_indexed  findAsync({group: g}) (10 documents; index on group)
//   touch         updateAsync({_id}, {$set: {accessTime: new Date(now)}})
//   sweep         NeDB never deletes expired documents by itself: it drops
//                 them lazily when a query returns them as candidates. So
//                 the sweep is what a user must run to really delete them:
//                 removeAsync({accessTime: {$lte: cutoff}}, {multi: true})
//                 (one call; candidates come from the accessTime index).
//                 Past about 120,000 expired documents that call throws
//                 RangeError in NeDB 4.1.2 (see NedbStore.sweep): then the
//                 sweep removes them by _id in chunks of 10,000 (chunked=1).
//   read_p99_during_sweep  gets issued while that sweep runs: NeDB runs
//                 one operation at a time (its executor queue, one JS
//                 thread), so a get waits for the remove call in progress
//                 (the whole sweep when it is one call, a chunk otherwise).
//   seek_after_sweep  the same remove call again (0 documents) after the
//                 big sweep, against one on a fresh store.
// NeDB's TTL check uses Date.now(); Date.now is pinned to the benchmark's
// "now" (as ttldb runs on a FakeClock), so hiding sees the same cutoff.
// The parse workload (simdjson) has no NeDB counterpart and is not run.
'use strict'

const fs = require('fs')
const os = require('os')
const path = require('path')
const Datastore = require('@seald-io/nedb')

const K_EXPIRE_AFTER_SECONDS = 3600
const K_NOW_MILLIS = 1800000000000
let fakeNow = K_NOW_MILLIS
Date.now = () => fakeNow

// --- flags (the names of ttldb_bench's) -----------------------------------

function usage () {
  process.stderr.write(
    'usage: nedb_bench.js [--quick] [--runs=N] [--docs=M] [--ops=N]\n' +
    '  [--expired=N] [--scale_live=M] [--scale_expired=N]\n' +
    '  [--big_expired=N] [--big_live=N] [--sizes=256,2048] [--indexes=0,2]\n' +
    '  [--workloads=insert,touch,...] [--dir=PATH] [--csv=PATH]\n' +
    '  (--engines= and --parse_docs= are accepted and ignored)\n')
}

function parseFlags (argv) {
  const f = {
    runs: 3,
    docs: 50000,
    ops: 20000,
    expired: 20000,
    scale_live: 20000,
    scale_expired: 10000,
    big_expired: 1000000,
    big_live: 10000,
    sizes: [256, 2048],
    indexes: [0, 2],
    workloads: [],
    dir: '',
    csv: ''
  }
  const ints = (v) => v.split(',').map((s) => {
    if (!/^-?\d+$/.test(s)) throw new Error('bad number ' + s)
    return Number(s)
  })
  for (const arg of argv) {
    if (arg === '--quick') {
      Object.assign(f, {
        runs: 1,
        docs: 2000,
        ops: 1000,
        expired: 1000,
        scale_live: 1000,
        scale_expired: 500,
        big_expired: 10000,
        big_live: 1000
      })
      continue
    }
    const m = /^--([a-z_]+)=(.*)$/.exec(arg)
    if (!m) return null
    const [, name, value] = m
    try {
      if (['runs', 'docs', 'ops', 'expired', 'scale_live', 'scale_expired',
        'big_expired', 'big_live'].includes(name)) {
        f[name] = ints(value)[0]
      } else if (name === 'sizes' || name === 'indexes') {
        f[name] = ints(value)
      } else if (name === 'workloads') {
        f.workloads = value.split(',')
      } else if (name === 'dir' || name === 'csv') {
        f[name] = value
      } else if (name === 'engines' || name === 'parse_docs') {
        // ttldb_bench's; scripts/bench.sh passes its arguments to both.
      } else {
        return null
      }
    } catch (e) {
      return null
    }
  }
  return f.runs > 0 && f.docs > 0 && f.ops > 0 ? f : null
}

// --- documents: MakeDoc of bench_util.cc ----------------------------------

const pad = (n, w) => String(n).padStart(w, '0')
const docId = (i) => 'k' + pad(i, 12)
const docUser = (i) => 'user-' + pad(i, 7)
const docGroup = (i) => Math.floor(i / 10)

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789 '
const M64 = (1n << 64n) - 1n
const TWO32_MOD = 4294967296 % ALPHABET.length

// The payload of document i: bench_util.cc's 64-bit xorshift, on two 32-bit
// halves (BigInt per character would cost seconds per load).
function payload (i, len) {
  const s0 = (BigInt(i) * 0x9E3779B97F4A7C15n + 1n) & M64
  let hi = Number(s0 >> 32n) >>> 0
  let lo = Number(s0 & 0xFFFFFFFFn) >>> 0
  const out = new Array(len)
  for (let k = 0; k < len; ++k) {
    // s ^= s << 13
    let h = ((hi << 13) | (lo >>> 19)) >>> 0
    let l = (lo << 13) >>> 0
    hi = (hi ^ h) >>> 0
    lo = (lo ^ l) >>> 0
    // s ^= s >> 7
    h = hi >>> 7
    l = ((lo >>> 7) | (hi << 25)) >>> 0
    hi = (hi ^ h) >>> 0
    lo = (lo ^ l) >>> 0
    // s ^= s << 17
    h = ((hi << 17) | (lo >>> 15)) >>> 0
    l = (lo << 17) >>> 0
    hi = (hi ^ h) >>> 0
    lo = (lo ^ l) >>> 0
    const r = ((hi % ALPHABET.length) * TWO32_MOD + (lo % ALPHABET.length)) %
      ALPHABET.length
    out[k] = ALPHABET[r]
  }
  return out.join('')
}

// Document i as an object: the fields, order and sizes of MakeDoc's JSON
// (the payload length is computed on MakeDoc's very header text).
function makeDoc (i, accessMillis, docBytes) {
  const head = `{"_id":"${docId(i)}","accessTime":{"$date":{"$numberLong":"` +
    `${accessMillis}"}},"userId":"${docUser(i)}","group":${docGroup(i)},` +
    '"payload":"'
  const len = Math.max(8, docBytes - head.length - 2)
  return {
    _id: docId(i),
    accessTime: new Date(accessMillis),
    userId: docUser(i),
    group: docGroup(i),
    payload: payload(i, len)
  }
}

const liveAccess = (i) => K_NOW_MILLIS - (i % 60000)
const expiredAccess = (i) =>
  K_NOW_MILLIS - 2 * K_EXPIRE_AFTER_SECONDS * 1000 - (i % 600000)
const cutoff = (now) => new Date(now - K_EXPIRE_AFTER_SECONDS * 1000)

// --- measuring ------------------------------------------------------------

// bench_util.h's Rng: xorshift64, s = seed * 2654435761 + 1.
class Rng {
  constructor (seed) { this.s = (BigInt(seed) * 2654435761n + 1n) & M64 }
  uniform (n) {
    let s = this.s
    s ^= (s << 13n) & M64
    s ^= s >> 7n
    s ^= (s << 17n) & M64
    this.s = s
    return Number(s % BigInt(n))
  }
}

const nowNs = () => process.hrtime.bigint()

class Latencies {
  constructor () { this.ns = []; this.total = 0 }
  add (ns) { const v = Number(ns); this.ns.push(v); this.total += v }
  opsPerSecond () { return this.total > 0 ? this.ns.length * 1e9 / this.total : 0 }
  percentileMicros (p) {
    if (this.ns.length === 0) return 0
    if (!this.sorted) { this.ns.sort((a, b) => a - b); this.sorted = true }
    const idx = Math.floor(p / 100 * (this.ns.length - 1) + 0.5)
    return this.ns[Math.min(idx, this.ns.length - 1)] / 1000
  }
}

function die (what) {
  process.stderr.write('nedb_bench: ' + what + '\n')
  process.exit(1)
}

// --- the store ------------------------------------------------------------

class NedbStore {
  async open (dir, docBytes, extraIndexes) {
    this.docBytes = docBytes
    this.db = new Datastore({ filename: path.join(dir, 'bench.db') })
    await this.db.loadDatabaseAsync()
    await this.db.ensureIndexAsync({
      fieldName: 'accessTime', expireAfterSeconds: K_EXPIRE_AFTER_SECONDS
    })
    if (extraIndexes === 2) {
      await this.db.ensureIndexAsync({ fieldName: 'userId' })
      await this.db.ensureIndexAsync({ fieldName: 'group' })
    }
  }

  // Setup, untimed: documents [begin, end) in batches of 10,000 (one
  // insertAsync of an array each, as ttldb_bench's engines may batch).
  async load (begin, end, access) {
    for (let b = begin; b < end; b += 10000) {
      const batch = []
      for (let i = b; i < Math.min(end, b + 10000); ++i) {
        batch.push(makeDoc(i, access(i), this.docBytes))
      }
      await this.db.insertAsync(batch)
    }
  }

  // What a user must run to delete the expired documents: one
  // removeAsync({accessTime: {$lte: cutoff}}, {multi: true}). NeDB 4.1.2
  // throws "RangeError: Maximum call stack size exceeded" from that call
  // when it has more than about 120,000 candidates (_getCandidatesAsync
  // does validDocs.push(...docs)), before deleting anything; then the
  // sweep falls back to what a user must do instead: getAllData(), pick
  // the expired ones' access times, and remove them in accessTime windows
  // of about 10,000 documents (the same indexed range query, bounded;
  // other calls can run between windows). The time includes the failed
  // call; this.chunked records the fallback. (Chunks by _id: {$in: ids}
  // are far slower: NeDB matches $in by a linear scan of the list.)
  async sweep (now) {
    const query = { accessTime: { $lte: cutoff(now) } }
    try {
      return await this.db.removeAsync(query, { multi: true })
    } catch (e) {
      if (!(e instanceof RangeError)) throw e
    }
    this.chunked = true
    const cut = cutoff(now).getTime()
    const times = []
    for (const d of this.db.getAllData()) {
      if (d.accessTime instanceof Date && d.accessTime.getTime() <= cut) {
        times.push(d.accessTime.getTime())
      }
    }
    times.sort((a, b) => a - b)
    let n = 0
    let lo = null
    for (let k = 0; k < times.length; k += 10000) {
      const hi = k + 10000 < times.length ? times[k + 9999] : cut
      const range = { $lte: new Date(hi) }
      if (lo !== null) range.$gt = new Date(lo)
      n += await this.db.removeAsync({ accessTime: range }, { multi: true })
      lo = hi
    }
    return n
  }
}

// --- the workloads --------------------------------------------------------

class Runner {
  constructor (f, root) { this.f = f; this.root = root; this.counter = 0 }

  want (w) { return this.f.workloads.length === 0 || this.f.workloads.includes(w) }

  freshDir () {
    const d = path.join(this.root, 'nedb-' + this.counter++)
    fs.rmSync(d, { recursive: true, force: true })
    fs.mkdirSync(d, { recursive: true })
    return d
  }

  async newStore (doc, idx) {
    const s = new NedbStore()
    const dir = this.freshDir()
    await s.open(dir, doc, idx)
    s.dir = dir
    return s
  }

  done (s) {
    s.db = null
    fs.rmSync(s.dir, { recursive: true, force: true })
  }

  async runMain (doc, idx, rows) {
    const f = this.f
    fakeNow = K_NOW_MILLIS
    const s = await this.newStore(doc, idx)
    const db = s.db
    const row = (w, m) => rows.push({ workload: w, doc, idx, engine: 'nedb', m })
    const latRow = (w, l, extra = []) => row(w, [
      ['ops_s', l.opsPerSecond()],
      ['p50_us', l.percentileMicros(50)],
      ['p99_us', l.percentileMicros(99)],
      ...extra])
    {
      if (global.gc) global.gc()
      const heap0 = process.memoryUsage().heapUsed
      const l = new Latencies()
      for (let i = 0; i < f.docs; ++i) {
        const d = makeDoc(i, liveAccess(i), doc)
        const t0 = nowNs()
        await db.insertAsync(d)
        l.add(nowNs() - t0)
      }
      // The JS heap the store holds after the load (every document lives
      // in memory): heapUsed after minus before, both after a full GC when
      // run with --expose-gc (without it, garbage blurs the figure).
      if (global.gc) global.gc()
      const heapMiB = (process.memoryUsage().heapUsed - heap0) / 1048576
      if (this.want('insert')) latRow('insert', l, [['heap_mib', heapMiB]])
    }
    if (this.want('get')) {
      const rng = new Rng(1)
      const l = new Latencies()
      for (let k = 0; k < f.ops; ++k) {
        const id = docId(rng.uniform(f.docs))
        const t0 = nowNs()
        const d = await db.findOneAsync({ _id: id })
        l.add(nowNs() - t0)
        if (d === null) die('get missed ' + id)
      }
      latRow('get', l)
    }
    if (idx === 2 && this.want('find_indexed')) {
      const rng = new Rng(2)
      const l = new Latencies()
      const groups = Math.max(1, Math.floor(f.docs / 10))
      const n = Math.max(100, Math.floor(f.ops / 10))
      for (let k = 0; k < n; ++k) {
        const g = rng.uniform(groups)
        const t0 = nowNs()
        const got = await db.findAsync({ group: g })
        l.add(nowNs() - t0)
        const want = Math.min(10, f.docs - g * 10)
        if (got.length !== want) die(`find group ${g} got ${got.length}`)
      }
      latRow('find_indexed', l)
    }
    if (this.want('touch')) {
      const rng = new Rng(3)
      const l = new Latencies()
      for (let k = 0; k < f.ops; ++k) {
        const id = docId(rng.uniform(f.docs))
        // A later "now" for each touch, as ttldb_bench does.
        const now = K_NOW_MILLIS + k + 1
        fakeNow = now
        const t0 = nowNs()
        const r = await db.updateAsync({ _id: id },
          { $set: { accessTime: new Date(now) } })
        l.add(nowNs() - t0)
        if (r.numAffected !== 1) die('touch missed ' + id)
      }
      latRow('touch', l)
      fakeNow = K_NOW_MILLIS
    }
    if (this.want('sweep')) {
      await s.load(f.docs, f.docs + f.expired, expiredAccess)
      const t0 = nowNs()
      const deleted = await s.sweep(K_NOW_MILLIS)
      const ns = Number(nowNs() - t0)
      if (deleted !== f.expired) die(`sweep deleted ${deleted} of ${f.expired}`)
      row('sweep', [['docs_s', deleted * 1e9 / ns], ['ms', ns / 1e6],
        ['chunked', s.chunked ? 1 : 0]])
    }
    this.done(s)
  }

  async timeSweep (doc, idx, live, expired) {
    const s = await this.newStore(doc, idx)
    await s.load(live, live + expired, expiredAccess)
    await s.load(0, live, liveAccess)
    const t0 = nowNs()
    const deleted = await s.sweep(K_NOW_MILLIS)
    const ns = Number(nowNs() - t0)
    if (deleted !== expired) die('scaling sweep count ' + deleted)
    this.done(s)
    return ns
  }

  async runScaling (doc, idx, rows) {
    const f = this.f
    const small = await this.timeSweep(doc, idx, f.scale_live, f.scale_expired)
    const large = await this.timeSweep(doc, idx, 10 * f.scale_live,
      f.scale_expired)
    rows.push({
      workload: 'sweep_scaling',
      doc,
      idx,
      engine: 'nedb',
      m: [['ms_1x', small / 1e6], ['ms_10x', large / 1e6],
        ['ratio', large / small]]
    })
  }

  async runBigSweep (rows) {
    const f = this.f
    const doc = 256
    const idx = 0
    let freshMs
    {
      const s = await this.newStore(doc, idx)
      await s.load(0, f.big_live, liveAccess)
      const t0 = nowNs()
      if (await s.sweep(K_NOW_MILLIS) !== 0) die('fresh pass deleted something')
      freshMs = Number(nowNs() - t0) / 1e6
      this.done(s)
    }
    const s = await this.newStore(doc, idx)
    await s.load(f.big_live, f.big_live + f.big_expired, expiredAccess)
    await s.load(0, f.big_live, liveAccess)
    const db = s.db

    const rng = new Rng(4)
    const idle = new Latencies()
    const idleOps = Math.min(f.ops, 20000)
    for (let k = 0; k < idleOps; ++k) {
      const id = docId(rng.uniform(f.big_live))
      const t0 = nowNs()
      if (await db.findOneAsync({ _id: id }) === null) die('idle get missed')
      idle.add(nowNs() - t0)
    }

    // The sweep and the reads share NeDB's one executor queue (and the one
    // JS thread); the heap is sampled whenever the event loop is free.
    const heap0 = process.memoryUsage().heapUsed
    let heapMax = heap0
    const sampler = setInterval(() => {
      heapMax = Math.max(heapMax, process.memoryUsage().heapUsed)
    }, 5)
    let done = false
    let deleted = 0
    let sweepNs = 0
    const t0sweep = nowNs()
    let failure = null
    const sweeping = s.sweep(K_NOW_MILLIS).then((n) => {
      deleted = n
      sweepNs = Number(nowNs() - t0sweep)
      done = true
    }, (e) => { failure = e; done = true })
    const during = new Latencies()
    while (!done) {
      const id = docId(rng.uniform(f.big_live))
      const t0 = nowNs()
      if (await db.findOneAsync({ _id: id }) === null) die('get during sweep missed')
      during.add(nowNs() - t0)
    }
    await sweeping
    clearInterval(sampler)
    if (failure) throw failure
    heapMax = Math.max(heapMax, process.memoryUsage().heapUsed)
    if (deleted !== f.big_expired) die('big sweep deleted ' + deleted)
    const t0 = nowNs()
    if (await s.sweep(K_NOW_MILLIS) !== 0) die('pass after sweep deleted something')
    const afterMs = Number(nowNs() - t0) / 1e6
    this.done(s)

    if (this.want('read_p99_during_sweep')) {
      const ip99 = idle.percentileMicros(99)
      const sp99 = during.percentileMicros(99)
      rows.push({
        workload: 'read_p99_during_sweep',
        doc,
        idx,
        engine: 'nedb',
        m: [['idle_p99_us', ip99], ['sweep_p99_us', sp99],
          ['ratio', sp99 / ip99], ['reads', during.ns.length],
          ['sweep_docs_s', deleted * 1e9 / sweepNs],
          ['heap_growth_mib', (heapMax - heap0) / 1048576],
          ['chunked', s.chunked ? 1 : 0]]
      })
    }
    if (this.want('seek_after_sweep')) {
      rows.push({
        workload: 'seek_after_sweep',
        doc,
        idx,
        engine: 'nedb',
        m: [['first_pass_ms', afterMs], ['fresh_pass_ms', freshMs],
          ['ratio', afterMs / freshMs], ['deletions', deleted]]
      })
    }
  }

  async runOnce () {
    const rows = []
    const mainWl = ['insert', 'get', 'touch', 'find_indexed', 'sweep']
      .some((w) => this.want(w))
    for (const doc of this.f.sizes) {
      for (const idx of this.f.indexes) {
        if (mainWl) {
          process.stderr.write(`  nedb doc=${doc} idx=${idx}: insert/get/find/touch/sweep\n`)
          await this.runMain(doc, idx, rows)
        }
        if (doc === this.f.sizes[0] && this.want('sweep_scaling')) {
          process.stderr.write(`  nedb doc=${doc} idx=${idx}: sweep_scaling\n`)
          await this.runScaling(doc, idx, rows)
        }
      }
    }
    if (this.want('seek_after_sweep') || this.want('read_p99_during_sweep')) {
      process.stderr.write(`  nedb: sweep of ${this.f.big_expired} documents\n`)
      await this.runBigSweep(rows)
    }
    return rows
  }
}

// --- output ---------------------------------------------------------------

function median (v) {
  const s = [...v].sort((a, b) => a - b)
  const n = s.length
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
}

// ttldb_bench's Fmt.
function fmt (v) {
  if (v >= 100000) return (v / 1000).toFixed(0) + 'k'
  if (v >= 100) return v.toFixed(0)
  if (v >= 10) return v.toFixed(1)
  return v.toFixed(2)
}

// printf's %.6g, the CSV format of ttldb_bench.
function g6 (v) {
  if (v === 0) return '0'
  if (!Number.isFinite(v)) return String(v)
  const exp = Math.floor(Math.log10(Math.abs(Number(v.toPrecision(6)))))
  if (exp < -4 || exp >= 6) {
    let [m, e] = v.toExponential(5).split('e')
    if (m.includes('.')) m = m.replace(/0+$/, '').replace(/\.$/, '')
    const en = Number(e)
    return `${m}e${en < 0 ? '-' : '+'}${String(Math.abs(en)).padStart(2, '0')}`
  }
  let s = v.toFixed(Math.max(0, 5 - exp))
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '')
  return s
}

async function main () {
  const f = parseFlags(process.argv.slice(2))
  if (f === null) {
    usage()
    process.exit(2)
  }
  const root = f.dir || fs.mkdtempSync(path.join(os.tmpdir(), 'nedb_bench.'))
  fs.mkdirSync(root, { recursive: true })

  const all = new Map()
  for (let run = 0; run < f.runs; ++run) {
    process.stderr.write(`run ${run + 1} of ${f.runs}\n`)
    const runner = new Runner(f, root)
    for (const r of await runner.runOnce()) {
      const k = `${r.workload}|${r.doc}|${r.idx}|${r.engine}`
      if (!all.has(k)) all.set(k, [])
      all.get(k).push(r)
    }
  }
  fs.rmSync(root, { recursive: true, force: true })

  const med = []
  for (const runs of all.values()) {
    const m = runs[0].m.map(([name]) => [name, median(
      runs.map((r) => r.m.find(([n]) => n === name)[1]))])
    med.push({ ...runs[0], m })
  }

  const nedbVersion = require('@seald-io/nedb/package.json').version
  const out = []
  out.push(`# nedb_bench (@seald-io/nedb ${nedbVersion}, node ${process.version}): ` +
    `medians of ${f.runs} run(s); docs=${f.docs} ops=${f.ops} ` +
    `expired=${f.expired} scale=${f.scale_expired}/${f.scale_live} ` +
    `big=${f.big_expired}/${f.big_live}\n`)
  out.push('| workload | doc B | idx | engine | ops/s | p50 us | p99 us | ' +
    'vs limit | vs sqlite | other |')
  out.push('|---|---|---|---|---|---|---|---|---|---|')
  for (const r of med) {
    let ops = ''
    let p50 = ''
    let p99 = ''
    const other = []
    for (const [name, v] of r.m) {
      if (name === 'ops_s' || name === 'docs_s') ops = fmt(v)
      else if (name === 'p50_us') p50 = fmt(v)
      else if (name === 'p99_us') p99 = fmt(v)
      else other.push(`${name}=${fmt(v)}`)
    }
    out.push(`| ${r.workload} | ${r.doc} | ${r.idx} | ${r.engine} | ${ops} | ` +
      `${p50} | ${p99} |  |  | ${other.join(' ')} |`)
  }
  const rssMiB = process.resourceUsage().maxRSS / 1024
  out.push(`\npeak RSS of the process: ${rssMiB.toFixed(0)} MiB`)
  process.stdout.write(out.join('\n') + '\n')

  if (f.csv) {
    const lines = ['workload,doc,idx,engine,metric,median']
    for (const r of med) {
      for (const [name, v] of r.m) {
        lines.push(`${r.workload},${r.doc},${r.idx},${r.engine},${name},${g6(v)}`)
      }
    }
    fs.writeFileSync(f.csv, lines.join('\n') + '\n')
  }
}

main().catch((e) => die(e && e.stack ? e.stack : String(e)))
