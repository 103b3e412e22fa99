# Programs nobody here wrote, and the example, through the ICD under the
# Debian OpenCL loader: examples/opencl/saxpy.c (a plain OpenCL host
# program and its .cl file) and PyOpenCL's example programs, unmodified,
# from the python-pyopencl-doc package. Sourced by tests/opencl/opencl.sh.

ICD_ENV=(OCL_ICD_VENDORS="$PWD/build/host/hartpool.icd" PYOPENCL_CTX=0 PYOPENCL_NO_CACHE=1)
PYCL_EXAMPLES=/usr/share/doc/python-pyopencl-doc/examples

example_saxpy() { # BOARD
	local tmp out
	tmp=$(mktemp -d)
	gcc -O2 -Wall -Wextra -Werror examples/opencl/saxpy.c -o "$tmp/saxpy" -lOpenCL -lm ||
		fail "compiling examples/opencl/saxpy.c"
	out=$(env "${ICD_ENV[@]}" HARTPOOL_BOARD="$1" timeout -k 5 120 "$tmp/saxpy" examples/opencl/saxpy.cl 2>&1)
	local rc=$?
	rm -rf "$tmp"
	echo "$out"
	[ $rc = 0 ] || fail "saxpy exited $rc"
	grep -q "device: hartpool $1" <<<"$out" || fail "not on hartpool $1"
	grep -q "saxpy of 4096 floats in 64 work-groups: OK" <<<"$out" || fail "wrong results"
}
t_example_saxpy_rv64() { example_saxpy qemu-virt; }
t_example_saxpy_rv32() { example_saxpy qemu-virt32; }

# pyopencl_example FILE [BOARD]: runs it on the hartpool device; the
# example's own assertions check the results against numpy.
pyopencl_example() {
	local rc
	out=$(env "${ICD_ENV[@]}" HARTPOOL_BOARD="${2:-qemu-virt}" \
		timeout -k 5 150 /usr/bin/python3 "$PYCL_EXAMPLES/$1" 2>&1)
	rc=$?
	echo "$out" | tail -n 20
	[ $rc = 0 ] || fail "$1 exited $rc"
}
t_pyopencl_demo() { pyopencl_example demo.py; }
t_pyopencl_demo_rv32() { pyopencl_example demo.py qemu-virt32; }
t_pyopencl_elementwise() { pyopencl_example demo_elementwise.py; }
t_pyopencl_array() { pyopencl_example demo_array.py; }
t_pyopencl_narray() { pyopencl_example narray.py; }
t_pyopencl_meta_template() { pyopencl_example demo_meta_template.py; }
t_pyopencl_struct_reduce() { pyopencl_example demo-struct-reduce.py; }
# PyOpenCL's own math test (test_clmath.py: every math built-in it knows
# against numpy over ranges of arguments), unmodified, on the hartpool
# device only (PYOPENCL_TEST); the tests that need scipy or pyfmmlib on the
# host skip themselves.
t_pyopencl_test_clmath() {
	local out rc tmp
	tmp=$(mktemp -d)
	# PyOpenCL's binary cache on (in a fresh place): the suite builds the
	# same kernels many times
	out=$(cd "$tmp" && env -u PYOPENCL_NO_CACHE "${ICD_ENV[0]}" XDG_CACHE_HOME="$tmp" \
		PYOPENCL_TEST=hartpool timeout -k 5 240 /usr/bin/python3 -m pytest -q \
		-p no:cacheprovider "$PYCL_EXAMPLES/test_clmath.py" 2>&1)
	rc=$?
	rm -rf "$tmp"
	echo "$out" | tail -n 5
	[ $rc = 0 ] || fail "test_clmath exited $rc"
	grep -qE "^[0-9]+ passed" <<<"$(tail -n 1 <<<"$out" | sed 's/^=* *//')" ||
		fail "no passed tests"
}

t_pyopencl_dump_properties() {
	pyopencl_example dump-properties.py
	grep -q "^VENDOR: hartpool" <<<"$out" || fail "the hartpool device is not listed"
	grep -q "^MAX_COMPUTE_UNITS: 8" <<<"$out" || fail "not the 8-hart device"
}
