# The kernel compiler (libhartpool-clc.a, docs/opencl.md): C and OpenCL C
# sources to kernel objects. Its stages (job.h) go over one job: compile
# (clang-19 to bitcode), rewrite and link (the IR through LLVM's C API),
# code generation (LLVM's RISC-V target), package (descriptors, the cross
# link, the ELF-to-.hpk conversion). Each file has its header; a new stage
# is listed here. Linked by the CLI and the ICD; it uses libhartpool
# (host/lib) and nothing above it.
LLVM_CONFIG ?= llvm-config-19
LLVM_INCDIR := $(shell $(LLVM_CONFIG) --includedir 2>/dev/null || echo /usr/lib/llvm-19/include)
# and libstdc++'s __cxa_demangle, which SPIR-V builds match built-ins by
LLVM_LIBS := $(shell $(LLVM_CONFIG) --ldflags --libs 2>/dev/null || echo -L/usr/lib/llvm-19/lib -lLLVM-19) -lstdc++
host-clc-srcs := host/clc/clc.c host/clc/compile.c \
                   host/clc/kernels.c host/clc/rewrite.c \
                   host/clc/rowloop.c host/clc/irmap.c \
                   host/clc/wgfn.c host/clc/wgcut.c host/clc/wgregion.c \
                   host/clc/wgdiv.c host/clc/wgsg.c host/clc/wglead.c host/clc/parloop.c \
                   host/clc/link.c host/clc/codegen.c host/clc/desc.c \
                   host/clc/options.c \
                   host/clc/objlink.c host/clc/package.c host/clc/elfread.c \
                   host/clc/tools.c host/clc/cache.c host/clc/prebuilt.c \
                   host/clc/sha256.c host/clc/stack.c \
                   host/clc/fail.c host/clc/clobj.c host/clc/globals.c host/clc/spir.c host/clc/spirv.c host/clc/spirv_lower.c
