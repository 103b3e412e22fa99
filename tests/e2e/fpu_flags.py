#!/usr/bin/env python3
"""The built-in kernels' FPU flag against their code (docs/design.md, 34).

    tests/e2e/fpu_flags.py FIRMWARE.elf

A kernel registered with .uses_fpu = true runs only on harts with an FPU; one
that computes with floating point without the flag would trap on a hart
without one (the E51 of sifive-u and icicle-kit). For every hp_kernel_<name>
descriptor in the image this reads the flag the firmware was built with and
looks for F/D instructions (and fflags/frm/fcsr accesses) in hp_kfn_<name>,
hp_krow_<name>, the functions its fn and row pointers name (a row of its own,
HP_REGISTER_ROW) and the functions they call directly; the two must agree,
except for kernels with barriers, which run only on harts with an FPU.
In a soft-float image (float ABI soft, e.g. qemu-virt32) the flag has no
effect and no kernel may hold FP code.
Deeper calls are not followed: hp_printf reaches picolibc's float formatting,
which only %f needs.

Then the rest of the firmware, which the E51 runs too (it is the mailbox's
dispatcher): FP code may sit only in the kernels and what they call, the
sub-group float functions, the code that checks for an FPU first (the
entry, setjmp/longjmp, a preempted kernel's FP save and restore, the clear of another
owner's FP registers) and picolibc's float formatting
(only %f, %e, %g reach it; the firmware prints no floats). Exit status 0 if
both hold, 1 otherwise.
"""
import re
import subprocess
import sys

TOOL = "riscv64-unknown-elf-"
# F/D instructions as objdump names them: fadd.s, fld, c.fsdsp, fmv.x.w, ...
# (not fence / fence.i), and CSR instructions on the FP CSRs.
FP_INSN = re.compile(r"^(c\.)?f(?!ence)[a-z]+[0-9a-z.]*\s"
                     r"|^(csrr|csrw|csrs|csrc)\w*\s.*\b(fflags|frm|fcsr)\b"
                     r"|^(frcsr|fscsr|frflags|fsflags|frrm|fsrm)\b")
# FP code outside kernels that is allowed (see above).
FP_GUARDED = re.compile(r"^(_start|hal_setjmp|"
                        r"hal_longjmp|hal_user_ext_save|hal_user_ext_clear|hal_user_resume_enter|hp_sub_group_\w+_float_call|__d_vfprintf|"
                        r"__dtoa_engine)$")
CALL = re.compile(r"^(c\.)?(jal|j|call|tail)\s.*<([^+>]+)>$")


def run(*argv):
    return subprocess.run(argv, check=True, capture_output=True,
                          text=True).stdout


def main(elf):
    data = open(elf, "rb").read()
    xlen = 64 if data[4] == 2 else 32
    e_flags = int.from_bytes(data[0x30:0x34] if xlen == 64 else
                             data[0x24:0x28], "little")
    soft = (e_flags >> 1) & 3 == 0  # EF_RISCV_FLOAT_ABI
    # hp_kernel: name, fn, row (pointers), reqd_work_group_size[3],
    # max_work_group_size, sub_group_size, local_mem_bytes, args_size,
    # stack_bytes (uint32_t), uses_barriers, uses_fpu (bool).
    fpu_offset = 3 * (xlen // 8) + 8 * 4 + 1
    sections = []
    for line in run(TOOL + "readelf", "-SW", elf).splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+"
                     r"([0-9a-f]+)\s+([0-9a-f]+)", line)
        if m and m.group(2) == "PROGBITS":
            sections.append((int(m.group(3), 16), int(m.group(4), 16),
                             int(m.group(5), 16)))

    def byte_at(addr):
        for vma, off, size in sections:
            if vma <= addr < vma + size:
                return data[off + addr - vma]
        raise SystemExit("address %#x is in no section of %s" % (addr, elf))

    def word_at(addr):
        return int.from_bytes(bytes(byte_at(addr + i)
                                    for i in range(xlen // 8)), "little")

    kernels, code_at = {}, {}
    for line in run(TOOL + "nm", elf).splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "Tt":
            code_at.setdefault(int(parts[0], 16), parts[2])
        if (len(parts) == 3 and parts[2].startswith("hp_kernel_")
                and parts[2] != "hp_kernel_registry"):
            kernels[parts[2][len("hp_kernel_"):]] = int(parts[0], 16)

    funcs, cur = {}, None
    for line in run(TOOL + "objdump", "-d", "--no-show-raw-insn",
                    elf).splitlines():
        m = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
        elif cur is not None and "\t" in line:
            cur.append(line.split("\t", 1)[1].strip())

    def fp_in(name):
        return [i for i in funcs.get(name, []) if FP_INSN.match(i)]

    bad = 0
    kernel_code = set()
    for name, addr in sorted(kernels.items()):
        flag = byte_at(addr + fpu_offset)
        # The functions the descriptor points at (fn, row: a kernel's own
        # row from HP_REGISTER_ROW has a name of its own) and the two
        # HP_KERNEL makes.
        own = ["hp_kfn_" + name, "hp_krow_" + name]
        for ptr in (word_at(addr + xlen // 8), word_at(addr + 2 * xlen // 8)):
            if ptr in code_at and code_at[ptr] not in own:
                own.append(code_at[ptr])
        called = set()
        for f in own:
            for i in funcs.get(f, []):
                m = CALL.match(i)
                if m:
                    called.add(m.group(3))
        where = [f for f in own + sorted(called - set(own)) if fp_in(f)]
        kernel_code.update(where)
        uses = bool(where)
        # A barrier kernel runs only on harts with an FPU (its barriers
        # leave the FP callee-saved registers to its own code, which saves
        # them: docs/design.md, 43), whatever its flag says.
        barriers = byte_at(addr + fpu_offset - 1)
        ok = not uses if soft else (barriers or flag == uses)
        bad += not ok
        print("%s %-18s uses_fpu=%d%s, FP code %s" %
              ("ok  " if ok else "FAIL", name, flag,
               " (barriers: FPU harts)" if barriers and not soft else "",
               "in " + ", ".join(where) if where else "none"))
    print("%d kernels, %d whose flag disagrees with their code%s" %
          (len(kernels), bad, " (soft float: no FP code at all)"
           if soft else ""))
    stray = sorted(f for f in funcs if fp_in(f) and f not in kernel_code
                   and not FP_GUARDED.match(f))
    for f in stray:
        print("FAIL %s: FP code outside the kernels (a hart without an "
              "FPU would trap running it): %s" % (f, fp_in(f)[0]))
    print("firmware outside the kernels: %d functions with FP code" %
          len(stray))
    return 1 if bad or stray or not kernels else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
