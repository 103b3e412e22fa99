#!/usr/bin/env bash
# OpenCL tests: OpenCL C kernels through `hartpool build` / `hartpool run`,
# the ICD under the Debian OpenCL loader (clinfo, host programs), on
# qemu-virt and qemu-virt32.
#
#   tests/opencl/opencl.sh list        the test names
#   tests/opencl/opencl.sh run NAME    run one; exit status 0 = pass
#
# Tests are functions t_NAME in the files tests/opencl/*.part.sh.
set -uo pipefail
cd "$(dirname "$0")/../.."
HP=build/host/hartpool
fail() { echo "FAIL: $*"; exit 1; }
for f in tests/opencl/*.part.sh; do
	[ -e "$f" ] || continue
	# shellcheck disable=SC1090
	. "$f"
done
case "${1:-}" in
list) declare -F | awk '$3 ~ /^t_/ {print substr($3, 3)}' ;;
run)
	declare -F "t_$2" >/dev/null || fail "no test $2"
	"t_$2"
	;;
*) echo "usage: $0 list | run NAME" >&2; exit 2 ;;
esac
