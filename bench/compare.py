#!/usr/bin/env python3
"""hartpool against the OpenMP peer (libgomp), measurement by measurement,
and against the targets of the performance issue, from the newest result
files in build/bench/results/: the executor overheads of bench/run.sh (exact,
1 hart, -icount), the scheduling and scaling runs of bench/kbench.sh
(plugin, per hart), the peer's bench/omp/run.sh (plugin, per thread), the
dispatch at 8 and 512 harts (bench/dispatch_scale.sh), the mailbox
(bench/mbox.sh), the serial link (bench/serial.sh) and the demo's wall time
(bench/demo.sh). Prints two Markdown tables, the comparison (ratio =
hartpool's cost over OpenMP's: 1.00 or less, hartpool as good or better)
and the targets without an OpenMP counterpart, and writes them to
build/bench/results/<date>-compare.md.

    bench/compare.py [--board qemu-virt]
"""
import glob
import json
import os
import sys
import time

board = sys.argv[sys.argv.index("--board") + 1] if "--board" in sys.argv else "qemu-virt"
res = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                   "build", "bench", "results")


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


def fmt(v):
    if v is None:
        return "—"
    if isinstance(v, float) and v < 100:
        return "%.2f" % v
    return "{:,}".format(int(round(v)))


rows = []   # (what, hartpool, OpenMP, ratio, unit, target)
others = []  # (what, value, unit, target)


def row(what, hp, omp, unit, target=None, met=None):
    """A comparison row: besides its own target (if any) every row has the
    issue's: ratio <= 1.00."""
    r = hp / omp if omp else None
    ok = r is not None and r <= 1.0
    t = "ratio ≤ 1.00: %s" % ("met" if ok else "not met")
    if target is not None:
        t += "; %s: %s" % (target, "met" if met else "not met")
    rows.append((what, hp, omp, "%.3f" % r if r is not None else "—", unit, t))


def other(what, value, unit, target=None, met=None):
    t = "" if target is None else "%s: %s" % (target, "met" if met else "not met")
    others.append((what, value, unit, t))


# 1-4: constructs (1 hart / 1 thread; the peer's per-thread count at 1).
row("empty dispatch ↔ empty `parallel`", ex["dispatch"], epcc("parallel", 1),
    "instr / launch", "≤ 1,300", ex["dispatch"] <= 1300)
row("per work-group ↔ `dynamic,1` per chunk", ex["per_group"], epcc("dynamic_1", 1),
    "instr / group")
row("per work-item ↔ loop iteration", ex["per_item"], epcc("for_iter", 1),
    "instr / item")
row("barrier per work-item ↔ `barrier`", ex["barrier"], epcc("barrier", 1),
    "instr / item", "≤ 40", ex["barrier"] <= 40)
row("sub-group reduce per item ↔ `reduction`", ex["sg_reduce"], epcc("reduction", 1),
    "instr / item", "≤ 60", ex["sg_reduce"] <= 60)

# 5: scheduling, mandelbrot at 8.
for hp_s, omp_v in (("guided", "guided"), ("static", "static"), ("fixed-16", "dynamic")):
    r = kb("schedule", schedule=hp_s)
    o = omp_kernel("mandel", omp_v, 8)
    if r and o:
        if hp_s == "static":
            # Both split the rows the same way: the balance is the
            # problem's, and the faster side's lower mean raises it.
            other("mandelbrot 256², 8 harts, static split: balance max/mean (OpenMP: %s)"
                  % fmt(o["instructions"]["balance"]["median"]), r["result"]["balance"], "")
        else:
            row("mandelbrot 256², 8 harts, %s ↔ %s: balance" % (hp_s, omp_v),
                r["result"]["balance"], o["instructions"]["balance"]["median"], "max/mean")
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
        # Efficiency is each side against its own 1-hart time (a faster
        # 1-hart run lowers it): a target of its own, not a ratio.
        eff = r8["efficiency"]
        o1 = omp_kernel(omp_k, "static", 1)
        oeff = o1["instructions"]["max_thread"]["median"] / (8 * o8["instructions"]["max_thread"]["median"]) if o1 else None
        other("%s, 8 harts: parallel efficiency T1/(8·T8) (OpenMP: %s)" % (hp_k, fmt(oeff)),
              eff, "", "≥ 0.90", eff >= 0.9)


# ---- targets without an OpenMP counterpart ----
p_ds, d_ds = newest("*-dispatch-scale-%s.json" % board)
if d_ds:
    c = {(r["harts"], r["groups"]): r["instructions"] for r in d_ds["results"]}
    if (8, 1) in c and (512, 1) in c:
        other("empty dispatch, dispatcher + every hart it touches, 8 harts", c[(8, 1)], "instr")
        q = c[(512, 1)] / c[(8, 1)]
        other("the same at 512 harts (%s instructions)" % fmt(c[(512, 1)]), q,
              "× the 8-hart count", "≤ 1.20", q <= 1.2)
