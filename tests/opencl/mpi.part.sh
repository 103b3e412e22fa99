# MPI over several clusters (examples/mpi, docs/mpi.md): mpirun -np 4 on
# this machine, every rank its own QEMU cluster through the ICD, the
# results checked on rank 0; and a rank whose device is missing, or dies
# mid-job, ends the job with its error instead of hanging it. Sourced by
# tests/opencl/opencl.sh.

# mpi_run ARGS...: mpirun with what this machine needs (2 cores: more ranks
# than cores; root: Open MPI refuses root without the flag; hwloc's OpenCL
# component off: it would open the ICD's device, a QEMU, in mpirun).
mpi_run() {
	local root=()
	[ "$(id -u)" != 0 ] || root=(--allow-run-as-root)
	OCL_ICD_VENDORS="$PWD/build/host/hartpool.icd" HARTPOOL_HARTS=2 \
		HWLOC_COMPONENTS=-opencl \
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

# The QEMU processes booted by the ranks (the processes whose command
# line starts with the program @p 1), whatever launched them in between.
mpi_qemus() {
	local ranks
	ranks=$(pgrep -d, -f "^$1") || return 0
	ps -eo pid=,ppid=,comm= | awk -v r=",$ranks," '
		{ parent[$1] = $2; name[$1] = $3 }
		END { for (p in name) if (name[p] ~ /^qemu-system/)
			for (q = parent[p]; q > 1; q = parent[q])
				if (index(r, "," q ",")) { print p; break } }'
}

t_mpi_rank_dies() {
	local tmp out rc q i
	tmp=$(mktemp -d)
	mpi_build "$tmp/mpi_cl"
	# a long job (the SGEMM 100000 times); once the four ranks have their
	# devices, one rank's QEMU is killed
	mpi_run -np 4 "$tmp/mpi_cl" 64 100000 >"$tmp/out" 2>&1 &
	local job=$!
	for i in $(seq 600); do
		[ "$(grep -c "^rank [0-3] of 4: device" "$tmp/out")" = 4 ] && break
		kill -0 $job 2>/dev/null || break
		sleep 0.2
	done
	sleep 1
	q=$(mpi_qemus "$tmp/mpi_cl" | head -1)
	[ -n "$q" ] || { cat "$tmp/out"; kill $job; rm -rf "$tmp"; fail "no rank's QEMU found"; }
	echo "killing QEMU $q"
	kill -9 "$q"
	wait $job
	rc=$?
	out=$(cat "$tmp/out")
	rm -rf "$tmp"
	echo "$out" | grep -v "^rank [0-3] of 4" | head -20
	[ $rc != 0 ] || fail "the job succeeded without a device"
	[ $rc != 124 ] && [ $rc != 137 ] || fail "the job hung (timeout): $out"
	grep -q "^rank [0-3]: .*OpenCL error -2 (CL_DEVICE_NOT_AVAILABLE)" <<<"$out" ||
		fail "no rank named its device's error"
	echo "ok: the rank whose QEMU died ended the job (exit $rc)"
}
