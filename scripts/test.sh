#!/usr/bin/env bash
# Runs every test layer against an existing build (npm test runs setup and build first):
#   0. lint (clang-format)   1. ctest (core, native)
#   2. Vitest in Node (wasm, runtime, CLI, Python surface, npm package)
#   3. the docs' NKI examples (`nki-playground check docs`)   4. Vitest + Chromium against build/site.
# Every layer runs even if an earlier one fails; the exit status is non-zero if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."

failed=()
layer() {
  local name=$1
  shift
  local t0=$SECONDS
  printf '\n== test: %s\n' "$name"
  if "$@"; then
    printf '== test: %s passed in %ss\n' "$name" "$((SECONDS - t0))"
  else
    printf '== test: %s FAILED in %ss\n' "$name" "$((SECONDS - t0))"
    failed+=("$name")
  fi
}

layer "lint" bash scripts/lint.sh
layer "ctest" ctest --test-dir build/native --output-on-failure
layer "vitest (node)" node node_modules/vitest/vitest.mjs run
layer "docs examples" node bin/nki-playground.mjs check docs
layer "vitest (browser)" node node_modules/vitest/vitest.mjs run --config vitest.browser.config.js

if ((${#failed[@]})); then
  printf '\ntest: FAILED layers: %s\n' "${failed[*]}" >&2
  exit 1
fi
printf '\ntest: all layers passed\n'
