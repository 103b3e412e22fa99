#!/usr/bin/env python3
"""Per-hart work from an instruction-count plugin log (qemu/hp-qemu --count):
the sum of each vCPU's WORK regions (markers 2*900 and 2*900+1, see
include/hartpool/marker.h). Prints one JSON object: per-hart work, total,
max (the parallel time of a barrier-free launch), mean and balance."""
import json
import sys

BEGIN, END = 1800, 1801
open_at, work, nv = {}, {}, 0
for line in open(sys.argv[1]):
    f = line.split()
    if f[0] == "vcpu":
        nv = max(nv, int(f[1]) + 1)
    elif f[0] == "mark":
        v, mid, cnt = int(f[1]), int(f[2]), int(f[3])
        if mid == BEGIN:
            open_at[v] = cnt
        elif mid == END and v in open_at:
            work[v] = work.get(v, 0) + cnt - open_at.pop(v)
    elif f[0] == "dropped" and int(f[1]):
        sys.exit("plugin dropped marker records")
per = [work.get(v, 0) for v in range(nv)]
total = sum(per)
mean = total / len(per) if per else 0
print(json.dumps({"per_hart": per, "total": total, "max": max(per or [0]),
                  "mean": mean, "balance": (max(per) / mean) if mean else 0}))
