#!/usr/bin/env python3
"""hartpool against the OpenMP peer (libgomp), measurement by measurement,
from the newest result files in bench/results/: the executor overheads of
bench/run.sh (exact, 1 hart, -icount), the scheduling and scaling runs of
bench/kbench.sh (plugin, per hart) and the peer's bench/omp/run.sh (plugin,
per thread). Prints a Markdown table with the targets of the benchmark
issue and writes it to bench/results/<date>-compare.md.

    bench/compare.py [--board qemu-virt]
"""
import glob
import json
import os
import sys
import time

board = sys.argv[sys.argv.index("--board") + 1] if "--board" in sys.argv else "qemu-virt"
res = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")


def newest(pattern, want=None):
    for path in sorted(glob.glob(os.path.join(res, pattern)), reverse=True):
        with open(path) as f:
            d = json.load(f)
        if want is None or want(d):
            return path, d
    return None, None


def has_exec(d):
    return any(r.get("bench") == "exec_overhead" for r in d.get("results", []))


p_exec, d_exec = newest("*-%s.json" % board, has_exec)
p_kb, d_kb = newest("*-kbench-%s.json" % board)
p_omp, d_omp = newest("*-omp.json")
if not (d_exec and d_kb and d_omp):
    sys.exit("compare: need results of bench/run.sh, bench/kbench.sh and "
             "bench/omp/run.sh in %s" % res)

ex = next(r for r in d_exec["results"] if r.get("bench") == "exec_overhead")["instructions"]


def epcc(name, threads):
    for e in d_omp["epcc"]:
        if e["name"] == name and e["threads"] == threads:
            return e["instructions"]["median"]
    return None


def omp_kernel(kernel, variant, threads):
    for k in d_omp["kernels"]:
        if k["kernel"] == kernel and k["variant"] == variant and k["threads"] == threads:
            return k
    return None


def kb(bench, **match):
    for r in d_kb["results"]:
        if r["bench"] == bench and all(r.get(k) == v for k, v in match.items()):
            return r
    return None


def omp_size(k):
    s = str(k["size"])
    return int(s.split("x")[0].split(",")[0])


rows = []


def row(what, hp, omp, unit, target=None, met=None):
    ratio = "%.2f" % (hp / omp) if omp else "—"
    t = "" if target is None else ("%s: %s" % (target, "met" if met else "not met"))
    rows.append((what, hp, omp, ratio, unit, t))


# 1-4: constructs (1 hart / 1 thread; the peer's per-thread count at 1).
row("empty dispatch ↔ empty `parallel`", ex["dispatch"], epcc("parallel", 1),
    "instr / launch", "≤ 1,500", ex["dispatch"] <= 1500)
row("per work-group ↔ `dynamic,1` per chunk", ex["per_group"], epcc("dynamic_1", 1),
    "instr / group", "≤ 25", ex["per_group"] <= 25)
row("per work-item ↔ loop iteration", ex["per_item"], epcc("for_iter", 1),
    "instr / item", "≤ 5", ex["per_item"] <= 5)
row("barrier per work-item ↔ `barrier`", ex["barrier"], epcc("barrier", 1),
    "instr / item", "≤ 40", ex["barrier"] <= 40)
row("sub-group reduce per item ↔ `reduction`", ex["sg_reduce"], epcc("reduction", 1),
    "instr / item", None)

# 5: scheduling, mandelbrot at 8.
for hp_s, omp_v in (("guided", "guided"), ("static", "static"), ("fixed-16", "dynamic")):
    r = kb("schedule", schedule=hp_s)
    o = omp_kernel("mandel", omp_v, 8)
    if r and o:
        row("mandelbrot 256², 8 harts, %s ↔ %s: balance" % (hp_s, omp_v),
            r["result"]["balance"], o["instructions"]["balance"]["median"], "max/mean",
            "≤ 1.05" if hp_s == "guided" else None,
            r["result"]["balance"] <= 1.05 if hp_s == "guided" else None)
        row("mandelbrot 256², 8 harts, %s ↔ %s: parallel time" % (hp_s, omp_v),
            r["result"]["max"], o["instructions"]["max_thread"]["median"], "instr")

# 6: scaling at 8 (per element, sizes differ) and efficiency.
for hp_k, omp_k, per in (("vadd", "vadd", lambda s: s), ("sgemm_naive", "sgemm", lambda s: s ** 3)):
    r1, r8 = kb("scaling", kernel=hp_k, harts=1), kb("scaling", kernel=hp_k, harts=8)
    o8 = omp_kernel(omp_k, "static", 8)
    if r1 and r8 and o8:
        hp8 = r8["result"]["max"] / per(r8["size"])
        om8 = o8["instructions"]["max_thread"]["median"] / per(omp_size(o8))
        row("%s, 8 harts: parallel time per element" % hp_k, hp8, om8, "instr")
        eff = r8["efficiency"]
        o1 = omp_kernel(omp_k, "static", 1)
        oeff = o1["instructions"]["max_thread"]["median"] / (8 * o8["instructions"]["max_thread"]["median"]) if o1 else None
        row("%s, 8 harts: parallel efficiency" % hp_k, eff, oeff, "T1/(8·T8)", "≥ 0.9", eff >= 0.9)


def fmt(v):
    if v is None:
        return "—"
    if isinstance(v, float) and v < 100:
        return "%.2f" % v
    return "{:,}".format(int(round(v)))


out = ["| measurement | hartpool | OpenMP (libgomp) | ratio | unit | target |",
       "|---|---|---|---|---|---|"]
for what, hp, omp, ratio, unit, t in rows:
    out.append("| %s | %s | %s | %s | %s | %s |" % (what, fmt(hp), fmt(omp), ratio, unit, t))
out.append("")
out.append("Sources: %s, %s, %s." % tuple(os.path.basename(p) for p in (p_exec, p_kb, p_omp)))
text = "\n".join(out)
print(text)
path = os.path.join(res, time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()) + "-compare.md")
with open(path, "w") as f:
    f.write(text + "\n")
print("table: %s" % path, file=sys.stderr)
