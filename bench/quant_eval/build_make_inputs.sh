#!/usr/bin/env bash
# Builds tests/interop/make_inputs.cc (qforge_make_inputs: the exact input
# tensors qforge's --data layer makes, written as .npy) against an existing
# qforge build, for when the build tree has no qforge_make_inputs target yet.
# It borrows the compile flags and the link line of the qforge binary itself,
# so it links the very libraries `qforge` was linked with.
#
#   bash bench/quant_eval/build_make_inputs.sh BUILD_DIR OUT_BINARY
set -euo pipefail
build=$(cd "${1:?usage: build_make_inputs.sh BUILD_DIR OUT_BINARY}" && pwd)
out=${2:?usage: build_make_inputs.sh BUILD_DIR OUT_BINARY}
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$(dirname "$out")"
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")

# Compile flags of cmd/main.cc (defines, include dirs, -std, -march).
flags=$(python3 - "$build/compile_commands.json" <<'EOF'
import json, shlex, sys
for e in json.load(open(sys.argv[1])):
    if e['file'].endswith('/cmd/main.cc'):
        args = shlex.split(e['command'])
        keep, skip = [], False
        for a in args[1:]:
            if skip: skip = False; continue
            if a in ('-o', '-c'): skip = True; continue
            keep.append(a)
        print(' '.join(shlex.quote(a) for a in keep))
        break
else:
    sys.exit('no compile command for cmd/main.cc in ' + sys.argv[1])
EOF
)
link="$build/cmd/CMakeFiles/qforge.dir/link.txt"
[ -f "$link" ] || { echo "build_make_inputs: $link missing (build qforge first)" >&2; exit 1; }
obj="$out.o"
eval c++ $flags -c "$src/tests/interop/make_inputs.cc" -o "$obj"
# The qforge link line with main.cc.o swapped for make_inputs.o.
cmd=$(sed -e "s#CMakeFiles/qforge.dir/main.cc.o#$obj#" -e "s# -o qforge # -o $out #" "$link")
(cd "$build/cmd" && eval "$cmd")
rm -f "$obj"
echo "build_make_inputs: built $out"
