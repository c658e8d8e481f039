#!/usr/bin/env bash
# npm run lint: every check runs, the exit status is non-zero if any failed.
#   - clang-format on the C++ (core/, wasm/bind/);
#   - flake8's pyflakes checks (F: unused and undefined names, ...) on the Python;
#   - ESLint's recommended rules on the JS (eslint.config.js);
#   - the layout's choke points, the import table of docs/architecture.md (no import circle,
#     JS or Python) and the protocol doc (scripts/check_layers.py, scripts/layers_imports.py).
set -uo pipefail
cd "$(dirname "$0")/.."

failed=()
run() {
  local name=$1
  shift
  if "$@"; then
    echo "lint: $name ok"
  else
    echo "lint: $name FAILED" >&2
    failed+=("$name")
  fi
}

mapfile -t cpp < <(git ls-files -- 'core/*.cpp' 'core/*.cc' 'core/*.h' 'core/*.hpp' \
  'wasm/bind/*.cpp' 'wasm/bind/*.h')
run "clang-format (${#cpp[@]} C++ files)" clang-format --dry-run -Werror "${cpp[@]}"
mapfile -t py < <(git ls-files -- '*.py')
run "flake8 (${#py[@]} Python files)" flake8 --select=F "${py[@]}"
run "eslint" node node_modules/eslint/bin/eslint.js --max-warnings 0 .
run "layers" python3 scripts/check_layers.py

if ((${#failed[@]})); then
  echo "lint: FAILED: ${failed[*]}" >&2
  exit 1
fi