p_demo, d_demo = newest("*-demo-%s.json" % board)
if d_demo:
    for r in d_demo["results"]:
        w = r["wall_s"]["median"]
        other("`make run HARTS=%d` (hartpool demo), wall" % r["harts"], w, "s",
              "< 5 s" if r["harts"] == 512 else None, w < 5 if r["harts"] == 512 else None)
p_mb, d_mb = newest("*-mbox-%s.json" % board)
if d_mb:
    shm = {r["harts"]: r for r in d_mb["results"] if r["transport"] == "shm" and r["board"] == board}
    for h, lim in ((1, None), (8, 50), (64, 100), (512, None)):
        if h in shm:
            v = shm[h]["latency_us"]["p50"]
            dev = shm[h].get("device_p50_us")
            extra = (" (on the device: %.1f)" % (dev["queued_to_start"] + dev["start_to_end"])) if dev else ""
            other("mailbox round trip p50, shm, %d hart%s%s" % (h, "s" if h > 1 else "", extra), v, "µs",
                  "≤ %d µs" % lim if lim else None, v <= lim if lim else None)
    if 8 in shm:
        q = shm[8]["after_idle_us"]["p50"] / shm[8]["latency_us"]["p50"]
        other("mailbox after 12 ms idle, 8 harts: p50 %.0f µs" % shm[8]["after_idle_us"]["p50"],
              q, "× busy p50", "≤ 2", q <= 2)
    for r in d_mb["results"]:
        if r["transport"] == "shm" and r["board"] != board:
            lim = {8: 50, 64: 100}.get(r["harts"])
            v = r["latency_us"]["p50"]
            other("mailbox round trip p50, %s (doorbell device), %d harts" % (r["board"], r["harts"]),
                  v, "µs", "≤ %d µs" % lim if lim else None, v <= lim if lim else None)
def harts(n):
    return "%d hart%s" % (n, "s" if n > 1 else "")


p_se = None
for h in ("1h",):  # what bench/run.sh runs
    p, d = newest("*-serial-%s-%s.json" % (board, h))
    if not d:
        continue
    p_se = p
    for r in d["results"]:
        mb = r.get("mailbox_bench")
        if r["baud"] == 0 and mb:
            v = mb["latency_us"]["p50"] / 1000
            other("serial (QEMU socket), %s: round trip p50" % harts(d["harts"]), v, "ms",
                  "≤ 2 ms", v <= 2)
            k = mb["throughput"]["kernels_per_s"]
            other("serial (QEMU socket), %s: kernels/s, window full" % harts(d["harts"]), k,
                  "kernels/s", "≥ 1,000", k >= 1000)
        if r["baud"] and d["harts"] == 1 and "stream" in r:
            st = r["stream"]
            other("serial at %s baud: bytes per kernel, window full (sent/received)" % "{:,}".format(r["baud"]),
                  "%.0f / %.0f" % (st["sent"], st["received"]), "bytes")
            other("serial at %s baud: kernels/s, window full (the bytes give %s)" % (
                "{:,}".format(r["baud"]), fmt(st["computed"])), st["measured"], "kernels/s")


out = ["| measurement | hartpool | OpenMP (libgomp) | ratio | unit | target |",
       "|---|---|---|---|---|---|"]
for what, hp, omp, ratio, unit, t in rows:
    out.append("| %s | %s | %s | %s | %s | %s |" % (what, fmt(hp), fmt(omp), ratio, unit, t))
out.append("")
out.append("| measurement (no OpenMP counterpart) | hartpool | unit | target |")
out.append("|---|---|---|---|")
for what, v, unit, t in others:
    out.append("| %s | %s | %s | %s |" % (what, v if isinstance(v, str) else fmt(v), unit, t))
out.append("")
srcs = [p for p in (p_exec, p_kb, p_omp, p_ds, p_demo, p_mb, p_se) if p]
out.append("Sources: %s." % ", ".join(os.path.basename(p) for p in srcs))
n_rows = len(rows) + sum(1 for o in others if o[3])
n_met = sum(1 for r in rows if "not met" not in r[5]) + sum(1 for o in others if o[3] and "not met" not in o[3])
out.append("")
out.append("Targets: %d of %d rows met." % (n_met, n_rows))
text = "\n".join(out)
print(text)
path = os.path.join(res, time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()) + "-compare.md")
with open(path, "w") as f:
    f.write(text + "\n")
print("table: %s" % path, file=sys.stderr)
