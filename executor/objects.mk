# The executor core (portable: also built for the host) and the firmware's
# main program.
executor-srcs := executor/ndrange.c executor/pool.c executor/wg.c \
                 executor/subgroup.c executor/cmd.c executor/error.c \
                 executor/dispatch.c
executor-main-srcs := executor/main.c
executor-srcs += executor/frame.c executor/serial_agent.c
# Firmware only: the serial agent on the UART and PLIC.
executor-main-srcs += executor/serial_uart.c
