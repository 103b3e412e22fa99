boot-srcs := boot/start.S boot/boot.c
