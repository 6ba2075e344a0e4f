#!/usr/bin/env bash
# A user's own sc_main against an installed wallsim: installs the build into a temporary prefix,
# builds examples/custom_system with find_package(wallsim), and runs it on the H100 preset. The
# example's copy kernel must slow down while the example's own initiator streams reads into the
# same HBM through an interconnect, and every read must be answered.
set -euo pipefail
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log"
cmake -S "$src/examples/custom_system" -B "$tmp/build" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  -DCMAKE_BUILD_TYPE=Release >"$tmp/configure.log" || { cat "$tmp/configure.log"; exit 1; }
cmake --build "$tmp/build" -j2 >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
out=$(SC_COPYRIGHT_MESSAGE=DISABLE "$tmp/build/custom_system" "$tmp/prefix/share/wallsim/configs/hw/h100.yaml")
echo "$out"
alone=$(echo "$out" | sed -n '1s/.*: \([0-9.e+-]*\) us.*/\1/p')
shared=$(echo "$out" | sed -n '2s/.*: \([0-9.e+-]*\) us.*/\1/p')
answered=$(echo "$out" | sed -n 's/^traffic generator: \([0-9]*\) reads answered$/\1/p')
python3 - "$alone" "$shared" "$answered" <<'PY'
import sys
alone, shared, answered = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
assert shared > alone * 1.05, f"the copy did not slow down beside the traffic: {alone} -> {shared} us"
assert answered == 4000, f"{answered} of 4000 reads answered"
print(f"ok: {alone:.1f} us alone, {shared:.1f} us beside 1 TB/s of reads")
PY
