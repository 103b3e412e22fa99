#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tables and the result file of bench/barrier.sh from its raw outputs.

  bench/barrier.py DIR OUT.json --board B --harts N --host TEXT

DIR holds what bench/barrier.sh wrote:
  teambar-CFG-count.txt       console of the plugin run (single-threaded TCG,
                              --icount-shift 10) and count-CFG.txt, the
                              plugin's records
  teambar-CFG-MODE-REP.txt    console of a run for wall time (MODE multi or
                              single)
  kernels.txt                 one line a run: ACCEL CFG TEAM WARM JSON
                              (WARM 1: the warm-up run, not counted)
CFG is `unit` (the board as it is) or `software` (-append
hartpool.barrier_unit=0).
"""
import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import time

CFGS = ("software", "unit")
LINE = re.compile(r"^bench teambar: (team=.*)$")


def parse_console(path):
    """The case lines of a teambar console: {(team, kind): fields}."""
    cases, ok = {}, False
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line == "bench teambar: OK":
                ok = True
            m = LINE.match(line)
            if not m:
                continue
            d = dict(kv.split("=", 1) for kv in m.group(1).split())
            for k, v in d.items():
                if v.isdigit():
                    d[k] = int(v)
            cases[(d["team"], d["kind"])] = d
    if not ok:
        sys.exit(f"barrier.py: {path}: the run did not end with OK")
    for d in cases.values():
        if d["early"] or d["elect_errors"]:
            sys.exit(f"barrier.py: {path}: a barrier let a hart pass early "
                     f"or elected wrongly: {d}")
    return cases


def parse_counts(path, rounds):
    """Per region: instructions per barrier per hart (mean, min, max over
    the harts that ran it)."""
    begin, per = {}, {}
    with open(path) as f:
        for line in f:
            p = line.split()
            if not p or p[0] != "mark":
                continue
            hart, mid, n = int(p[1]), int(p[2]), int(p[3])
            region = mid // 2
            if mid % 2 == 0:
                begin[(hart, region)] = n
            elif (hart, region) in begin:
                per.setdefault(region, []).append(
                    (n - begin.pop((hart, region))) / rounds)
    return {r: {"mean": round(statistics.mean(v), 1),
                "min": round(min(v), 1), "max": round(max(v), 1),
                "harts": len(v)} for r, v in per.items()}


def summary(values):
    return {"median": round(statistics.median(values), 2),
            "min": round(min(values), 2), "max": round(max(values), 2),
            "runs": len(values)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("out")
    ap.add_argument("--board", required=True)
    ap.add_argument("--harts", type=int, required=True)
    ap.add_argument("--host", default="")
    ap.add_argument("--kernel-args", default="{}")
    a = ap.parse_args()

    # ---- teambar ---------------------------------------------------------
    teambar = []
    for cfg in CFGS:
        count_console = os.path.join(a.dir, f"teambar-{cfg}-count.txt")
        cases = parse_console(count_console)
        rounds = next(iter(cases.values()))["rounds"]
        counts = parse_counts(os.path.join(a.dir, f"count-{cfg}.txt"),
                              rounds)
        wall = {}
        for mode in ("multi", "single"):
            for path in sorted(glob.glob(os.path.join(
                    a.dir, f"teambar-{cfg}-{mode}-*.txt"))):
                for key, d in parse_console(path).items():
                    wall.setdefault((key, mode), []).append(d)
        for (team, kind), d in sorted(cases.items()):
            row = {"config": cfg, "team": team, "kind": kind,
                   "backend": d["backend"], "teams": d["teams"],
                   "instructions_per_barrier_per_hart":
                       counts.get(d["region"]),
                   "count_rounds": rounds}
            for mode in ("multi", "single"):
                runs = wall.get(((team, kind), mode), [])
                if runs:
                    s = summary([r["ns_per_barrier"] / 1000 for r in runs])
                    s["rounds"] = runs[0]["rounds"]
                    s["backend"] = runs[0]["backend"]
                    row[f"us_per_barrier_{mode}"] = s
            teambar.append(row)

    def find(cfg, team, kind="team"):
        for r in teambar:
            if (r["config"], r["team"], r["kind"]) == (cfg, team, kind):
                return r
        return None

    teams = sorted({r["team"] for r in teambar})
    # Columns: (name, config, kind). sw-wait: the software team barrier
    # with hal_barrier_wait (polls, then sleeps: the pool's joins);
    # sw-sleep: the same with the arrive/sleep loop (the kernels'
    # work-group barriers); unit: the unit, hal_barrier_wait.
    cols = (("sw-wait", "software", "team"),
            ("sw-sleep", "software", "team_sleep"),
            ("unit", "unit", "team"))
    print(f"team barriers on {a.board}, {a.harts} harts, all teams at once "
          "(sw: -append hartpool.barrier_unit=0)")
    print("  sw-wait: hal_barrier_wait, polls then sleeps (the pool's "
          "joins); sw-sleep: arrive/sleep loop, no polls (work-group "
          "barriers); unit: the barrier unit")
    print("  instr: per hart per barrier, mean over the harts (plugin, "
          "single-threaded TCG, icount shift 10)")
    print("  us: wall time per barrier round (device timer, slowest hart, "
          "median of runs) under multi- and single-threaded TCG")
    names = [c[0] for c in cols]
    print("  %4s | %-26s | %-26s | %-26s" % (
        "", "instr/barrier/hart", "us/barrier, multi", "us/barrier, single"))
    print("  %4s | %8s %8s %8s | %8s %8s %8s | %8s %8s %8s" % (
        ("team",) + tuple(names) * 3))

    def ins(r):
        c = r and r["instructions_per_barrier_per_hart"]
        return c["mean"] if c else None

    def us(r, mode):
        v = r and r.get(f"us_per_barrier_{mode}")
        return v["median"] if v else None

    table1 = []
    for t in teams:
        rs = [find(cfg, t, kind) for _, cfg, kind in cols]
        vals = ([ins(r) for r in rs] + [us(r, "multi") for r in rs] +
                [us(r, "single") for r in rs])
        keys = ([f"{n}_instr" for n in names] +
                [f"{n}_us_multi" for n in names] +
                [f"{n}_us_single" for n in names])
        table1.append(dict(zip(["team"] + keys, [t] + vals)))
        print("  %4d | %8s %8s %8s | %8s %8s %8s | %8s %8s %8s" % ((t,) + tuple(
            "-" if v is None else "%.1f" % v for v in vals)))
        un = rs[2]
        if un and un["backend"] != "unit":
            print(f"  (team {t}: the unit run got backend "
                  f"{un['backend']}, not the unit)")

    # ---- kernels ---------------------------------------------------------
    kern = {}
    kpath = os.path.join(a.dir, "kernels.txt")
    if os.path.exists(kpath):
        with open(kpath) as f:
            for line in f:
                accel, cfg, team, warm, js = line.split(" ", 4)
                d = json.loads(js)
                if d["status"] != "OK" or d["check"] != "OK":
                    sys.exit(f"barrier.py: a kernel run failed: {line}")
                if warm == "1":
                    continue
                k = (d["kernel"], int(team), accel)
                kern.setdefault(k, {}).setdefault(cfg, []).append(
                    d["device_us"] / 1000)
    kernels = []
    if kern:
        print()
        print(f"kernels on {a.board}, {a.harts} harts, groups spread over "
              "teams (team 1: none, the control), --check: device time "
              "(ms, median of runs)")
        print("  %-12s %4s %-7s %22s %22s %8s" % (
            "kernel", "team", "TCG", "software ms [min-max]",
            "unit ms [min-max]", "unit/sw"))
        for (kname, team, accel), by in sorted(
                kern.items(), key=lambda kv: (kv[0][0], kv[0][2], kv[0][1])):
            row = {"kernel": kname, "team": team, "accel": accel,
                   "args": json.loads(a.kernel_args).get(kname, "")}
            for cfg in CFGS:
                if cfg in by:
                    row[f"{cfg}_ms"] = summary(by[cfg])
            kernels.append(row)
            sw = row.get("software_ms", {}).get("median")
            un = row.get("unit_ms", {}).get("median")
            ratio = "%.2f" % (un / sw) if sw and un else "-"
            if sw and un:
                row["unit_over_software"] = round(un / sw, 3)

            def cell(cfg):
                v = row.get(f"{cfg}_ms")
                return ("%.1f [%.0f-%.0f]" % (v["median"], v["min"], v["max"])
                        if v else "-")

            print("  %-12s %4d %-7s %22s %22s %8s" % (
                kname, team, accel, cell("software"), cell("unit"), ratio))

    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True,
                                check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "none"
    res = {"bench": "barrier", "board": a.board, "harts": a.harts,
           "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
           "commit": commit, "host": a.host,
           "method": {
               "configs": "unit: the board as it is; software: "
                          "-append hartpool.barrier_unit=0",
               "instructions": "plugin per-hart region of the timed "
                               "loop / rounds; single-threaded TCG, "
                               "icount shift 10",
               "wall": "device timer ticks of the timed loop on the "
                       "slowest hart / rounds; multi- and single-threaded "
                       "TCG, no plugin, no icount",
               "kernels": "hartpool run --check --json device_us, one "
                          "launch per run on a device kept up, first run "
                          "(warm-up) dropped"},
           "summary": table1, "teambar": teambar, "kernels": kernels}
    with open(a.out, "w") as f:
        json.dump(res, f, indent=1)
        f.write("\n")
    print(f"results: {a.out}")


if __name__ == "__main__":
    main()
