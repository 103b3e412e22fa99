# Firmware only: main (dispatcher on hart 0), the serial agent on the UART
# and PLIC (both only in hartpool.elf), and the trap glue that resumes the
# pool after a trap in kernel code (in every image that links the executor).
firmware-main-srcs := firmware/main.c firmware/serial_uart.c
firmware-srcs := firmware/trap_fw.c
