#!/usr/bin/env bash
# Formatting check: clang-format on the C++ (core/, wasm/bind/) when the repository has a
# .clang-format. Exits non-zero on any formatting difference.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ ! -f .clang-format ]]; then
  echo "lint: no .clang-format at the repository root; nothing to check"
  exit 0
fi
mapfile -t files < <(git ls-files -- 'core/*.cpp' 'core/*.cc' 'core/*.h' 'core/*.hpp' \
  'wasm/bind/*.cpp' 'wasm/bind/*.h')
if ((${#files[@]} == 0)); then
  echo "lint: no C++ files tracked"
  exit 0
fi
clang-format --dry-run -Werror "${files[@]}"
echo "lint: ${#files[@]} C++ files formatted"
