#!/usr/bin/env bash
# Installs the interop harness's pinned npm packages into tests/interop/node_modules
# (exactly package-lock.json: @litertjs/core 2.5.3 + @litertjs/wasm-utils 2.5.3,
# @tensorflow/tfjs-tflite 0.0.1-alpha.10; its peer @tensorflow/tfjs-core is not
# used and not installed: legacy-peer-deps, see .npmrc).
#
#   bash tests/interop/setup.sh
#
# Idempotent and quiet: runs `npm ci` only when node_modules is missing or does
# not match package-lock.json, and prints one line.
# Exit status:
#   0  ready ("setup: ok ..."), or Node.js >= 20 is not installed: then it prints
#      "setup: node absent ..." and callers skip the interop tests;
#   1  the install failed (npm missing, registry unreachable, lock mismatch...).
set -euo pipefail
src="${BASH_SOURCE[0]}"
case "$src" in */*) here="${src%/*}" ;; *) here=. ;; esac
here="$(cd "$here" && pwd)"
cd "$here"

if ! command -v node >/dev/null 2>&1; then
  echo "setup: node absent (Node.js >= 20 is needed for the interop tests; they will be skipped)"
  exit 0
fi
node_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$node_major" -lt 20 ]; then
  echo "setup: node absent (found node $(node --version), need >= 20; the interop tests will be skipped)"
  exit 0
fi

# 0 when every package of package-lock.json is installed at its locked version
# and the runtimes' wasm files are there.
installed() {
  node -e '
    const fs = require("fs");
    const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
    for (const [dir, meta] of Object.entries(lock.packages || {})) {
      if (!dir) continue;
      let v = null;
      try { v = JSON.parse(fs.readFileSync(dir + "/package.json", "utf8")).version; } catch {}
      if (v !== meta.version) { console.error(dir + ": " + (v || "missing") + ", want " + meta.version); process.exit(1); }
    }
    for (const f of ["@litertjs/core/wasm/litert_wasm_compat_internal.wasm", "@tensorflow/tfjs-tflite/wasm/tflite_web_api_cc.wasm"])
      if (!fs.existsSync("node_modules/" + f)) { console.error(f + " missing"); process.exit(1); }
  ' 2>/dev/null
}

versions() {
  node -p 'const v = (p) => require("./node_modules/" + p + "/package.json").version; `@litertjs/core ${v("@litertjs/core")}, @tensorflow/tfjs-tflite ${v("@tensorflow/tfjs-tflite")}`'
}

if installed; then
  echo "setup: ok (node $(node --version), $(versions))"
  exit 0
fi

# Parallel callers (ctest -j) must not run two installs at once in one directory.
lock="${TMPDIR:-/tmp}/qforge-interop-setup-$(printf '%s' "$here" | cksum | cut -d' ' -f1).lock"
exec 9>"$lock"
if command -v flock >/dev/null 2>&1; then flock 9; fi
if installed; then # another caller finished the install meanwhile
  echo "setup: ok (node $(node --version), $(versions))"
  exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
  echo "setup: FAILED: node is installed but npm is not" >&2
  exit 1
fi
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! npm ci --no-audit --no-fund --legacy-peer-deps --loglevel=error >"$log" 2>&1; then
  echo "setup: FAILED: npm ci in $here did not succeed:" >&2
  tail -n 20 "$log" >&2
  exit 1
fi
if ! installed; then
  echo "setup: FAILED: npm ci finished but node_modules does not match package-lock.json" >&2
  exit 1
fi
echo "setup: installed (node $(node --version), $(versions))"
