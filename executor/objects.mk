# The executor core: commands, the work-pool, kernel context and work-group
# execution, NDRange and the device's limits. Portable: the firmware links
# it and the host builds it with threads as harts (tests/host, tests/fuzz).
# Read downward (docs/design.md): cmd -> pool (pool, launch, team) ->
# {park, kctx, wg} -> kview.h
# (park: preempted chunks and the contexts they keep, over kctx and wg).
executor-srcs := executor/cmd.c executor/pool.c executor/launch.c \
                 executor/team.c executor/park.c executor/kctx.c \
                 executor/wg.c executor/team_barrier.c executor/subgroup.c \
                 executor/printf.c executor/ndrange.c executor/device.c
executor-srcs += executor/trace.c
