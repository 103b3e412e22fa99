# MPI over several clusters (examples/mpi, docs/mpi.md): mpirun -np 4 on
# this machine, every rank its own QEMU cluster through the ICD, the
# results checked on rank 0; and a rank whose device is missing ends the
# job with its error instead of hanging it. Sourced by tests/opencl/opencl.sh.

# mpi_run ARGS...: mpirun with what this machine needs (2 cores: more ranks
# than cores; root: Open MPI refuses root without the flag).
mpi_run() {
	local root=()
	[ "$(id -u)" != 0 ] || root=(--allow-run-as-root)
	OCL_ICD_VENDORS="$PWD/build/host/hartpool.icd" HARTPOOL_HARTS=2 \
		timeout -k 10 300 mpirun "${root[@]}" --oversubscribe "$@"
}

mpi_build() { # OUT
	mpicc -O2 -Wall -Wextra -Werror examples/mpi/mpi_cl.c -o "$1" -lOpenCL -lm ||
		fail "compiling examples/mpi/mpi_cl.c"
}

t_mpi_example() {
	local tmp out
	tmp=$(mktemp -d)
	mpi_build "$tmp/mpi_cl"
	out=$(mpi_run -np 4 "$tmp/mpi_cl" 96 2>&1) || { rm -rf "$tmp"; fail "mpirun: $out"; }
	rm -rf "$tmp"
	echo "$out"
	[ "$(grep -c "^rank [0-3] of 4: device hartpool qemu-virt" <<<"$out")" = 4 ] || fail "not 4 ranks on hartpool"
	grep -q "sgemm 96x96 over 4 ranks: OK" <<<"$out" || fail "sgemm wrong"
	grep -q "sum of 96000 ints over 4 ranks: .*, OK" <<<"$out" || fail "sum wrong"
}

t_mpi_rank_fails() {
	local tmp out
	tmp=$(mktemp -d)
	mpi_build "$tmp/mpi_cl"
	out=$(mpi_run -np 3 "$tmp/mpi_cl" 32 : -np 1 env HARTPOOL_BOARD=no-such-board \
		"$tmp/mpi_cl" 32 2>&1)
	local rc=$?
	rm -rf "$tmp"
	[ $rc != 0 ] || fail "the job succeeded without rank 3's device: $out"
	[ $rc != 124 ] && [ $rc != 137 ] || fail "the job hung (timeout): $out"
	grep -q "rank 3: clGetDeviceIDs.*OpenCL error -1" <<<"$out" || fail "no error from rank 3: $out"
	echo "ok: rank 3's missing device ended the job (exit $rc)"
}
