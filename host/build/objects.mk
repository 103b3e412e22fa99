# The kernel build pipeline (libhartpool-build.a, docs/opencl.md): C and
# OpenCL C sources to kernel objects. Its stages (job.h) go over one job:
# compile (clang-19 to bitcode), rewrite and link (the IR through LLVM's C
# API), code generation (LLVM's RISC-V target), package (descriptors, the
# cross link, the ELF-to-.hpk conversion). Linked by the CLI and the ICD;
# it uses libhartpool (host/lib) and nothing above it.
LLVM_CONFIG ?= llvm-config-19
LLVM_INCDIR := $(shell $(LLVM_CONFIG) --includedir 2>/dev/null || echo /usr/lib/llvm-19/include)
LLVM_LIBS := $(shell $(LLVM_CONFIG) --ldflags --libs 2>/dev/null || echo -L/usr/lib/llvm-19/lib -lLLVM-19)
host-build-srcs := host/build/clc.c host/build/compile.c \
                   host/build/kernels.c host/build/rewrite.c \
                   host/build/rowloop.c host/build/irmap.c \
                   host/build/wgfn.c host/build/wgcut.c host/build/wgregion.c \
                   host/build/wgdiv.c \
                   host/build/link.c host/build/codegen.c host/build/desc.c \
                   host/build/options.c \
                   host/build/objlink.c host/build/package.c \
                   host/build/tools.c host/build/cache.c \
                   host/build/sha256.c host/build/stack.c
