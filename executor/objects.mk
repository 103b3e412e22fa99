# The firmware's main program.
executor-srcs := executor/main.c
