#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check the buffers `hartpool run ... --print` printed against an expect
file (tests/opencl/kernels/builtins_values.expect).

    check_values.py EXPECT RUN_OUTPUT

EXPECT lines: `f INDEX VALUE ULP` (buffer 0, floats: within ULP units in
the last place of VALUE as a float, widened by what the printing rounded
away: %g keeps 6 significant digits) or `i INDEX VALUE` (buffer 1, ints:
equal); `#` starts a comment. RUN_OUTPUT holds lines `bufN TYPE[COUNT]: v
v ...` (other lines are ignored). Exit status 0 when every value matches.
"""
import math
import re
import struct
import sys


def ulp32(x):
    """The spacing of floats at x (single precision)."""
    x = abs(x)
    if x == 0 or math.isinf(x) or math.isnan(x):
        return 2.0 ** -149
    b = struct.unpack("<I", struct.pack("<f", x))[0]
    nxt = struct.unpack("<f", struct.pack("<I", b + 1))[0]
    return nxt - x


def printed_precision(tok, v):
    """Half a unit of the last digit the printing kept (at least 6
    significant digits, as %g prints)."""
    if v == 0 or math.isinf(v) or math.isnan(v):
        return 0.0
    mant = re.sub(r"[eE].*$", "", tok).lstrip("+-").replace(".", "")
    digits = max(len(mant.lstrip("0")), 6)
    exp10 = math.floor(math.log10(abs(v)))
    return 0.5 * 10.0 ** (exp10 - digits + 1)


def parse_run(path):
    bufs = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*buf(\d+)\s+(\w+)\[(\d+)\]:(.*)$", line)
            if not m:
                continue
            toks = [t for t in m.group(4).split() if t != "..."]
            vals = []
            for t in toks:
                if t.startswith("("):
                    break
                vals.append(t)
            bufs[int(m.group(1))] = (m.group(2), vals)
    return bufs


def main():
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    bufs = parse_run(sys.argv[2])
    bad = 0
    checked = 0
    with open(sys.argv[1]) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].split()
            if not line:
                continue
            kind, idx, want = line[0], int(line[1]), line[2]
            buf = 0 if kind == "f" else 1
            if buf not in bufs or idx >= len(bufs[buf][1]):
                print("index %s %d: not printed" % (kind, idx))
                bad += 1
                continue
            tok = bufs[buf][1][idx]
            checked += 1
            if kind == "i":
                if int(tok) != int(want):
                    print("out_i[%d] = %s, want %s" % (idx, tok, want))
                    bad += 1
                continue
            got, exp = float(tok), float(want)
            if math.isnan(exp):
                ok = math.isnan(got)
            elif math.isinf(exp):
                ok = got == exp
            else:
                tol = int(line[3]) * ulp32(exp) + printed_precision(tok, got)
                ok = abs(got - exp) <= tol * (1 + 1e-12)
            if not ok:
                print("out_f[%d] = %s, want %s (%s ulp)" %
                      (idx, tok, want, line[3]))
                bad += 1
    print("%d values checked, %d wrong" % (checked, bad))
    return 1 if bad or not checked else 0


sys.exit(main())
