#!/usr/bin/env python3
"""Draws the benchmark charts as plain SVG (no plotting library needed).

usage: chart.py results.csv OUTDIR
Writes OUTDIR/throughput.svg (ops/s per engine per workload, log scale) and
OUTDIR/sweep_scaling.svg (sweep time with M and 10xM live documents).
"""
import csv
import math
import sys
from collections import defaultdict

COLORS = {"ttldb": "#1f77b4", "limit": "#7f7f7f", "sqlite": "#d62728"}
ENGINES = ["ttldb", "limit", "sqlite"]


def load(path):
    data = defaultdict(dict)
    with open(path) as f:
        for row in csv.DictReader(f):
            key = (row["workload"], int(row["doc"]), int(row["idx"]), row["engine"])
            data[key][row["metric"]] = float(row["median"])
    return data


def text(x, y, s, size=11, anchor="middle", rotate=None, weight="normal"):
    rot = f' transform="rotate({rotate} {x} {y})"' if rotate else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" '
            f'font-family="sans-serif" text-anchor="{anchor}" '
            f'font-weight="{weight}"{rot}>{s}</text>')


def throughput_svg(data, out):
    groups = []  # (label, {engine: value})
    for wl, metric in [("insert", "ops_s"), ("touch", "ops_s"), ("get", "ops_s"),
                       ("find_indexed", "ops_s"), ("sweep", "docs_s")]:
        for doc in (256, 2048):
            for idx in (0, 2):
                vals = {e: data.get((wl, doc, idx, e), {}).get(metric)
                        for e in ENGINES}
                if any(v for v in vals.values()):
                    groups.append((f"{wl} {doc}B/{idx}ix", vals))
    w, h, left, bottom, top = 60 + 58 * len(groups), 420, 70, 120, 40
    lo, hi = 3, 7  # 1k .. 10M per second
    def y(v):
        v = min(max(v, 10 ** lo), 10 ** hi)
        return top + (h - top - bottom) * (1 - (math.log10(v) - lo) / (hi - lo))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}">',
             '<rect width="100%" height="100%" fill="white"/>',
             text(w / 2, 22, "Throughput (operations or swept documents per "
                  "second, log scale; medians)", 14, weight="bold")]
    for p in range(lo, hi + 1):
        yy = y(10 ** p)
        parts.append(f'<line x1="{left}" y1="{yy:.1f}" x2="{w - 10}" '
                     f'y2="{yy:.1f}" stroke="#ddd"/>')
        label = {3: "1k", 4: "10k", 5: "100k", 6: "1M", 7: "10M"}[p]
        parts.append(text(left - 8, yy + 4, label, anchor="end"))
    bw = 14
    for g, (label, vals) in enumerate(groups):
        x0 = left + 10 + g * 58
        for k, e in enumerate(ENGINES):
            v = vals.get(e)
            if not v:
                continue
            yy = y(v)
            parts.append(f'<rect x="{x0 + k * bw}" y="{yy:.1f}" width="{bw - 2}" '
                         f'height="{h - bottom - yy:.1f}" fill="{COLORS[e]}"/>')
        parts.append(text(x0 + 20, h - bottom + 10, label, 10, anchor="end",
                          rotate=-50))
    for k, e in enumerate(ENGINES):
        parts.append(f'<rect x="{left + 10 + k * 90}" y="{h - 22}" width="12" '
                     f'height="12" fill="{COLORS[e]}"/>')
        parts.append(text(left + 26 + k * 90, h - 12, e, anchor="start"))
    parts.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(parts))


def scaling_svg(data, out):
    rows = []
    for idx in (0, 2):
        for e in ENGINES:
            m = data.get(("sweep_scaling", 256, idx, e))
            if m:
                rows.append((f"{e} ({idx} extra ix)", e, m["ms_1x"], m["ms_10x"]))
    w, h, left, top, bottom = 520, 360, 70, 40, 60
    vmax = max([r[3] for r in rows] + [r[2] for r in rows] + [1]) * 1.1
    def y(v):
        return top + (h - top - bottom) * (1 - v / vmax)
    xs = {0: left + 60, 1: w - 160}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}">',
             '<rect width="100%" height="100%" fill="white"/>',
             text(w / 2, 22, "Sweep time (ms) of the same N expired documents, "
                  "M vs 10xM live", 13, weight="bold")]
    for k in range(5):
        v = vmax * k / 4
        parts.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{w - 150}" '
                     f'y2="{y(v):.1f}" stroke="#ddd"/>')
        parts.append(text(left - 8, y(v) + 4, f"{v:.0f}", anchor="end"))
    parts.append(text(xs[0], h - bottom + 20, "M live"))
    parts.append(text(xs[1], h - bottom + 20, "10 x M live"))
    for n, (label, e, a, b) in enumerate(rows):
        dash = ' stroke-dasharray="5,3"' if "2 extra" in label else ""
        parts.append(f'<line x1="{xs[0]}" y1="{y(a):.1f}" x2="{xs[1]}" '
                     f'y2="{y(b):.1f}" stroke="{COLORS[e]}" stroke-width="2"{dash}/>')
        parts.append(text(xs[1] + 8, y(b) + 4, f"{label}: x{b / a:.2f}", 10,
                          anchor="start"))
    parts.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(parts))


def main():
    data = load(sys.argv[1])
    outdir = sys.argv[2].rstrip("/")
    throughput_svg(data, f"{outdir}/throughput.svg")
    scaling_svg(data, f"{outdir}/sweep_scaling.svg")


if __name__ == "__main__":
    main()
