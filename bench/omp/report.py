#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tables and JSON of the OpenMP peer (bench/omp/run.sh).

  report.py DIR OUT.json META.json

DIR holds, per run, NAME.out (the program's output, from a run without the
plugin: wall times) and, when the plugin was loaded, NAME.marks (the
plugin's `mark V ID COUNT` / `vcpu V insns N` lines from a second run with
the same arguments). Region R's cost on a vCPU (= thread) is COUNT at
marker 2R+1 minus COUNT at the preceding marker 2R; the k-th pair on each
vCPU is repetition k. META.json is merged into the JSON's top level.
"""
import collections
import json
import os
import statistics
import sys


def fields(line):
    return dict(f.split("=", 1) for f in line.split()[1:] if "=" in f)


def spread(v):
    return {"median": statistics.median(v), "min": min(v), "max": max(v),
            "n": len(v)} if v else None


def read_marks(path):
    """{region: [ {vcpu: instructions} per repetition ]} or None."""
    if not os.path.exists(path):
        return None
    per_vcpu = collections.defaultdict(list)
    for line in open(path):
        f = line.split()
        if len(f) == 4 and f[0] == "mark":
            per_vcpu[int(f[1])].append((int(f[3]), int(f[2])))
        elif f[:1] == ["dropped"]:
            print("omp: %s: the plugin dropped %s markers" % (path, f[1]),
                  file=sys.stderr)
    reps = collections.defaultdict(list)  # region -> [ {vcpu: n} ]
    for v, marks in per_vcpu.items():
        marks.sort(key=lambda m: m[0])  # counts grow on each vCPU
        start, k = {}, collections.Counter()
        for count, mid in marks:
            r = mid // 2
            if mid % 2 == 0:
                start[r] = count
            elif r in start:
                rows = reps[r]
                if len(rows) <= k[r]:
                    rows.append({})
                rows[k[r]][v] = count - start.pop(r)
                k[r] += 1
    return reps


def epcc(lines, marks, threads):
    benches, wall = {}, collections.defaultdict(list)
    for line in lines:
        kind = line.split()[0] if line.strip() else ""
        if kind == "bench":
            b = fields(line)
            benches[b["name"]] = b
        elif kind == "wall":
            w = fields(line)
            wall[w["name"]].append(w)
    rows = []
    for order, (name, b) in enumerate(benches.items()):
        count, total = float(b["count"]), float(b["total"])
        ov = [(int(w["test_ns"]) - int(w["ref_ns"])) / count / 1e3
              for w in wall[name]]
        row = {"order": order, "threads": threads, "name": name,
               "unit": b["unit"], "params": fields(lines[0]),
               "count_per_thread": count, "count_total": total,
               "wall_us": spread(ov), "instructions": None}
        if marks is not None:
            t, r = marks.get(int(b["test"]), []), marks.get(int(b["ref"]), [])
            crit = [(max(x.values()) - max(y.values())) / count
                    for x, y in zip(t, r)]
            tot = [(sum(x.values()) - sum(y.values())) / total
                   for x, y in zip(t, r)]
            if crit:
                row["instructions"] = spread(crit)
                row["instructions"]["all_threads"] = statistics.median(tot)
                row["instructions"]["threads_seen"] = max(len(x) for x in t)
        rows.append(row)
    return rows


def kernels(lines, marks, threads):
    head, variants, wall, checks, serial = {}, [], collections.defaultdict(list), {}, None
    for line in lines:
        kind = line.split()[0] if line.strip() else ""
        f = fields(line)
        if kind == "kernel":
            head = f
        elif kind == "serial":
            serial = int(f["ns"])
        elif kind == "variant":
            variants.append(f)
        elif kind == "wall":
            wall[f["variant"]].append(int(f["ns"]) / 1e6)
        elif kind == "check":
            checks[f["variant"]] = line.split()[-1]
    rows = []
    for v in variants:
        row = {"threads": threads, "kernel": head.get("name"),
               "size": head.get("size"), "variant": v["name"],
               "check": checks.get(v["name"], "missing"),
               "wall_ms": spread(wall[v["name"]]),
               "serial_wall_ms": serial / 1e6 if serial else None,
               "instructions": None}
        if marks is not None:
            work = marks.get(int(v["work"]), [])
            allr = marks.get(int(v["all"]), [])
            ser = marks.get(1, [])
            mx = [max(x.values()) for x in work]
            mean = [statistics.mean(x.values()) for x in work]
            bal = [a / b for a, b in zip(mx, mean) if b]
            if mx:
                row["instructions"] = {
                    "max_thread": spread(mx),
                    "mean_thread": statistics.median(mean),
                    "balance": spread(bal),
                    "threads_seen": max(len(x) for x in work),
                    "master_fork_join": statistics.median(
                        [x.get(0, 0) for x in allr]) if allr else None,
                    "serial": ser[0].get(0) if ser else None}
        rows.append(row)
    return rows


def num(x, f="%.1f"):
    return "-" if x is None else f % x


def main():
    d, out, meta = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
    ep, kr = [], []
    for name in sorted(os.listdir(d)):
        if not name.endswith(".out"):
            continue
        lines = open(os.path.join(d, name)).read().splitlines()
        if not lines:
            continue
        marks = read_marks(os.path.join(d, name[:-4] + ".marks"))
        threads = int(fields(lines[0]).get("threads", 0))
        if lines[0].startswith("epcc"):
            ep += epcc(lines, marks, threads)
        elif lines[0].startswith("kernel"):
            kr += kernels(lines, marks, threads)
    ep.sort(key=lambda r: (r["order"], r["threads"]))
    for r in ep:
        del r["order"]
    print("EPCC overheads (instructions: max over threads, test - reference,"
          " per construct per thread; all: every thread's instructions per"
          " construct; wall: master, us)")
    print("%-11s %-9s %3s %9s %9s %9s %10s %9s %9s %9s" % (
        "construct", "per", "thr", "insns med", "min", "max", "all thr",
        "wall med", "min", "max"))
    for r in ep:
        i, w = r["instructions"] or {}, r["wall_us"] or {}
        print("%-11s %-9s %3d %9s %9s %9s %10s %9s %9s %9s" % (
            r["name"], r["unit"], r["threads"], num(i.get("median")),
            num(i.get("min")), num(i.get("max")), num(i.get("all_threads")),
            num(w.get("median"), "%.3f"), num(w.get("min"), "%.3f"),
            num(w.get("max"), "%.3f")))
    print()
    print("Kernels (instructions: per thread inside the loop, max = parallel"
          " time, balance = max/mean; fork-join: master's instructions for"
          " the whole construct; wall: master fork to join, ms)")
    print("%-7s %-8s %-22s %3s %12s %6s %12s %12s %9s %9s %9s %5s" % (
        "kernel", "schedule", "size", "thr", "insns max", "bal",
        "fork-join", "serial", "wall med", "min", "max", "check"))
    kr.sort(key=lambda r: (r["kernel"], r["variant"], r["threads"]))
    for r in kr:
        i, w = r["instructions"] or {}, r["wall_ms"] or {}
        print("%-7s %-8s %-22s %3d %12s %6s %12s %12s %9s %9s %9s %5s" % (
            r["kernel"], r["variant"], r["size"], r["threads"],
            num((i.get("max_thread") or {}).get("median"), "%.0f"),
            num((i.get("balance") or {}).get("median"), "%.3f"),
            num(i.get("master_fork_join"), "%.0f"),
            num(i.get("serial"), "%.0f"),
            num(w.get("median"), "%.3f"), num(w.get("min"), "%.3f"),
            num(w.get("max"), "%.3f"), r["check"]))
    meta.update({"epcc": ep, "kernels": kr})
    with open(out, "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    bad = [r for r in kr if r["check"] != "ok"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
