# Board: QEMU virt, RV64 with the vector extension (RVV 1.0, VLEN 256):
# qemu-virt's board, its harts with V. Read by the top-level Makefile and by
# qemu/hp-qemu.
include board/qemu-virt/board.mk
BOARD_ARCH        := rv64imafdcv_zicsr_zifencei
# The largest VLEN (bits) whose vector registers a kernel context saves: a
# hart with a longer one runs without V (docs/vector.md).
BOARD_VLEN_MAX    := 512
# The trap area grows by 32 * 64 bytes (boot/include/boot/trap_frame.h):
# the stack keeps its 14 KiB.
BOARD_STACK_SIZE  := 18432
QEMU_CPU          := rv64,v=true,vlen=256,elen=64,vext_spec=v1.0
# The project's patched QEMU (qemu/build.sh; `make qemu-cluster` builds it
# once): Debian's 7.2 aborts translating the vector float-to-int
# conversions with a static rounding mode (vfcvt.rtz.x.f.v, which the
# vectoriser makes of OpenCL's (int)x): qemu/patches/0003.
QEMU_PATCHED      := 1
