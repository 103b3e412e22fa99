#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks a timeline written by `hartpool run --trace` or test_trace
(docs/trace.md). No timing is checked, only structure:

    trace_check.py TRACE.json [--cmds FILE] [--harts N] [--dropped]

- the file parses as JSON, with traceEvents and otherData (records,
  dropped, bad_records);
- every hart with events has its thread track, named; no track of a hart
  the device does not have;
- on every track events come in time order, and complete events nest
  (each one ends before the one around it ends);
- the queue tracks' async slices begin and end in pairs;
- with --cmds (lines "cmd Q:I NAME GROUPS", as test_trace prints them):
  every command with groups has chunks covering each of its work-groups
  exactly once (a team's: once per member), on harts other than the
  dispatcher when there are several harts, and is named by its kernel;
- without --dropped, no record was dropped and none was bad; with it, some
  were dropped (a small buffer) and the file is still whole.

Exit status 0 if all hold, 1 with the reasons otherwise.
"""
import json
import sys
from collections import defaultdict

EPS = 0.002  # µs: the file's times have three decimals


def main(argv):
    path, cmds_file, harts, want_dropped = None, None, None, False
    it = iter(argv)
    for a in it:
        if a == "--cmds":
            cmds_file = next(it)
        elif a == "--harts":
            harts = int(next(it))
        elif a == "--dropped":
            want_dropped = True
        else:
            path = a
    errors = []
    with open(path) as f:
        doc = json.load(f)
    evs = doc["traceEvents"]
    other = doc["otherData"]
    for k in ("records", "dropped", "bad_records", "harts", "timer_hz"):
        if k not in other:
            errors.append(f"otherData lacks {k}")
    if harts is not None and other.get("harts") != harts:
        errors.append(f"otherData says {other.get('harts')} harts, not {harts}")
    nharts = other.get("harts", 0)
    if want_dropped:
        if not other.get("dropped"):
            errors.append("nothing dropped with a small buffer")
    elif other.get("dropped") or other.get("bad_records"):
        errors.append(f"dropped {other.get('dropped')}, bad {other.get('bad_records')}")

    named = set()
    tracks = defaultdict(list)
    for e in evs:
        if e["ph"] == "M":
            if e["name"] == "thread_name":
                named.add((e["pid"], e["tid"]))
            continue
        tracks[(e["pid"], e["tid"])].append(e)
    for (pid, tid), lst in tracks.items():
        if (pid, tid) not in named:
            errors.append(f"track {pid}/{tid} has no thread_name")
        if pid == 1 and not 0 <= tid < nharts:
            errors.append(f"a track of hart {tid} of {nharts}")
        last = None
        stack = []  # ends of the open complete events
        for e in lst:
            ts = e["ts"]
            if last is not None and ts < last - EPS:
                errors.append(f"track {pid}/{tid}: {ts} after {last}")
                break
            last = ts
            while stack and stack[-1] <= ts + EPS:
                stack.pop()
            if e["ph"] == "X":
                end = ts + e["dur"]
                if stack and end > stack[-1] + EPS:
                    errors.append(f"track {pid}/{tid}: {e['name']} at {ts} overlaps "
                                  f"the event that ends at {stack[-1]} without nesting")
                    break
                stack.append(end)
    open_ids = defaultdict(int)
    for e in evs:
        if e["ph"] in "be":
            key = (e["id"], e["cat"])
            open_ids[key] += 1 if e["ph"] == "b" else -1
            if open_ids[key] < 0:
                errors.append(f"async {key} ends before it begins")
    if any(open_ids.values()):
        errors.append("async slices left open")

    if cmds_file:
        chunks = defaultdict(list)
        for e in evs:
            if e["ph"] == "X" and e["cat"] == "chunk":
                a = e["args"]
                chunks[a["cmd"]].append((a["first"], a["count"], a.get("team_rank"),
                                         e["tid"], e["name"]))
        ncmds = 0
        for line in open(cmds_file):
            p = line.split()
            if len(p) != 4 or p[0] != "cmd":
                continue
            ncmds += 1
            cmd, name, groups = p[1], p[2], int(p[3])
            got = chunks.get(cmd, [])
            if groups == 0:
                if got:
                    errors.append(f"{cmd} {name}: chunks for a command of no groups")
                continue
            ranks = defaultdict(lambda: [0] * groups)
            for first, count, rank, tid, ename in got:
                if ename != name and not (name == "fill" and ename == "FILL"):
                    errors.append(f"{cmd}: a chunk named {ename}, not {name}")
                if nharts > 1 and tid == 0:
                    errors.append(f"{cmd}: a chunk on the dispatcher")
                if first + count > groups:
                    errors.append(f"{cmd} {name}: chunk {first}+{count} past {groups} groups")
                    continue
                for g in range(first, first + count):
                    ranks[rank][g] += 1
            if not ranks:
                errors.append(f"{cmd} {name}: no chunks")
            for rank, cnt in ranks.items():
                bad = [g for g, n in enumerate(cnt) if n != 1]
                if bad:
                    errors.append(f"{cmd} {name} (rank {rank}): groups {bad[:8]} run "
                                  f"{[cnt[g] for g in bad[:8]]} times")
            if len(ranks) > 1 and None in ranks:
                errors.append(f"{cmd}: team and single-hart chunks mixed")
        if not ncmds:
            errors.append("no cmd lines to compare with")
    for e in errors[:20]:
        print("trace_check:", e)
    if not errors:
        print(f"trace_check: {path}: {sum(len(v) for v in tracks.values())} events on "
              f"{len(tracks)} tracks OK")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
