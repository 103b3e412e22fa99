#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The OpenCL C 3.0 built-in functions a device with hartpool's features
has, as the specification's tables list them (section 6.15: work-item,
math, integer, common, geometric, relational, vector load and store,
synchronization, address-space, async copy, atomic, miscellaneous vector,
sub-group and work-group functions; section 6.4.3's conversions), written
out as one OpenCL C file that calls every overload once with arguments of
exactly its parameter types.

    builtins_spec.py --std CL1.2|CL3.0 [--fp64] [--int64-atomics] -o FILE

CL1.2: the named address spaces' pointer overloads; CL3.0: the generic
address space's, the C11 atomics with orders and scopes, sub-group and
work-group functions, to_global/to_local/to_private. Compiled against
clang's table of built-ins (-fdeclare-opencl-builtins, not its header) and
linked with the library, no built-in may stay undefined
(tests/opencl/builtins.part.sh, builtins_spec_*). Prints how many calls
it wrote per section on stderr.
"""
import argparse
import sys

SIGNED = ["char", "short", "int", "long"]
UNSIGNED = ["uchar", "ushort", "uint", "ulong"]
INTS = SIGNED + UNSIGNED
WIDTHS = [1, 2, 3, 4, 8, 16]


def vec(t, n):
    return t if n == 1 else "%s%d" % (t, n)


def unsigned_of(t):
    return t if t.startswith("u") else "u" + t


def same_size_int(t, signed=True):
    size = {"char": "char", "uchar": "char", "short": "short",
            "ushort": "short", "int": "int", "uint": "int", "long": "long",
            "ulong": "long", "float": "int", "double": "long"}[t]
    return size if signed else unsigned_of(size)


class Gen:
    def __init__(self, a):
        self.a = a
        self.cl3 = a.std == "CL3.0"
        self.floats = ["float"] + (["double"] if a.fp64 else [])
        self.lines = []
        self.counts = {}
        self.section = ""
        # pointer address spaces of the overloads taking pointers
        self.spaces = ["generic"] if self.cl3 else ["global", "local",
                                                    "private"]

    def sec(self, name):
        self.section = name
        self.counts.setdefault(name, 0)

    def call(self, fn, args):
        self.lines.append("\t(void)%s(%s);" % (fn, ", ".join(args)))
        self.counts[self.section] += 1

    @staticmethod
    def v(t):
        """A value of type t (a private variable of that type)."""
        return "v_" + t.replace(" ", "_")

    def p(self, t, space, const=False):
        """A pointer to t in space (generic: an unqualified pointer)."""
        q = "" if space == "generic" else "__%s " % space
        c = "const " if const else ""
        base = {"global": "g", "local": "l", "private": "pv",
                "constant": "c", "generic": "gen"}[space]
        return "(%s%s%s *)%s" % (c, q, t, base)

    # ---- sections ----

    def work_items(self):
        self.sec("work-item")
        self.call("get_work_dim", [])
        for f in ["get_global_size", "get_global_id", "get_local_size",
                  "get_local_id", "get_num_groups", "get_group_id",
                  "get_global_offset"]:
            self.call(f, [self.v("uint")])
        if self.cl3:
            self.call("get_enqueued_local_size", [self.v("uint")])
            self.call("get_global_linear_id", [])
            self.call("get_local_linear_id", [])

    def math(self):
        self.sec("math")
        unary = ("acos acosh acospi asin asinh asinpi atan atanh atanpi "
                 "cbrt ceil cos cosh cospi erfc erf exp exp2 exp10 expm1 "
                 "fabs floor lgamma log log2 log10 log1p logb rint round "
                 "rsqrt sin sinh sinpi sqrt tan tanh tanpi tgamma "
                 "trunc").split()
        binary = ("atan2 atan2pi copysign fdim fmax fmin fmod hypot maxmag "
                  "minmag nextafter pow powr remainder").split()
        for t in self.floats:
            for n in WIDTHS:
                F, I = vec(t, n), vec("int", n)
                for f in unary:
                    self.call(f, [self.v(F)])
                for f in binary:
                    self.call(f, [self.v(F), self.v(F)])
                if n > 1:
                    for f in ["fmax", "fmin"]:
                        self.call(f, [self.v(F), self.v(t)])
                    self.call("ldexp", [self.v(F), self.v("int")])
                for f in ["fma", "mad"]:
                    self.call(f, [self.v(F)] * 3)
                self.call("ilogb", [self.v(F)])
                self.call("ldexp", [self.v(F), self.v(I)])
                self.call("pown", [self.v(F), self.v(I)])
                self.call("rootn", [self.v(F), self.v(I)])
                self.call("nan", [self.v(vec(same_size_int(t, False), n))])
                for s in self.spaces:
                    for f in ["fract", "modf", "sincos"]:
                        self.call(f, [self.v(F), self.p(F, s)])
                    for f in ["frexp", "lgamma_r"]:
                        self.call(f, [self.v(F), self.p(I, s)])
                    self.call("remquo", [self.v(F), self.v(F), self.p(I, s)])
        for n in WIDTHS:
            F = vec("float", n)
            for f in ("cos exp exp2 exp10 log log2 log10 recip rsqrt sin "
                      "sqrt tan").split():
                self.call("half_" + f, [self.v(F)])
                self.call("native_" + f, [self.v(F)])
            for f in ["divide", "powr"]:
                self.call("half_" + f, [self.v(F), self.v(F)])
                self.call("native_" + f, [self.v(F), self.v(F)])

    def integer(self):
        self.sec("integer")
        for t in INTS:
            for n in WIDTHS:
                T = vec(t, n)
                for f in ["abs", "clz", "popcount"] + (["ctz"]
                                                       if self.cl3 else []):
                    self.call(f, [self.v(T)])
                for f in ("abs_diff add_sat hadd rhadd max min mul_hi rotate "
                          "sub_sat").split():
                    self.call(f, [self.v(T), self.v(T)])
                for f in ["clamp", "mad_hi", "mad_sat"]:
                    self.call(f, [self.v(T)] * 3)
                if n > 1:
                    self.call("clamp", [self.v(T), self.v(t), self.v(t)])
                    for f in ["max", "min"]:
                        self.call(f, [self.v(T), self.v(t)])
        up = [("char", "uchar"), ("uchar", "uchar"), ("short", "ushort"),
              ("ushort", "ushort"), ("int", "uint"), ("uint", "uint")]
        for hi, lo in up:
            for n in WIDTHS:
                self.call("upsample", [self.v(vec(hi, n)), self.v(vec(lo, n))])
        for t in ["int", "uint"]:
            for n in WIDTHS:
                T = vec(t, n)
                self.call("mad24", [self.v(T)] * 3)
                self.call("mul24", [self.v(T)] * 2)

    def common(self):
        self.sec("common")
        for t in self.floats:
            for n in WIDTHS:
                F = vec(t, n)
                for f in ["degrees", "radians", "sign"]:
                    self.call(f, [self.v(F)])
                for f in ["max", "min", "step"]:
                    self.call(f, [self.v(F), self.v(F)])
                for f in ["clamp", "mix", "smoothstep"]:
                    self.call(f, [self.v(F)] * 3)
                if n > 1:
                    self.call("clamp", [self.v(F), self.v(t), self.v(t)])
                    for f in ["max", "min"]:
                        self.call(f, [self.v(F), self.v(t)])
                    self.call("mix", [self.v(F), self.v(F), self.v(t)])
                    self.call("step", [self.v(t), self.v(F)])
                    self.call("smoothstep", [self.v(t), self.v(t), self.v(F)])

    def geometric(self):
        self.sec("geometric")
        for t in self.floats:
            for n in [1, 2, 3, 4]:
                F = vec(t, n)
                for f in ["dot", "distance"]:
                    self.call(f, [self.v(F), self.v(F)])
                for f in ["length", "normalize"]:
                    self.call(f, [self.v(F)])
                if t == "float":
                    self.call("fast_distance", [self.v(F), self.v(F)])
                    for f in ["fast_length", "fast_normalize"]:
                        self.call(f, [self.v(F)])
            for n in [3, 4]:
                self.call("cross", [self.v(vec(t, n))] * 2)

    def relational(self):
        self.sec("relational")
        for t in self.floats:
            for n in WIDTHS:
                F = vec(t, n)
                for f in ("isequal isnotequal isgreater isgreaterequal isless "
                          "islessequal islessgreater isordered "
                          "isunordered").split():
                    self.call(f, [self.v(F), self.v(F)])
                for f in "isfinite isinf isnan isnormal signbit".split():
                    self.call(f, [self.v(F)])
        for t in SIGNED:
            for n in WIDTHS:
                for f in ["any", "all"]:
                    self.call(f, [self.v(vec(t, n))])
        for t in INTS + self.floats:
            for n in WIDTHS:
                T = vec(t, n)
                self.call("bitselect", [self.v(T)] * 3)
                for signed in [True, False]:
                    c = vec(same_size_int(t, signed), n)
                    self.call("select", [self.v(T), self.v(T), self.v(c)])

    def vload_store(self):
        self.sec("vload/vstore")
        loads = self.spaces + ["constant"]
        for t in INTS + self.floats:
            for n in [2, 3, 4, 8, 16]:
                for s in loads:
                    self.call("vload%d" % n, [self.v("size_t"),
                                              self.p(t, s, const=True)])
                for s in self.spaces:
                    self.call("vstore%d" % n, [self.v(vec(t, n)),
                                               self.v("size_t"), self.p(t, s)])
        modes = ["", "_rte", "_rtz", "_rtp", "_rtn"]
        for s in loads:
            self.call("vload_half", [self.v("size_t"),
                                     self.p("half", s, const=True)])
            for n in [2, 3, 4, 8, 16]:
                for f in ["vload_half", "vloada_half"]:
                    self.call("%s%d" % (f, n), [self.v("size_t"),
                                                self.p("half", s, const=True)])
        for t in self.floats:
            for s in self.spaces:
                for m in modes:
                    self.call("vstore_half" + m, [self.v(t), self.v("size_t"),
                                                  self.p("half", s)])
                    for n in [2, 3, 4, 8, 16]:
                        for f in ["vstore_half", "vstorea_half"]:
                            self.call("%s%d%s" % (f, n, m),
                                      [self.v(vec(t, n)), self.v("size_t"),
                                       self.p("half", s)])

    def sync(self):
        self.sec("synchronization")
        fl = "CLK_GLOBAL_MEM_FENCE"
        self.call("barrier", [fl])
        for f in ["mem_fence", "read_mem_fence", "write_mem_fence"]:
            self.call(f, [fl])
        if self.cl3:
            self.call("work_group_barrier", [fl])
            self.call("work_group_barrier", [fl, "memory_scope_work_group"])
            self.call("atomic_work_item_fence",
                      [fl, "memory_order_seq_cst", "memory_scope_device"])

    def address_space(self):
        if not self.cl3:
            return
        self.sec("address space")
        for f in ["to_global", "to_local", "to_private"]:
            self.call(f, ["(int *)gen"])
            self.call(f, ["(const int *)gen"])
        self.call("get_fence", ["(int *)gen"])
        self.call("get_fence", ["(const int *)gen"])

    def async_copy(self):
        self.sec("async copy")
        ev = "v_event_t"
        for t in INTS + self.floats:
            for n in WIDTHS:
                T = vec(t, n)
                st = self.v("size_t")
                self.call("async_work_group_copy",
                          [self.p(T, "local"), self.p(T, "global", True), st,
                           ev])
                self.call("async_work_group_copy",
                          [self.p(T, "global"), self.p(T, "local", True), st,
                           ev])
                self.call("async_work_group_strided_copy",
                          [self.p(T, "local"), self.p(T, "global", True), st,
                           st, ev])
                self.call("async_work_group_strided_copy",
                          [self.p(T, "global"), self.p(T, "local", True), st,
                           st, ev])
                self.call("prefetch", [self.p(T, "global", True), st])
        self.call("wait_group_events", ["1", "&" + ev])

    def atomics(self):
        self.sec("atomics")
        old = [("int", "global"), ("uint", "global"), ("int", "local"),
               ("uint", "local")]
        if self.a.int64_atomics:
            old += [("long", "global"), ("ulong", "global"),
                    ("long", "local"), ("ulong", "local")]
        for t, s in old:
            p = "(volatile __%s %s *)%s" % (s, t, "g" if s == "global" else "l")
            pre = ["atomic"] if t in ("int", "uint") else []
            pre += ["atom"]
            for pf in pre:
                for f in ["add", "sub", "xchg", "min", "max", "and", "or",
                          "xor"]:
                    self.call("%s_%s" % (pf, f), [p, self.v(t)])
                for f in ["inc", "dec"]:
                    self.call("%s_%s" % (pf, f), [p])
                self.call(pf + "_cmpxchg", [p, self.v(t), self.v(t)])
        for s in ["global", "local"]:
            p = "(volatile __%s float *)%s" % (s, "g" if s == "global" else "l")
            self.call("atomic_xchg", [p, self.v("float")])
        if not self.cl3:
            return
        types = [("int", "int"), ("uint", "uint"), ("float", "float")]
        if self.a.int64_atomics:
            types += [("long", "long"), ("ulong", "ulong")]
            if self.a.fp64:
                types += [("double", "double")]
        o, sc = "memory_order_seq_cst", "memory_scope_device"
        for at, t in types:
            a = "(volatile atomic_%s *)gen" % at
            self.call("atomic_init", [a, self.v(t)])
            self.call("atomic_store", [a, self.v(t)])
            self.call("atomic_store_explicit", [a, self.v(t), o])
            self.call("atomic_store_explicit", [a, self.v(t), o, sc])
            self.call("atomic_load", [a])
            self.call("atomic_load_explicit", [a, o])
            self.call("atomic_load_explicit", [a, o, sc])
            self.call("atomic_exchange", [a, self.v(t)])
            self.call("atomic_exchange_explicit", [a, self.v(t), o])
            self.call("atomic_exchange_explicit", [a, self.v(t), o, sc])
            ex = "(%s *)gen" % t
            for f in ["strong", "weak"]:
                fn = "atomic_compare_exchange_" + f
                self.call(fn, [a, ex, self.v(t)])
                self.call(fn + "_explicit", [a, ex, self.v(t), o, o])
                self.call(fn + "_explicit", [a, ex, self.v(t), o, o, sc])
            if t in ("float", "double"):
                continue
            for f in ["add", "sub", "or", "xor", "and", "min", "max"]:
                fn = "atomic_fetch_" + f
                self.call(fn, [a, self.v(t)])
                self.call(fn + "_explicit", [a, self.v(t), o])
                self.call(fn + "_explicit", [a, self.v(t), o, sc])
        if self.a.int64_atomics:
            a = "(volatile atomic_uintptr_t *)gen"
            for f in ["add", "sub"]:
                fn = "atomic_fetch_" + f
                self.call(fn, [a, self.v("ptrdiff_t")])
                self.call(fn + "_explicit", [a, self.v("ptrdiff_t"), o])
                self.call(fn + "_explicit", [a, self.v("ptrdiff_t"), o, sc])
        f = "(volatile atomic_flag *)gen"
        self.call("atomic_flag_test_and_set", [f])
        self.call("atomic_flag_test_and_set_explicit", [f, o])
        self.call("atomic_flag_test_and_set_explicit", [f, o, sc])
        self.call("atomic_flag_clear", [f])
        self.call("atomic_flag_clear_explicit", [f, o])
        self.call("atomic_flag_clear_explicit", [f, o, sc])

    def misc_vector(self):
        self.sec("miscellaneous vector")
        for t in INTS + self.floats:
            for m in [2, 4, 8, 16]:
                for n in [2, 4, 8, 16]:
                    mask = vec(unsigned_of(same_size_int(t)), n)
                    src = vec(t, m)
                    self.call("shuffle", [self.v(src), self.v(mask)])
                    self.call("shuffle2", [self.v(src), self.v(src),
                                           self.v(mask)])
        self.call("printf", ['"%d"', self.v("int")])

    def groups(self):
        if not self.cl3:
            return
        self.sec("sub-groups and work-groups")
        for f in ["get_sub_group_size", "get_max_sub_group_size",
                  "get_num_sub_groups", "get_enqueued_num_sub_groups",
                  "get_sub_group_id", "get_sub_group_local_id"]:
            self.call(f, [])
        fl = "CLK_GLOBAL_MEM_FENCE"
        self.call("sub_group_barrier", [fl])
        self.call("sub_group_barrier", [fl, "memory_scope_sub_group"])
        types = ["int", "uint", "long", "ulong"] + self.floats
        for g in ["sub_group", "work_group"]:
            self.call(g + "_all", [self.v("int")])
            self.call(g + "_any", [self.v("int")])
            for t in types:
                if g == "sub_group":
                    self.call(g + "_broadcast", [self.v(t), self.v("uint")])
                else:
                    st = self.v("size_t")
                    for dims in ([st], [st, st], [st, st, st]):
                        self.call(g + "_broadcast", [self.v(t)] + dims)
                for op in ["add", "min", "max"]:
                    for f in ["reduce", "scan_exclusive", "scan_inclusive"]:
                        self.call("%s_%s_%s" % (g, f, op), [self.v(t)])

    def conversions(self):
        self.sec("conversions")
        all_t = INTS + self.floats
        modes = ["", "_rte", "_rtz", "_rtp", "_rtn"]
        for d in all_t:
            for s in all_t:
                for n in WIDTHS:
                    for m in modes:
                        sats = ["", "_sat"] if d in INTS else [""]
                        for sat in sats:
                            self.call("convert_%s%s%s" % (vec(d, n), sat, m),
                                      [self.v(vec(s, n))])

    def write(self, out):
        for f in [self.work_items, self.math, self.integer, self.common,
                  self.geometric, self.relational, self.vload_store,
                  self.sync, self.address_space, self.async_copy,
                  self.atomics, self.misc_vector, self.groups,
                  self.conversions]:
            f()
        decls = []
        for t in INTS + self.floats:
            for n in WIDTHS:
                T = vec(t, n)
                decls.append("\t%s %s = (%s)0;" % (T, self.v(T), T))
        decls += ["\tsize_t v_size_t = 0;", "\tptrdiff_t v_ptrdiff_t = 0;",
                  "\tevent_t v_event_t = 0;", "\tchar pv[256];",
                  "\t__local char l[256];"]
        if self.cl3:
            decls.append("\tchar *gen = pv;")
        head = ["// Generated by tests/opencl/builtins_spec.py: every "
                "built-in overload,",
                "// called once (%s)." % self.a.std]
        if self.a.fp64:
            head.append("#pragma OPENCL EXTENSION cl_khr_fp64 : enable")
        body = head + [
            "__kernel void spec_all(__global char *g, __constant char *c)",
            "{"] + decls + self.lines + ["}"]
        out.write("\n".join(body) + "\n")
        total = sum(self.counts.values())
        for k, v in self.counts.items():
            sys.stderr.write("%s: %d\n" % (k, v))
        sys.stderr.write("calls: %d\n" % total)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--std", choices=("CL1.2", "CL3.0"), required=True)
    ap.add_argument("--fp64", action="store_true")
    ap.add_argument("--int64-atomics", action="store_true")
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args()
    with open(a.out, "w") as f:
        Gen(a).write(f)


if __name__ == "__main__":
    main()
