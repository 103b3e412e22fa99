# The OpenCL C built-in library (docs/opencl.md): LLVM bitcode per ISA/ABI,
# linked by hp_cl_build into every kernel object built from OpenCL C.
