#!/usr/bin/env bash
# The Khronos OpenCL CTS against the ICD (docs/conformance.md): finds the
# CTS build, then runs tests/cts/cts.py with the arguments given.
#   tests/cts/run.sh [cts.py options]
# The build: $CTS_DIR (.ci/run passes it on). Exit status 77: no CTS build
# found.
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 1

find_cts() {
	local d=${CTS_DIR:-}
	[ -n "$d" ] && [ -d "$d/build/test_conformance" ] && (cd "$d" && pwd)
}

if ! dir=$(find_cts); then
	echo "cts: no CTS build (CTS_DIR=${CTS_DIR:-} names none);" \
		"docs/conformance.md says how to build one"
	exit 77
fi
echo "cts: the CTS build in $dir"
exec python3 tests/cts/cts.py --cts "$dir" "$@"
