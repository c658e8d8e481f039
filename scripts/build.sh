#!/usr/bin/env bash
# Builds everything: the native core + gtest binaries (build/native), the wasm module
# (build/wasm/nki_core.{mjs,wasm}), the site's static inputs (Pyodide copy, Python bundle),
# the site itself (build/site) and the runtime's memory snapshot (build/snapshot, copied into
# the site).
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's emscripten 3.1.6 needs node-acorn from /usr/share/nodejs (toolchain.md P1).
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
JOBS=$(nproc 2>/dev/null || echo 2)
NODE_BIN=$(command -v node)

step() {
  local name=$1
  shift
  local t0=$SECONDS
  printf '\n== build: %s\n' "$name"
  "$@"
  printf '== build: %s done in %ss\n' "$name" "$((SECONDS - t0))"
}

step "native configure" cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release
step "native build" cmake --build build/native -j"$JOBS"
# The emulator flag replaces emcmake's default `node;--experimental-wasm-threads`, which
# Node 20 rejects (toolchain.md P2).
step "wasm configure" emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CROSSCOMPILING_EMULATOR="$NODE_BIN"
step "wasm build" cmake --build build/wasm -j"$JOBS"
step "copy pyodide" node scripts/copy-pyodide.mjs
step "bundle python" node scripts/bundle-python.mjs
step "site" node node_modules/vite/bin/vite.js build --config web/vite.config.js --logLevel warn
step "embed element + docs demo" node scripts/build-embed.mjs
step "docs pages" node scripts/build-docs.mjs
step "view components test page" node node_modules/vite/bin/vite.js build --config web/vite.views-test.config.js --logLevel warn
# After the site (which empties build/site); kept when the Python sources and Pyodide are unchanged.
step "memory snapshot" node scripts/make-snapshot.mjs

