#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Run Khronos OpenCL CTS suites against hartpool's ICD (docs/conformance.md).

    cts.py [--tier fast|full] [--board B] [--suites "a b"] [--scale X]
           [--cts DIR] [--icd VENDOR.icd] [--out DIR] [--table FILE]
           [--doc FILE] [--record OUT/BOARD/suites.json]

Each suite runs as one process over its sub-tests (the CTS harness takes a
list of names). A sub-test that crashes the process or passes its time limit
is counted (crash, timeout; "hang" when it printed nothing for a minute) and
the suite goes on in a new process from the next sub-test, until the suite's
own limit. Results: OUT/<suite>.log (the raw output), OUT/results.tsv (suite,
sub-test, result, seconds), OUT/suites.json (the counts per suite), and a
markdown table per suite (passed, failed, crashed, timed out, skipped, not
run, time) on stdout and in --table; --doc merges the suites' rows into the
board's table in a markdown file (--record does that for an earlier run).
Exit status 1 if any sub-test failed, crashed or timed out.
"""
import argparse
import fnmatch
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

# name, binary (under test_conformance/), suite limit s, sub-test limit s,
# options, the fast tier's sub-tests ("*": all, "-a b": all but a and b,
# "": not in the tier), the full tier's ("*": all of --list; names or
# patterns such as "quick_*"). The fast tier
# leaves out what takes over ~5 s on a 2-core host (one build per type and
# vector width, or thousands of random cases).
FAST_API_SLOW = ("-kernel_attributes kernel_arg_multi_setup_random "
                 "negative_invalid_arg_size min_max_constant_buffer_size "
                 "get_kernel_arg_info")
SUITES = [
    ("computeinfo", "computeinfo/test_computeinfo", 300, 120, "", "*", "*"),
    ("api", "api/test_api", 1200, 240, "", FAST_API_SLOW, "*"),
    ("events", "events/test_events", 600, 180, "", "*", "*"),
    ("profiling", "profiling/test_profiling", 600, 180, "", "*", "*"),
    ("printf", "printf/test_printf", 900, 240, "",
     "-mixed_format_random double_limits float_limits length_specifier", "*"),
    ("basic", "basic/test_basic", 2400, 300, "",
     "if local_arg_def local_kernel_def loop pointer_cast enqueue_map_buffer "
     "vload_global arraycopy get_global_offset kernel_call_kernel_function "
     "work_item_functions constant_source get_linear_ids "
     "createkernelsinprogram fp2int int2fp global_work_offsets "
     "local_kernel_scope kernel_preprocessor_macros arrayreadwrite "
     "local_linear_id global_linear_id barrier wg_barrier intmath_int "
     "intmath_long kernel_limit_constants kernel_numeric_constants "
     "host_numeric_constants hostptr bufferreadwriterect "
     "kernel_memory_alignment_private",
     "*"),
    ("non_uniform_work_group", "non_uniform_work_group/test_non_uniform_work_group",
     900, 300, "", "*", "*"),
    ("atomics", "atomics/test_atomics", 900, 240, "",
     "atomic_add atomic_cmpxchg atomic_inc atomic_xchg atomic_min", "*"),
    ("subgroups", "subgroups/test_subgroups", 900, 300, "",
     "-subgroup_functions_core", "*"),
    ("commonfns", "commonfns/test_commonfns", 900, 240, "", "", "*"),
    ("geometrics", "geometrics/test_geometrics", 900, 240, "", "", "*"),
    ("relationals", "relationals/test_relationals", 4800, 240, "", "", "*"),
    # integer_ops: its quick sub-tests and the built-in functions, not the
    # exhaustive TYPE_OP ones (char_math, ...: every value of every width)
    ("integer_ops", "integer_ops/test_integer_ops", 3000, 240, "", "",
     "integer_* popcount quick_* unary_ops_* vector_scalar "
     "extended_bit_ops_*"),
    ("conversions", "conversions/test_conversions", 3000, 300, "-w -1", "",
     "conversions"),
    ("math_brute_force", "math_brute_force/test_bruteforce", 5400, 300,
     "-w -1", "math_edge_cases", "*"),
    # SPIR-V programs (its modules: spirv_new/spirv_bin of the CTS build)
    ("spirv_new", "spirv_new/test_spirv_new", 900, 240, "", "*", "*"),
    ("generic_address_space",
     "generic_address_space/test_generic_address_space", 900, 240, "", "*",
     "*"),
    ("SVM", "SVM/test_svm", 900, 240, "", "*", "*"),
]

# Suites that test the compiler's front end (SPIR-V, address spaces), not
# the board: the fast tier runs them on the default board only (a vector
# board builds the same kernels through the same front end).
FRONT_END = {"spirv_new", "generic_address_space"}
DEFAULT_BOARD = "qemu-virt"

START = re.compile(r"([A-Za-z0-9_]+)\.\.\.$")
ENDS = [(re.compile(r"([A-Za-z0-9_]+) passed$"), "pass"),
        (re.compile(r"([A-Za-z0-9_]+) FAILED$"), "fail"),
        (re.compile(r"([A-Za-z0-9_]+) (test not supported|skipped \(requires)"),
         "skip")]
# conversions runs one process per name (a pair such as int_float, or
# "conversions": every pair) and reports by exit status
EACH = {"conversions"}
# Sub-tests that build one program per case (relationals' shuffles: a pair
# of types and vector widths, two programs each; conversions: every pair of
# types, rounding and saturation, about 1,000): a 2-core host takes about
# 0.4 s a build, so their limit is this many times the suite's per-sub-test
# limit.
LONGER = {"shuffle_copy": 4, "shuffle_function_call": 4,
          "shuffle_array_cast": 4, "shuffle_built_in": 4,
          "shuffle_built_in_dual_input": 4, "conversions": 8}


def backtraces(pid, log):
    """Where a process stopped for its time is (every thread), into its log:
    a stall is a bug to find, not a time limit to raise."""
    try:
        bt = subprocess.run(["gdb", "-p", str(pid), "-batch", "-nx", "-ex",
                             "thread apply all bt 30"], capture_output=True,
                            text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        bt = "(no backtrace: %s)\n" % e
    log.write("### cts.py: backtraces of %d before it is stopped\n%s" %
              (pid, bt))
    log.flush()


def run_batch(exe, args, names, env, log, suite_left, per_test):
    """One process over @names. Returns ({name: (result, s)}, the sub-test
    running when it ended or None, why it was stopped or None, rc)."""
    res, cur, last_out = {}, [None, time.time()], [time.time()]
    log.write("### cts.py: %s %s\n" % (exe, " ".join(args)))
    log.flush()
    p = subprocess.Popen(["stdbuf", "-oL", "-eL", exe] + args,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL, env=env,
                         cwd=os.path.dirname(exe), start_new_session=True)

    def reader():
        for raw in p.stdout:
            line = raw.decode("utf-8", "replace")
            log.write(line)
            log.flush()
            last_out[0] = time.time()
            s = line.rstrip("\n")
            m = START.search(s)
            if m and m.group(1) in names:
                cur[0], cur[1] = m.group(1), time.time()
                continue
            for rx, r in ENDS:
                m = rx.search(s)
                if m and m.group(1) in names:
                    res[m.group(1)] = (r, time.time() - cur[1])
                    if cur[0] == m.group(1):
                        cur[0] = None
            if s.startswith("Test skipped while init"):
                res["*init*"] = ("skip", 0)
            if s.startswith("Test failed while init"):
                res["*init*"] = ("fail", 0)
    t = threading.Thread(target=reader, daemon=True)
    t.start()
    t0, why = time.time(), None
    while p.poll() is None:
        time.sleep(0.5)
        now = time.time()
        if now - t0 > suite_left or (
                cur[0] and now - cur[1] > per_test * LONGER.get(cur[0], 1)):
            why = "hang" if now - last_out[0] > 60 else "timeout"
            backtraces(p.pid, log)
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(p.pid, sig)
                except ProcessLookupError:
                    pass
                time.sleep(2)
    p.wait()
    t.join(5)
    try:  # the device (QEMU) the ICD started goes with the process group
        os.killpg(p.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    log.write("### cts.py: exit %d after %.0f s%s\n" %
              (p.returncode, time.time() - t0, " (%s)" % why if why else ""))
    return res, cur[0], why, p.returncode


def list_names(exe, env):
    out = subprocess.run([exe, "--list"], env=env, capture_output=True,
                         text=True, timeout=120,
                         cwd=os.path.dirname(exe)).stdout
    return [l.strip() for l in out.splitlines() if l.startswith("\t")]


def run_suite(suite, a, env, log):
    name, binary, lim, per, opts, fast, full = suite
    exe = os.path.join(a.cts, "build", "test_conformance", binary)
    pick = fast if a.tier == "fast" else full
    lim, per = lim * a.scale, per * a.scale
    if pick == "*" or pick.startswith("-"):
        leave = pick[1:].split()
        names = [n for n in list_names(exe, env) if n not in leave]
    elif "*" in pick:  # patterns over the suite's list
        every = list_names(exe, env)
        names = [n for n in every
                 if any(fnmatch.fnmatchcase(n, p) for p in pick.split())]
    else:
        names = pick.split()
    results, todo, t0 = {}, list(names), time.time()
    while todo and time.time() - t0 < lim:
        left = lim - (time.time() - t0)
        if name in EACH:
            n = todo.pop(0)
            ts = time.time()
            pair = [] if n == "conversions" else [n]
            _, _, why, rc = run_batch(exe, opts.split() + pair, {n}, env, log,
                                      left, per)
            results[n] = (why or ("pass" if rc == 0 else
                                  "crash" if rc < 0 else "fail"),
                          time.time() - ts)
            continue
        # non_uniform_work_group's harness drops its first argument
        first = todo[:1] if name == "non_uniform_work_group" else []
        res, cur, why, rc = run_batch(exe, opts.split() + first + todo,
                                      set(todo), env, log, left, per)
        if "*init*" in res:
            for n in todo:
                results[n] = (res["*init*"][0], 0)
            todo = []
            break
        results.update(res)
        if cur is not None:  # it ended inside cur: crashed or stopped
            results[cur] = (why or "crash", 0)
        todo = [n for n in todo if n not in results]
        if why is None and cur is None:
            # ended between sub-tests (a crash after one ended, or its
            # summary): the rest did not run in this process
            if todo and rc < 0:
                results[todo.pop(0)] = ("crash", 0)
            elif todo:
                break
    for n in todo:
        results[n] = ("not run", 0)
    return names, results, time.time() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tier", choices=("fast", "full"), default="full")
    ap.add_argument("--list-fast", action="store_true",
                    help="print the fast tier's suites and stop")
    ap.add_argument("--board", default=os.environ.get("BOARD", "qemu-virt"))
    ap.add_argument("--suites", default="")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--cts", default=os.environ.get("CTS_DIR", ""))
    ap.add_argument("--icd", default="build/host/hartpool.icd")
    ap.add_argument("--out", default="build/cts")
    ap.add_argument("--table", default="")
    ap.add_argument("--doc", default="",
                    help="a markdown file whose section between <!-- cts "
                    "BOARD --> and <!-- /cts BOARD --> gets the table")
    ap.add_argument("--results", default="",
                    help="with --doc: the board's whole table into this file "
                    "too")
    ap.add_argument("--record", default="",
                    help="record OUT/suites.json of an earlier run into --doc "
                    "and stop")
    a = ap.parse_args()
    if a.record:
        with open(a.record) as f:
            record(a, [(n, c, secs, []) for n, c, secs in json.load(f)])
        return 0
    if a.list_fast:
        print("\n".join(s[0] for s in SUITES if s[5] and (
            a.board == DEFAULT_BOARD or s[0] not in FRONT_END)))
        return 0
    a.cts = os.path.abspath(a.cts) if a.cts else ""
    if not a.cts or not os.path.isdir(os.path.join(a.cts, "build", "test_conformance")):
        sys.exit("cts.py: no CTS build under %s (CTS_DIR=; docs/conformance.md "
                 "says how to build it)" % a.cts)
    out = os.path.join(a.out, a.board)
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ, OCL_ICD_VENDORS=os.path.abspath(a.icd),
               HARTPOOL_BOARD=a.board)
    only = a.suites.split()
    rows, bad, tsv = [], 0, []
    for s in SUITES:
        if (only and s[0] not in only) or (not only and a.tier == "fast"
                                           and not s[5]):
            continue
        with open(os.path.join(out, s[0] + ".log"), "w") as log:
            names, res, secs = run_suite(s, a, env, log)
        count = {k: 0 for k in ("pass", "fail", "crash", "timeout", "hang",
                                "skip", "not run")}
        for n in names:
            r, t = res.get(n, ("not run", 0))
            count[r] += 1
            tsv.append("%s\t%s\t%s\t%.1f" % (s[0], n, r, t))
        broken = [n for n in names
                  if res.get(n, ("",))[0] in ("fail", "crash", "timeout", "hang")]
        bad += len(broken) + count["not run"]
        rows.append((s[0], count, secs, broken))
        print("%s: %d passed, %d failed, %d crashed, %d timed out, %d skipped, "
              "%d not run (%.0f s)%s" % (
                  s[0], count["pass"], count["fail"], count["crash"],
                  count["timeout"] + count["hang"], count["skip"],
                  count["not run"], secs,
                  ("  bad: " + " ".join(broken)) if broken else ""),
              flush=True)
    with open(os.path.join(out, "results.tsv"), "w") as f:
        f.write("suite\tsub-test\tresult\tseconds\n" + "\n".join(tsv) + "\n")
    with open(os.path.join(out, "suites.json"), "w") as f:
        json.dump([[n, c, secs] for n, c, secs, _ in rows], f)
    table = ["| suite | passed | failed | crashed | timed out | skipped | "
             "not run | time |", "|---|---|---|---|---|---|---|---|"]
    for name, c, secs, _ in rows:
        table.append("| %s | %d | %d | %d | %d | %d | %d | %.0f s |" % (
            name, c["pass"], c["fail"], c["crash"], c["timeout"] + c["hang"],
            c["skip"], c["not run"], secs))
    total = "cts: %d passed, %d failed of %d sub-tests" % (
        sum(r[1]["pass"] for r in rows), bad,
        sum(sum(r[1].values()) for r in rows))
    text = "\n".join(table) + "\n"
    if a.doc:
        record(a, rows)
    if a.table:
        with open(a.table, "w") as f:
            f.write(text)
    print(text, end="")
    print(total)
    return 1 if bad else 0


def record(a, rows):
    """The rows into --doc, in the table between the board's markers (made
    at the end when there is none): a suite run again replaces its row,
    the others stay."""
    begin, end = "<!-- cts %s -->" % a.board, "<!-- /cts %s -->" % a.board
    try:
        doc = open(a.doc).read()
    except FileNotFoundError:
        doc = ""
    old = {}
    if begin in doc and end in doc:
        section = doc[doc.index(begin):doc.index(end)]
        for line in section.splitlines():
            cells = [c.strip() for c in line.strip("|").split("|")]
            if len(cells) == 9 and cells[0] not in ("suite", "---"):
                old[cells[0]] = cells
    for name, c, secs, _ in rows:
        old[name] = [name, str(c["pass"]), str(c["fail"]), str(c["crash"]),
                     str(c["timeout"] + c["hang"]), str(c["skip"]),
                     str(c["not run"]), "%.0f s" % secs,
                     time.strftime("%Y-%m-%d")]
    order = [s[0] for s in SUITES]
    lines = ["| suite | passed | failed | crashed | timed out | skipped | "
             "not run | time | run |", "|---|---|---|---|---|---|---|---|---|"]
    for name in sorted(old, key=lambda n: order.index(n) if n in order else 99):
        lines.append("| " + " | ".join(old[name]) + " |")
    tot = [sum(int(old[n][i]) for n in old) for i in range(1, 7)]
    body = "%s\nOn %s: %d passed, %d failed, %d crashed, %d timed out, %d " \
           "skipped, %d not run.\n\n%s\n%s" % (
               begin, a.board, *tot, "\n".join(lines), end)
    if begin in doc and end in doc:
        doc = doc[:doc.index(begin)] + body + doc[doc.index(end) + len(end):]
    else:
        doc += "\n" + body + "\n"
    with open(a.doc, "w") as f:
        f.write(doc)
    if a.results:
        os.makedirs(os.path.dirname(a.results) or ".", exist_ok=True)
        with open(a.results, "w") as f:
            f.write("# The Khronos OpenCL CTS on %s (make cts)\n\n%s\n" % (
                a.board, body[len(begin):-len(end)].strip()))


if __name__ == "__main__":
    sys.exit(main())
