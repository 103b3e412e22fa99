# The executor core (portable: also built for the host) and the firmware's
# main program.
executor-srcs := executor/ndrange.c executor/pool.c executor/wg.c \
                 executor/subgroup.c executor/cmd.c executor/error.c
executor-main-srcs := executor/main.c
