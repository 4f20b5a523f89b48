#!/usr/bin/env python3
"""ttldb beside NeDB, from the CSVs of one session.

usage: compare.py TTLDB_CSV NEDB_CSV > docs/bench/nedb.md

TTLDB_CSV is ttldb_bench's --csv output, NEDB_CSV nedb_bench.js's (the same
columns: workload,doc,idx,engine,metric,median). Prints a markdown table,
one row per workload/size/index count, with both engines' figures and
ttldb/nedb: ttldb's throughput over NeDB's (ops/s, or documents deleted
per second for sweep), so above 1 means ttldb is faster; for
read_p99_during_sweep it is NeDB's read p99 during the sweep over ttldb's.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from chart import load  # noqa: E402  (tools/bench/chart.py: the CSV reader)


def fmt(v):
    if v is None:
        return ""
    if v >= 100000:
        return f"{v / 1000:.0f}k"
    if v >= 100:
        return f"{v:.0f}"
    if v >= 10:
        return f"{v:.1f}"
    return f"{v:.2f}"


def ratio(a, b):
    if a is None or b is None or b == 0:
        return ""
    return fmt(a / b) + "x"


ORDER = ["insert", "get", "find_indexed", "touch", "sweep", "sweep_scaling",
         "read_p99_during_sweep", "seek_after_sweep"]
MAIN = {"ops_s", "docs_s", "p50_us", "p99_us"}


def others(m):
    return " ".join(f"{k}={fmt(v)}" for k, v in m.items() if k not in MAIN)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data = load(sys.argv[1])
    data.update(load(sys.argv[2]))
    configs = sorted({(w, d, i) for (w, d, i, e) in data if e == "nedb"},
                     key=lambda k: (ORDER.index(k[0]) if k[0] in ORDER else 99,
                                    k[1], k[2]))
    print("| workload | doc B | idx | ttldb ops/s | p50 us | p99 us "
          "| nedb ops/s | p50 us | p99 us | ttldb/nedb | ttldb other | nedb other |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (w, d, i) in configs:
        t = data.get((w, d, i, "ttldb"), {})
        n = data.get((w, d, i, "nedb"), {})
        metric = "docs_s" if w == "sweep" else "ops_s"
        if w == "read_p99_during_sweep":
            # The headline here is the read p99 during the sweep (lower is
            # better): nedb's over ttldb's.
            adv = ratio(n.get("sweep_p99_us"), t.get("sweep_p99_us"))
        else:
            adv = ratio(t.get(metric), n.get(metric))
        print(f"| {w} | {d} | {i} | {fmt(t.get(metric))} | {fmt(t.get('p50_us'))} "
              f"| {fmt(t.get('p99_us'))} | {fmt(n.get(metric))} | {fmt(n.get('p50_us'))} "
              f"| {fmt(n.get('p99_us'))} | {adv} | {others(t)} | {others(n)} |")


if __name__ == "__main__":
    main()
