# The executor core: NDRange, commands, the work-pool, kernel context and
# work-group execution. Portable: the firmware links it and the host builds
# it with threads as harts (tests/host, tests/fuzz).
executor-srcs := executor/ndrange.c executor/pool.c executor/wg.c \
                 executor/subgroup.c executor/cmd.c executor/fault.c \
                 executor/printf.c
