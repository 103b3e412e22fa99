#!/usr/bin/env python3
"""The three device trees of board qemu-virt-amp (docs/boards/qemu-virt-amp.md)
from the one QEMU's virt machine makes (its dumpdtb, as dts text):

  amp-dt.py VIRT.dts LINUX_HARTS INITRD_BYTES OUTDIR FW_BOOTARGS LINUX_BOOTARGS BELL_SLOT

OUTDIR/root.dts: QEMU's tree with OpenSBI domains in /chosen: harts
0..L-1 and the top gigabyte are Linux's, the others and the first
gigabyte the firmware's; OUTDIR/hartpool.dts: the firmware's harts
(the others disabled) and memory; OUTDIR/linux.dts: Linux's harts and
memory, the initramfs, where the mailbox is and the doorbell to ring
(/chosen/hartpool,mailbox and hartpool,doorbell: the firmware's boot
hart's SETSSIP word of the ACLINT's SSWI), without the platform UART (the
firmware's console and doorbell), the SSWI and the test device (power off
would end both), and the device's bell to Linux (/chosen/hartpool,host-bell:
the PCI function at slot BELL_SLOT of the root bus, QEMU's edu device, which
Linux hands to user space with uio_pci_generic; hartpool,host-bell-ack its
acknowledge register; the firmware's bootargs get hartpool.host_bell, the
function's configuration space, which it reads for where Linux put BAR0).
Regions are naturally aligned powers of two (OpenSBI's memregions):
  0x80000000-0xbfffffff  firmware (OpenSBI at its start); Linux may read and
                         write 0x90000000-0xbfffffff (mailbox and buffers),
                         never 0x80200000-0x8fffffff (code and data)
  0xc0000000-0xffffffff  Linux (Image at 0xc0200000, initramfs at 0xf0000000,
                         its tree at 0xfe000000)
  0x00000000-0x7fffffff  devices, both (Linux: read and write)
"""
import re
import sys

FW_DTB, LX_DTB, INITRD = 0xbf000000, 0xfe000000, 0xf0000000
FW_MEM, LX_MEM, SIZE = 0x80000000, 0xc0000000, 0x40000000


def fail(msg):
    sys.exit("amp-dt.py: " + msg)


