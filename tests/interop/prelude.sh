# Sourced by the interop scripts that take QFORGE TESTDATA_DIR: installs
# the pinned LiteRT harness (setup.sh), exits 77 (ctest's skip) without
# Node.js and 1 when the install fails, and makes a work folder $work that
# is removed on exit. Sets here, qforge, testdata, work.
here=$(cd "$(dirname "$0")" && pwd)
qforge=$1
testdata=$2
out="$(bash "$here/setup.sh")" || { echo "$out"; exit 1; }
case "$out" in *"node absent"*) echo "$out"; exit 77 ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
