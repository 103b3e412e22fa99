#!/usr/bin/env python3
"""Preemptions in traces of bench/slices.c pingpong (docs/trace.md): a chunk
parked at a slice's end goes on later as a chunk of the same command and first
work-group, so the chunks beyond the distinct (cmd, first) pairs are
preemptions. Also the gap on a hart from a preempted chunk's end to the next
chunk's start (device time), and the worker harts that ran chunks. Prints one
JSON object.

  bench/slices_trace.py TRACE.json...
"""
import json
import statistics
import sys

pre = spans = 0
gaps, harts = [], set()
for path in sys.argv[1:]:
    with open(path) as f:
        t = json.load(f)
    ev = t["traceEvents"] if isinstance(t, dict) else t
    ch = [e for e in ev if e.get("cat") == "chunk" and e.get("ph") == "X"]
    seen = {}
    for e in ch:
        k = (e["args"]["cmd"], e["args"]["first"])
        seen[k] = seen.get(k, 0) + 1
    spans += len(ch)
    pre += len(ch) - len(seen)
    by = {}
    for e in ch:
        by.setdefault((e["pid"], e["tid"]), []).append(e)
        harts.add((path, e["pid"], e["tid"]))
    for lst in by.values():
        lst.sort(key=lambda e: e["ts"])
        left = {}  # a parked chunk goes on on its own hart
        for e in lst:
            k = (e["args"]["cmd"], e["args"]["first"])
            left[k] = left.get(k, 0) + 1
        for a, b in zip(lst, lst[1:]):
            k = (a["args"]["cmd"], a["args"]["first"])
            left[k] -= 1
            if left[k] > 0:  # a goes on later: it was preempted
                gaps.append(b["ts"] - (a["ts"] + a["dur"]))
n = len(sys.argv) - 1
print(json.dumps({
    "traces": n, "chunks": spans, "preemptions": pre,
    "worker_harts": len(harts) // max(n, 1),
    "switch_gap_us": {"p50": round(statistics.median(gaps), 1),
                      "max": round(max(gaps), 1), "n": len(gaps)} if gaps else None}))
