#!/usr/bin/env bash
# Installs what qforge needs on Debian 12 (only what is missing), and the
# pinned npm packages of the LiteRT interop tests when Node.js is present.
#   --with-armnn  also Debian's Arm NN 20.08 (Python bindings, TfLite
#                 parser, CpuRef backend), which the Arm NN interop test
#                 runs qforge's models in (scripts/test.sh asks for it)
#   --with-slurm  also Debian's Slurm 22.05 (slurmctld, slurmd, client
#                 commands) and munge, which scripts/slurm_cluster.sh starts
#                 as a one-machine cluster for the Slurm recipe tests
#                 (scripts/test.sh asks for it)
set -euo pipefail
cd "$(dirname "$0")/.."
with_armnn=0
with_slurm=0
for arg in "$@"; do
  case "$arg" in
    --with-armnn) with_armnn=1 ;;
    --with-slurm) with_slurm=1 ;;
    *) echo "usage: scripts/install_deps.sh [--with-armnn] [--with-slurm]" >&2; exit 1 ;;
  esac
done

packages=(
  build-essential cmake pkg-config clang libclang-rt-14-dev
  libabsl-dev libflatbuffers-dev flatbuffers-compiler libcli11-dev
  libeigen3-dev nlohmann-json3-dev libstb-dev libgtest-dev libgmock-dev
  libbenchmark-dev zlib1g-dev libxxhash-dev libjpeg62-turbo-dev libre2-dev parallel
  ninja-build
  # Headless, for the report's HTML test (page layout at 1400 px).
  chromium
)
if [ "$with_armnn" = 1 ]; then
  packages+=(python3-pyarmnn libarmnn-cpuref-backend22 libarmnntfliteparser22
             python3-numpy)
fi
if [ "$with_slurm" = 1 ]; then
  packages+=(slurm-wlm slurmctld slurmd slurm-client munge)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install_deps: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ -f tests/interop/setup.sh ]; then
  bash tests/interop/setup.sh
fi
echo "install_deps: ok"
