# Benchmark images (boot + hal + one source each); bench/run.sh runs them.
bench-images := boot compute lock lock_spin wait wait_spin exec_overhead kbench teambar \
                dispatch_scale zero_clear

# Host-side benchmark programs, linked with libhartpool (bench/serial.sh).
bench-host := serial_link zero_alloc slices
$(patsubst %,$(HOST_O)/bench/%,$(bench-host)): $(HOST_O)/bench/%: \
		$(HOST_O)/tool/bench/%.c.o $(HOST_O)/libhartpool.a
	@echo "  HOSTLD  $@"
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) -pthread -o $@ $^

# The ICD's launch path (bench/opencl.sh): a plain OpenCL program.
$(HOST_O)/bench/cl_launch: bench/opencl/launch.c
	@echo "  HOSTCC  $@"
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) -O2 -std=gnu11 $(WARN) -o $@ $< -lOpenCL
