#!/usr/bin/env python3
"""Checks the buffers `hartpool run --print` printed for the kernels of
kernels/cli.cl, kernels/subgroups.cl and kernels/sgwg.cl's wg_async: check_cli.py KERNEL ARGS < output."""
import re
import sys


def bufs(text):
    out = {}
    for line in text.splitlines():
        m = re.match(r"buf(\d+) \w+\[(\d+)\]: (.*)$", line)
        if m:
            vals = m.group(3).split(" ... ")[0].split()
            out[int(m.group(1))] = [float(v) for v in vals]
    return out


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def check_ids(b, gx, gy, lx, ly, ox, oy):
    o = b[0]
    ngx, ngy = -(-gx // lx), -(-gy // ly)
    for y in range(gy):
        for x in range(gx):
            r = o[8 * (y * gx + x):8 * (y * gx + x) + 8]
            gidx, gidy = x + ox, y + oy
            grx, gry = x // lx, y // ly
            szx = min(lx, gx - grx * lx)
            szy = min(ly, gy - gry * ly)
            want = [gidx, gidy, x % lx + 100 * (y % ly), grx + 100 * gry,
                    szx + 100 * szy, ngx + 100 * ngy, 2, gx + 100 * gy]
            if r != want:
                fail(f"item ({x},{y}): {r}, expected {want}")
    return gx * gy


def check_ids3(b, gx, gy, gz, lx, ly, lz, ox, oy, oz, pick):
    o = b[0]
    for z in range(gz):
        for y in range(gy):
            for x in range(gx):
                lin = (z * gy + y) * gx + x
                r = o[12 * lin:12 * lin + 12]
                gid = [x + ox, y + oy, z + oz]
                lid = [x % lx, y % ly, z % lz]
                grp = [x // lx, y // ly, z // lz]
                sz = [min(lx, gx - grp[0] * lx), min(ly, gy - grp[1] * ly),
                      min(lz, gz - grp[2] * lz)]
                llin = (lid[2] * sz[1] + lid[1]) * sz[0] + lid[0]
                d = (llin + pick) % 3
                priv = gid + lid
                want = gid + [lid[0] + 100 * lid[1] + 10000 * lid[2],
                              grp[0] + 100 * grp[1] + 10000 * grp[2],
                              sz[0] + 100 * sz[1] + 10000 * sz[2],
                              llin, lin, d, gid[d], lid[d],
                              0 if lid[0] == 1 else priv[(d + pick) % 6] + 1]
                if r != want:
                    fail(f"item ({x},{y},{z}): {r}, expected {want}")
    return gx * gy * gz


def check_wg3(b, gx, gy, gz, lx, ly, lz, rounds):
    o = b[0]
    m = 0xffffffff
    for gz0 in range(0, gz, lz):
        for gy0 in range(0, gy, ly):
            for gx0 in range(0, gx, lx):
                sx, sy, sz = min(lx, gx - gx0), min(ly, gy - gy0), min(lz, gz - gz0)
                n = sx * sy * sz
                items = [(x, y, z) for z in range(sz) for y in range(sy) for x in range(sx)]
                acc = [(gx0 + x + 7 * (gy0 + y) + 13 * (gz0 + z)) & m for x, y, z in items]
                priv = [[0] * 4 for _ in items]
                for r in range(rounds):
                    sh = list(acc)
                    for i, (x, y, z) in enumerate(items):
                        priv[i][r & 3] = acc[i]
                        acc[i] = (acc[i] + sh[(i + 1 + r) % n]) & m
                        if x & 1:
                            acc[i] ^= r
                for i, (x, y, z) in enumerate(items):
                    g = ((gz0 + z) * gy + gy0 + y) * gx + gx0 + x
                    want = [(acc[i] + priv[i][(rounds - 1) & 3]) & m, i]
                    if o[2 * g:2 * g + 2] != want:
                        fail(f"item ({gx0 + x},{gy0 + y},{gz0 + z}): {o[2 * g:2 * g + 2]}, expected {want}")
    return gx * gy * gz


def check_group_sum(b, n, local):
    inp, out = b[0], b[1]
    for g in range(n // local):
        want = sum(inp[g * local:(g + 1) * local])
        if out[g] != want:
            fail(f"group {g}: {out[g]}, expected {want}")
    return n // local


def check_count(b, n, local):
    c, pg = b[0], b[1]
    if c[0] != n or c[1] != n - 1:
        fail(f"counter {c[:2]}, expected [{n}, {n - 1}]")
    for g in range(n // local):
        if pg[g] != local:
            fail(f"group {g} counted {pg[g]}, expected {local}")
    return n // local + 2


def check_sg(b, n, local, sgs):
    o = b[0]
    for g in range(n):
        r = o[6 * g:6 * g + 6]
        lid = g % local
        first = g - lid + (lid // sgs) * sgs
        size = min(sgs, local - (lid // sgs) * sgs)
        lane = g - first
        vals = [first + 1 + k for k in range(size)]
        want = [size, lid // sgs, lane, sum(vals), sum(vals[:lane + 1]),
                first + 1]
        if r != want:
            fail(f"item {g}: {r}, expected {want}")
    return n


def check_mathy(b, n):
    f, i = b[0], b[1]
    for g in range(n):
        x = g / 8.0
        wf = x ** 0.5 + x + max(x, 0.5) + (x + 6)
        if abs(f[g] - wf) > 1e-5 * max(1.0, wf):
            fail(f"mathy f[{g}] = {f[g]}, expected {wf}")
        clz = 32 - (g + 1).bit_length()
        sat = min(int(x * 1e10), 2**31 - 1) // 1000000000
        wi = clz + bin(g).count("1") + sat + abs(g - 5) + (2 if g & 1 else 1)
        if i[g] != wi:
            fail(f"mathy i[{g}] = {i[g]}, expected {wi}")
    return 2 * n


def check_wg(b, n, local):
    o, f = b[0], b[1]
    for g in range(n):
        r = o[8 * g:8 * g + 8]
        lid = g % local
        size = min(local, n - g // local * local)
        vals = list(range(1, size + 1))
        want = [sum(vals), sum(vals[:lid + 1]), sum(vals[:lid]), size,
                min(vals[:lid]) if lid else 2**31 - 1, 4,
                1 + 2 * (size >= 5), sum(vals)]
        if r != want:
            fail(f"item {g}: {r}, expected {want}")
        wf = 0.5 * sum(vals[:lid + 1])
        if f[g] != wf:
            fail(f"item {g}: float scan {f[g]}, expected {wf}")
    return 9 * n


def check_atomics20(b, n, local):
    g, pg = b[0], b[1]
    if g[0] != n or g[1] != n - 1 or not 1 <= g[2] <= n:
        fail(f"counters {g[:3]}, expected [{n}, {n - 1}, 1..{n}]")
    for i in range(n // local):
        if pg[i] != local:
            fail(f"group {i} counted {pg[i]}, expected {local}")
    return n // local + 3


def check_wg_async(b, gx, gy, lx, ly):
    """kernels/sgwg.cl's wg_async: copies in, a read of others' elements,
    copies out (whole and strided), per group of a 2-D range."""
    g, o = [int(v) for v in b[0]], [int(v) for v in b[1]]
    ngx, ngy = -(-gx // lx), -(-gy // ly)
    full = 3 * lx * ly
    want = [0] * len(o)
    for gry in range(ngy):
        for grx in range(ngx):
            m = min(lx, gx - grx * lx) * min(ly, gy - gry * ly)
            n, grp = 3 * m, gry * ngx + grx
            l = g[grp * full:grp * full + n]
            ls = [g[grp * full + 1 + 3 * k] for k in range(m)]
            v = [l[(i * 7 + 1) % n] + 3 * ls[(i + 1) % m] for i in range(m)]
            d = grp * 4 * full
            want[d:d + n] = v + l[m:]
            for k in range(m):
                want[d + n + 2 * k] = ls[k]
    if o != want:
        bad = [i for i in range(len(o)) if o[i] != want[i]][:5]
        fail(f"wg_async: o[{bad}] = {[o[i] for i in bad]}, "
             f"expected {[want[i] for i in bad]}")
    return len(o)


def check_sgext(b, n, local, sgs):
    """kernels/sgext.cl: shuffles (xor, up, down) and clustered reductions,
    partial sub-groups and a remainder group included."""
    o, v = [int(x) for x in b[0]], [int(x) for x in b[1]]

    def s32(x):
        x &= 0xffffffff
        return x - (1 << 32) if x >> 31 else x

    def s8(x):
        x &= 0xff
        return x - 256 if x >> 7 else x

    checked = 0
    for g0 in range(0, n, local):
        size = min(local, n - g0)
        for s0 in range(0, size, sgs):
            lanes = [v[g0 + s0 + k] for k in range(min(sgs, size - s0))]
            m = len(lanes)

            def sh(me, lane, xs=lanes):
                return xs[lane] if 0 <= lane < m else xs[me]

            def clu(me, cs, op, xs=lanes):
                base = me - me % cs
                a = xs[base]
                for k in range(base + 1, min(base + cs, m)):
                    a = op(a, xs[k])
                return a
            for me in range(m):
                p = [x & 1 for x in lanes]
                want = [sh(me, (me + 3) % m), sh(me, me ^ 1), sh(me, me - 1),
                        sh(me, me + 2), clu(me, 2, lambda a, c: a + c),
                        clu(me, 4, min), clu(me, 4, max),
                        clu(me, 2, lambda a, c: s32(a * c)),
                        clu(me, 4, lambda a, c: a ^ c),
                        clu(me, 2, lambda a, c: int(a != 0 or c != 0), p),
                        clu(me, 2, lambda a, c: int(a != 0 and c != 0), p),
                        lanes[me], s8(sh(me, me ^ 1)),
                        clu(me, 4, lambda a, c: a + c),
                        clu(me, 4, lambda a, c: a + c),
                        clu(me, 2, max, [x * 100000007 for x in lanes])]
                g = g0 + s0 + me
                got = o[16 * g:16 * g + 16]
                if got != want:
                    fail(f"sgext item {g}: {got}, expected {want}")
                checked += 16
    return checked


def main():
    text = sys.stdin.read()
    b = bufs(text)
    k, args = sys.argv[1], [int(a) for a in sys.argv[2:]]
    n = {"ids": check_ids, "group_sum": check_group_sum,
         "count": check_count, "sg": check_sg, "mathy": check_mathy,
         "wg": check_wg, "atomics20": check_atomics20,
         "ids3": check_ids3, "wg3": check_wg3,
         "wg_async": check_wg_async, "sgext": check_sgext}[k](b, *args)
    print(f"ok: {k}: {n} values checked")


main()
