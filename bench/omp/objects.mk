# The OpenMP peer (bench/omp/, docs/peer.md): Linux user-mode programs built
# with the riscv64 Linux cross compiler and libgomp, run by bench/omp/run.sh
# under qemu-riscv64. Same ISA and -O2 -std=gnu11 as the firmware (so the
# same floating-point contraction); linked statically, so no loader or PLT
# runs inside a measured region and qemu-riscv64 needs no -L.
# (--no-warnings: glibc's static-link notice about dlopen in libgomp.)
#
#   make omp-peer      build/omp/epcc and build/omp/kernels

OMP_CC ?= riscv64-linux-gnu-gcc
OMP_O := build/omp
OMP_CFLAGS := -std=gnu11 -O2 -fopenmp $(WARN) -Iinclude
OMP_LDFLAGS := -static -Wl,--no-warnings
omp-progs := $(OMP_O)/epcc $(OMP_O)/kernels

$(omp-progs): $(OMP_O)/%: bench/omp/%.c bench/omp/common.h include/hartpool/marker.h
	@echo "  OMPCC   $@"
	@mkdir -p $(dir $@)
	$(Q)$(OMP_CC) $(OMP_CFLAGS) -o $@ $< $(OMP_LDFLAGS) -lm

.PHONY: omp-peer
omp-peer: $(omp-progs)
