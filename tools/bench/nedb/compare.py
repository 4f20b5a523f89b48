#!/usr/bin/env python3
"""ttldb beside NeDB, from the CSVs of one session.

usage: compare.py TTLDB_CSV NEDB_CSV > docs/bench/nedb.md

TTLDB_CSV is ttldb_bench's --csv output, NEDB_CSV nedb_bench.js's (the same
columns: workload,doc,idx,engine,metric,median). Prints a markdown table
with both engines' figures and ttldb/nedb ratios: throughput ratios above 1
mean ttldb is faster; latency and time ratios are nedb/ttldb, so above 1
also means ttldb is faster.
"""
import csv
import sys
from collections import defaultdict


def load(path):
    data = defaultdict(dict)
    with open(path) as f:
        for row in csv.DictReader(f):
            key = (row["workload"], int(row["doc"]), int(row["idx"]), row["engine"])
            data[key][row["metric"]] = float(row["median"])
    return data


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


# (workload, metric, higher is better)
METRICS = [
    ("insert", "ops_s", True), ("insert", "p50_us", False), ("insert", "p99_us", False),
    ("get", "ops_s", True), ("get", "p50_us", False), ("get", "p99_us", False),
    ("find_indexed", "ops_s", True), ("find_indexed", "p50_us", False),
    ("find_indexed", "p99_us", False),
    ("touch", "ops_s", True), ("touch", "p50_us", False), ("touch", "p99_us", False),
    ("sweep", "docs_s", True), ("sweep", "ms", False),
    ("sweep_scaling", "ms_1x", False), ("sweep_scaling", "ms_10x", False),
    ("sweep_scaling", "ratio", False),
    ("read_p99_during_sweep", "idle_p99_us", False),
    ("read_p99_during_sweep", "sweep_p99_us", False),
    ("read_p99_during_sweep", "sweep_docs_s", True),
    ("seek_after_sweep", "first_pass_ms", False),
    ("seek_after_sweep", "fresh_pass_ms", False),
]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data = load(sys.argv[1])
    data.update(load(sys.argv[2]))
    configs = sorted({(w, d, i) for (w, d, i, e) in data if e == "nedb"},
                     key=lambda k: ([m[0] for m in METRICS].index(k[0])
                                    if k[0] in [m[0] for m in METRICS] else 99,
                                    k[1], k[2]))
    print("| workload | doc B | idx | metric | ttldb | nedb | ttldb advantage |")
    print("|---|---|---|---|---|---|---|")
    for (w, d, i) in configs:
        t = data.get((w, d, i, "ttldb"), {})
        n = data.get((w, d, i, "nedb"), {})
        for (mw, metric, higher) in METRICS:
            if mw != w or metric not in n:
                continue
            tv, nv = t.get(metric), n.get(metric)
            adv = ratio(tv, nv) if higher else ratio(nv, tv)
            print(f"| {w} | {d} | {i} | {metric} | {fmt(tv)} | {fmt(nv)} | {adv} |")


if __name__ == "__main__":
    main()
