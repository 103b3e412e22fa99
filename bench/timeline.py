#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Draws a hartpool timeline (the Trace Event Format file of `hartpool run
--trace` or test_trace, docs/trace.md) as a PNG, with nothing but the
standard library (the machine has neither matplotlib nor gnuplot): a
raster, a 5x7 bitmap font, zlib for the PNG.

    timeline.py TRACE.json OUT.png [--title TEXT] [--width PIXELS]

One row per hart (chunks of work-groups coloured by kernel, each chunk
outlined; team-barrier waits as dark bars in the row's lower part; sleeps
as a thin grey line; wake-ups as red ticks; on the dispatcher's row the
packets as black ticks and completions as green ones), then one row per
queue (each command's life: pale while it waits, in its kernel's colour
while it runs), a time axis in ms, and the kernels' colours.
"""
import json
import struct
import sys
import zlib

# ---- a 5x7 font (upper case, digits, some punctuation) -----------------
FONT = {
    "A": "01110 10001 10001 11111 10001 10001 10001",
    "B": "11110 10001 10001 11110 10001 10001 11110",
    "C": "01110 10001 10000 10000 10000 10001 01110",
    "D": "11110 10001 10001 10001 10001 10001 11110",
    "E": "11111 10000 10000 11110 10000 10000 11111",
    "F": "11111 10000 10000 11110 10000 10000 10000",
    "G": "01110 10001 10000 10111 10001 10001 01111",
    "H": "10001 10001 10001 11111 10001 10001 10001",
    "I": "01110 00100 00100 00100 00100 00100 01110",
    "J": "00111 00010 00010 00010 00010 10010 01100",
    "K": "10001 10010 10100 11000 10100 10010 10001",
    "L": "10000 10000 10000 10000 10000 10000 11111",
    "M": "10001 11011 10101 10101 10001 10001 10001",
    "N": "10001 11001 10101 10011 10001 10001 10001",
    "O": "01110 10001 10001 10001 10001 10001 01110",
    "P": "11110 10001 10001 11110 10000 10000 10000",
    "Q": "01110 10001 10001 10001 10101 10010 01101",
    "R": "11110 10001 10001 11110 10100 10010 10001",
    "S": "01111 10000 10000 01110 00001 00001 11110",
    "T": "11111 00100 00100 00100 00100 00100 00100",
    "U": "10001 10001 10001 10001 10001 10001 01110",
    "V": "10001 10001 10001 10001 10001 01010 00100",
    "W": "10001 10001 10001 10101 10101 10101 01010",
    "X": "10001 10001 01010 00100 01010 10001 10001",
    "Y": "10001 10001 01010 00100 00100 00100 00100",
    "Z": "11111 00001 00010 00100 01000 10000 11111",
    "0": "01110 10001 10011 10101 11001 10001 01110",
    "1": "00100 01100 00100 00100 00100 00100 01110",
    "2": "01110 10001 00001 00010 00100 01000 11111",
    "3": "11111 00010 00100 00010 00001 10001 01110",
    "4": "00010 00110 01010 10010 11111 00010 00010",
    "5": "11111 10000 11110 00001 00001 10001 01110",
    "6": "00110 01000 10000 11110 10001 10001 01110",
    "7": "11111 00001 00010 00100 01000 01000 01000",
    "8": "01110 10001 10001 01110 10001 10001 01110",
    "9": "01110 10001 10001 01111 00001 00010 01100",
    " ": "00000 00000 00000 00000 00000 00000 00000",
    ".": "00000 00000 00000 00000 00000 01100 01100",
    ",": "00000 00000 00000 00000 01100 00100 01000",
    ":": "00000 01100 01100 00000 01100 01100 00000",
    "-": "00000 00000 00000 11111 00000 00000 00000",
    "_": "00000 00000 00000 00000 00000 00000 11111",
    "(": "00010 00100 01000 01000 01000 00100 00010",
    ")": "01000 00100 00010 00010 00010 00100 01000",
    "/": "00001 00010 00010 00100 01000 01000 10000",
    "+": "00000 00100 00100 11111 00100 00100 00000",
    "=": "00000 00000 11111 00000 11111 00000 00000",
    "%": "11001 11010 00010 00100 01000 01011 10011",
    "#": "01010 11111 01010 01010 01010 11111 01010",
    "'": "00100 00100 01000 00000 00000 00000 00000",
    "?": "01110 10001 00001 00010 00100 00000 00100",
    "<": "00010 00100 01000 10000 01000 00100 00010",
    ">": "01000 00100 00010 00001 00010 00100 01000",
}
GLYPHS = {c: [[ch == "1" for ch in row] for row in g.split()] for c, g in FONT.items()}

PALETTE = [
    (31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40),
    (148, 103, 189), (140, 86, 75), (227, 119, 194), (188, 189, 34),
    (23, 190, 207), (127, 127, 127),
]


class Canvas:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.px = bytearray(b"\xff" * (w * h * 3))

    def rect(self, x0, y0, x1, y1, c):
        x0, x1 = max(0, int(x0)), min(self.w, int(x1))
        y0, y1 = max(0, int(y0)), min(self.h, int(y1))
        if x1 <= x0 or y1 <= y0:
            return
        row = bytes(c) * (x1 - x0)
        for y in range(y0, y1):
            o = (y * self.w + x0) * 3
            self.px[o:o + len(row)] = row

    def text(self, x, y, s, c=(0, 0, 0), scale=2):
        for ch in s.upper():
            g = GLYPHS.get(ch, GLYPHS["?"])
            for r, bits in enumerate(g):
                for k, on in enumerate(bits):
                    if on:
                        self.rect(x + k * scale, y + r * scale,
                                  x + (k + 1) * scale, y + (r + 1) * scale, c)
            x += 6 * scale
        return x

    def png(self, path):
        raw = b"".join(b"\x00" + bytes(self.px[y * self.w * 3:(y + 1) * self.w * 3])
                       for y in range(self.h))

        def chunk(kind, data):
            c = struct.pack(">I", len(data)) + kind + data
            return c + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)

        with open(path, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n")
            f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", self.w, self.h, 8, 2, 0, 0, 0)))
            f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
            f.write(chunk(b"IEND", b""))


def pale(c, f=0.35):
    return tuple(int(255 - (255 - v) * f) for v in c)


def dark(c, f=0.6):
    return tuple(int(v * f) for v in c)


def main(argv):
    args = [a for a in argv]
    title, width = None, 1600
    if "--title" in args:
        i = args.index("--title")
        title = args[i + 1]
        del args[i:i + 2]
    if "--width" in args:
        i = args.index("--width")
        width = int(args[i + 1])
        del args[i:i + 2]
    src, out = args
    doc = json.load(open(src))
    evs = [e for e in doc["traceEvents"] if e["ph"] != "M"]
    names = {}
    for e in doc["traceEvents"]:
        if e["ph"] == "M" and e["name"] == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
    other = doc.get("otherData", {})
    harts = sorted({e["tid"] for e in evs if e["pid"] == 1})
    queues = sorted({e["tid"] for e in evs if e["pid"] == 2})
    # The window: the device's events (queue slices may begin earlier).
    dev = [e for e in evs if e["pid"] == 1]
    t0 = min(e["ts"] for e in dev)
    t1 = max(e["ts"] + e.get("dur", 0) for e in dev)
    span = max(t1 - t0, 1.0)

    kernels = []
    for e in evs:
        if e.get("cat") in ("chunk", "command") and e["ph"] in "Xb" and e["name"] not in kernels:
            kernels.append(e["name"])
    color = {k: PALETTE[i % len(PALETTE)] for i, k in enumerate(kernels)}

    # Commands of a queue that overlap (an out-of-order queue) go in
    # lanes of their own.
    lives, opened = [], {}
    for e in evs:
        if e["pid"] == 2 and e["cat"] == "command":
            if e["ph"] == "b":
                opened[e["id"]] = e
            elif e["id"] in opened:
                b = opened.pop(e["id"])
                lives.append((b["ts"], e["ts"], e["tid"], b["name"], e["id"]))
    lives.sort()
    lane_of, lane_end = {}, {}
    for b, e, q, _, i in lives:
        ends = lane_end.setdefault(q, [])
        k = next((k for k, t in enumerate(ends) if t <= b), len(ends))
        if k == len(ends):
            ends.append(e)
        ends[k] = max(e, b + span / 400)
        lane_of[i] = k
    lanes = {q: max(1, len(lane_end.get(q, []))) for q in queues}

    left, right, top, rowh = 250, 30, 60 if title else 24, 26
    lane_h = 12
    rows = len(harts) + sum((lanes[q] * lane_h + 8) / rowh for q in queues)
    legend_rows = (len(kernels) + 4) // 5 + 1
    height = int(top + rows * rowh + 20 + 50 + legend_rows * 24 + 10)
    cv = Canvas(width, height)
    plot = width - left - right

    def x(ts):
        return left + (ts - t0) / span * plot

    if title:
        cv.text(left, 16, title, scale=2)
    y = top
    rowy = {}
    for h in harts:
        rowy[(1, h)] = y
        y += rowh
    sep = y
    rowhs = {}
    for q in queues:
        rowy[(2, q)] = y
        rowhs[(2, q)] = lanes[q] * lane_h + 8
        y += rowhs[(2, q)]
    bottom = y
    # Row backgrounds and labels.
    for (pid, tid), ry in rowy.items():
        if (list(rowy).index((pid, tid))) % 2:
            cv.rect(left, ry, left + plot, ry + rowhs.get((pid, tid), rowh),
                    (246, 246, 246))
        label = names.get((pid, tid), f"{tid}")
        cv.text(8, ry + 6, label[:20], scale=2)
    if queues:
        cv.rect(left, sep - 1, left + plot, sep + 1, (120, 120, 120))

    # Queue rows: command lives (pale), their running parts (full).
    runs, opened = {}, {}
    for e in evs:
        if e["pid"] == 2 and e["cat"] == "running":
            if e["ph"] == "b":
                opened[e["id"]] = e["ts"]
            elif e["id"] in opened:
                runs[e["id"]] = (opened.pop(e["id"]), e["ts"])
    for b, e, q, name, i in lives:
        ry = rowy[(2, q)] + 4 + lane_of[i] * lane_h
        c = color.get(name, (150, 150, 150))
        cv.rect(x(b), ry + 1, max(x(e), x(b) + 2), ry + lane_h - 1, pale(c))
        if i in runs:
            rb, re_ = runs[i]
            cv.rect(x(rb), ry + 1, max(x(re_), x(rb) + 2), ry + lane_h - 1, c)

    # Hart rows.
    for e in dev:
        ry = rowy[(1, e["tid"])]
        cat = e.get("cat")
        if e["ph"] == "X" and cat == "sleep":
            cv.rect(x(e["ts"]), ry + rowh // 2 - 1, max(x(e["ts"] + e["dur"]), x(e["ts"]) + 1),
                    ry + rowh // 2 + 1, (185, 185, 185))
    for e in dev:
        ry = rowy[(1, e["tid"])]
        if e["ph"] == "X" and e.get("cat") == "chunk":
            c = color.get(e["name"], (120, 120, 120))
            xa, xb = x(e["ts"]), max(x(e["ts"] + e["dur"]), x(e["ts"]) + 1)
            cv.rect(xa, ry + 3, xb, ry + rowh - 3, dark(c, 0.55))
            if xb - xa > 2:
                cv.rect(xa + 1, ry + 4, xb - 1, ry + rowh - 4, c)
    for e in dev:
        ry = rowy[(1, e["tid"])]
        if e["ph"] == "X" and e.get("cat") == "barrier":
            cv.rect(x(e["ts"]), ry + rowh - 9, max(x(e["ts"] + e["dur"]), x(e["ts"]) + 1),
                    ry + rowh - 4, (40, 40, 40))
    for e in dev:
        ry = rowy[(1, e["tid"])]
        if e["ph"] != "i":
            continue
        cat = e.get("cat")
        c = {"wake": (220, 30, 30), "packet": (0, 0, 0), "done": (20, 150, 20)}.get(cat)
        if c:
            xi = x(e["ts"])
            lo = ry + (1 if cat != "done" else rowh // 2)
            hi = ry + (rowh // 2 if cat != "done" else rowh - 1)
            cv.rect(xi, lo, xi + 2, hi, c)

    # Time axis in ms from the first event.
    ay = bottom + 6
    cv.rect(left, ay, left + plot, ay + 1, (0, 0, 0))
    ms = span / 1000.0
    step = 1
    for s in (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000):
        if ms / s <= 12:
            step = s
            break
    k = 0
    while k * step <= ms + 1e-9:
        tx = left + k * step * 1000.0 / span * plot
        cv.rect(tx, ay, tx + 1, ay + 6, (0, 0, 0))
        lab = f"{k * step:g}"
        cv.text(tx - len(lab) * 6, ay + 10, lab, scale=2)
        k += 1
    cv.text(8, ay + 10, "MS", scale=2)

    # Legend: kernels, then the marks.
    ly = ay + 36
    lx = left
    for i, k in enumerate(kernels):
        if i and i % 5 == 0:
            ly += 24
            lx = left
        cv.rect(lx, ly, lx + 18, ly + 14, color[k])
        lx = cv.text(lx + 24, ly, k[:18], scale=2) + 24
    ly += 24
    lx = left
    for lab, c, kind in (("WAKE", (220, 30, 30), "tick"), ("PACKET", (0, 0, 0), "tick"),
                         ("DONE", (20, 150, 20), "tick"), ("TEAM BARRIER", (40, 40, 40), "bar"),
                         ("SLEEP", (185, 185, 185), "line"), ("WAITING", (200, 200, 200), "box")):
        if kind == "tick":
            cv.rect(lx + 8, ly, lx + 10, ly + 14, c)
        elif kind == "bar":
            cv.rect(lx, ly + 8, lx + 18, ly + 13, c)
        elif kind == "line":
            cv.rect(lx, ly + 6, lx + 18, ly + 8, c)
        else:
            cv.rect(lx, ly, lx + 18, ly + 14, c)
        lx = cv.text(lx + 24, ly, lab, scale=2) + 24
    extra = f"{other.get('records', '?')} RECORDS, {other.get('dropped', '?')} DROPPED"
    cv.text(width - right - len(extra) * 12, ly, extra, (90, 90, 90), scale=2)
    cv.png(out)
    print(f"timeline: {out}: {len(harts)} harts, {len(queues)} queues, "
          f"{len(kernels)} kernels, {span / 1000:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
