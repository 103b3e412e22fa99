# The executor core (portable: also built for the host) and the firmware's
# main program.
executor-srcs := executor/ndrange.c executor/pool.c executor/wg.c \
                 executor/subgroup.c executor/cmd.c executor/error.c \
                 executor/dispatch.c executor/fault.c executor/printf.c \
                 executor/loader.c executor/api.c
executor-main-srcs := executor/main.c
executor-srcs += executor/frame.c executor/serial_agent.c
# Firmware only: the serial agent on the UART and PLIC.
executor-main-srcs += executor/serial_uart.c
# Firmware only, in every image that links the executor: a trap in kernel
# code resumes in the pool (boot_recover_hook).
executor-fw-srcs := executor/trap_fw.c
