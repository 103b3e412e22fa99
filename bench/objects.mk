# Benchmark images (boot + hal + one source each); bench/run.sh runs them.
bench-images := boot compute lock lock_spin wait wait_spin exec_overhead kbench