def main():
    if len(sys.argv) != 8:
        fail("usage: amp-dt.py VIRT.dts LINUX_HARTS INITRD_BYTES OUTDIR FW_BOOTARGS LINUX_BOOTARGS BELL_SLOT")
    src = open(sys.argv[1]).read()
    lx_harts, initrd, out = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    fw_args, lx_args, slot = sys.argv[5], sys.argv[6], int(sys.argv[7], 0)
    if not 1 <= slot < 32:
        fail(f"PCI slot {slot} is not 1..31")
    # the bell's function: ECAM (bus 0 at the host bridge's first address)
    # + slot << 15
    m = re.search(r"pci@([0-9a-f]+) \{[^}]*?compatible = \"pci-host-ecam-generic\"", src, flags=re.S)
    if not m:
        fail("the machine has no pci-host-ecam-generic bridge")
    bell_cfg = int(m.group(1), 16) + (slot << 15)
    fw_args = (fw_args + " " if fw_args else "") + "hartpool.host_bell=0x%x" % bell_cfg
    for a in (fw_args, lx_args):
        if '"' in a or "\\" in a:
            fail(f"bootargs with a quote or backslash: {a}")
    cpus = {int(m.group(1)): m.group(2) for m in re.finditer(
        r"cpu@([0-9]+) \{\s*phandle = <(0x[0-9a-f]+)>;", src)}
    n = len(cpus)
    if sorted(cpus) != list(range(n)):
        fail(f"harts {sorted(cpus)} are not 0..{n - 1}")
    if not 1 <= lx_harts < n:
        fail(f"{lx_harts} Linux harts of {n}: Linux and the firmware need one each at least")
    if initrd <= 0 or INITRD + initrd > LX_DTB:
        fail(f"an initramfs of {initrd} bytes does not fit 0x{INITRD:x}-0x{LX_DTB:x}")
    if not re.search(r"memory@80000000 \{[^}]*reg = <0x00 0x80000000 0x00 0x80000000>", src):
        fail("the machine's memory is not 2 GiB at 0x80000000 (--mem 2G)")
    lx = set(range(lx_harts))

    def harts(s, keep):
        def one(m):
            body = m.group(0)
            if int(m.group(1)) not in keep:
                body = body.replace('status = "okay";', 'status = "disabled";')
            return body
        return re.sub(r"cpu@([0-9]+) \{.*?\n\t\t\};", one, s, flags=re.S)

    def memory(s, base, size):
        return re.sub(r"memory@80000000 \{.*?reg = <[^>]*>;",
                      "memory@%x {\n\t\tdevice_type = \"memory\";\n\t\t"
                      "reg = <0x00 0x%x 0x00 0x%x>;" % (base, base, size),
                      s, count=1, flags=re.S)

    def bootargs(s, args):
        s = re.sub(r"\n\t\tbootargs = [^;]*;", "", s)
        return s.replace("chosen {", "chosen {\n\t\tbootargs = \"%s\";" % args, 1) if args else s

    def node(s, pattern):  # remove a /soc node
        return re.sub(r"\n\t\t" + pattern + r" \{.*?\n\t\t\};", "", s,
                      count=1, flags=re.S)

    # the firmware's memory ends below QEMU's own tree (OpenSBI's, at
    # 0xbfe00000), which would be left in its buffers
    fw = bootargs(memory(harts(src, set(range(lx_harts, n))), FW_MEM, SIZE - 0x200000), fw_args)
    # the firmware's stop parks its harts and leaves Linux's machine
    # running: no test device (its finisher ends QEMU) in its tree, and no
    # system reset for its domain (the host ends QEMU: hp_down)
    for pat in (r"test@100000", r"poweroff", r"reboot"):
        fw = node(fw, pat)
    linux = bootargs(memory(harts(src, lx), LX_MEM, SIZE), lx_args)
    for pat in (r"serial@10000000", r"test@100000", r"poweroff", r"reboot"):
        linux = node(linux, pat)
    linux = re.sub(r"\n\t\tstdout-path = [^;]*;", "", linux)
    # the doorbell: the firmware's boot hart's SETSSIP word in the ACLINT's
    # SSWI, which Linux does not drive (its node gone from Linux's tree)
    bell = ""
    m = re.search(r"sswi@([0-9a-f]+) \{", src)
    if m:
        linux = node(linux, r"sswi@" + m.group(1))
        addr = int(m.group(1), 16) + 4 * lx_harts
        bell = "\n\t\thartpool,doorbell = <0x00 0x%x>;" % addr
    bell += '\n\t\thartpool,host-bell = "0000:00:%02x.0";\n\t\thartpool,host-bell-ack = <0x64>;' % slot
    linux = linux.replace("chosen {", "chosen {\n\t\thartpool,mailbox = <0x00 0x90000000>;" + bell, 1)
    linux = linux.replace("chosen {", "chosen {\n\t\tlinux,initrd-start = <0x00 0x%x>;"
                          "\n\t\tlinux,initrd-end = <0x00 0x%x>;" % (INITRD, INITRD + initrd), 1)
    ph = lambda hs: " ".join(cpus[i] for i in hs)
    doms = f"""
		opensbi-domains {{
			compatible = "opensbi,domain,config";
			all: all {{ compatible = "opensbi,domain,memregion"; base = <0x0 0x0>; order = <64>; }};
			devices: devices {{ compatible = "opensbi,domain,memregion"; base = <0x0 0x0>; order = <31>; mmio; }};
			mbox: mbox {{ compatible = "opensbi,domain,memregion"; base = <0x0 0x90000000>; order = <28>; }};
			bufs: bufs {{ compatible = "opensbi,domain,memregion"; base = <0x0 0xa0000000>; order = <29>; }};
			lxmem: lxmem {{ compatible = "opensbi,domain,memregion"; base = <0x0 0x{LX_MEM:x}>; order = <30>; }};
			fwdom: hartpool {{
				compatible = "opensbi,domain,instance";
				possible-harts = <{ph(range(lx_harts, n))}>;
				regions = <&lxmem 0x0>, <&all 0x7>;
				boot-hart = <{cpus[lx_harts]}>;
				next-arg1 = <0x0 0x{FW_DTB:x}>;
				next-addr = <0x0 0x80200000>;
				next-mode = <0x1>;
			}};
			lxdom: linux {{
				compatible = "opensbi,domain,instance";
				possible-harts = <{ph(range(lx_harts))}>;
				regions = <&lxmem 0x7>, <&mbox 0x3>, <&bufs 0x3>, <&devices 0x3>;
				boot-hart = <{cpus[0]}>;
				next-arg1 = <0x0 0x{LX_DTB:x}>;
				next-addr = <0x0 0x{LX_MEM + 0x200000:x}>;
				next-mode = <0x1>;
			}};
		}};"""
    root = re.sub(r"(chosen \{.*?)(\n\t\};)", lambda m: m.group(1) + doms + m.group(2),
                  src, count=1, flags=re.S)
    root = re.sub(r"cpu@([0-9]+) \{(\s*phandle = <0x[0-9a-f]+>;)",
                  lambda m: m.group(0) + "\n\t\t\topensbi-domain = <&%s>;" %
                  ("lxdom" if int(m.group(1)) in lx else "fwdom"), root)
    for name, text in (("root", root), ("hartpool", fw), ("linux", linux)):
        with open(f"{out}/{name}.dts", "w") as f:
            f.write(text)


main()
