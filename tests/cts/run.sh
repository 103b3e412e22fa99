#!/usr/bin/env bash
# The Khronos OpenCL CTS against the ICD (docs/conformance.md): finds the
# CTS build, then runs tests/cts/cts.py with the arguments given.
#   tests/cts/run.sh [cts.py options]
# The build: $CTS_DIR, else ../shared/cts beside this repository or beside
# the one it was cloned from. Exit status 77: no CTS build found.
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 1

find_cts() {
	local origin d
	origin=$(git -C "$root" remote get-url origin 2>/dev/null || true)
	for d in "${CTS_DIR:-}" "$root/../shared/cts" "${origin:+$origin/../shared/cts}"; do
		[ -n "$d" ] && [ -d "$d/build/test_conformance" ] && { (cd "$d" && pwd); return 0; }
	done
	return 1
}

if ! dir=$(find_cts); then
	echo "cts: no CTS build (CTS_DIR, or ../shared/cts beside the repository);" \
		"docs/conformance.md says how to build one"
	exit 77
fi
echo "cts: the CTS build in $dir"
exec python3 tests/cts/cts.py --cts "$dir" "$@"
