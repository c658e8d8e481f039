#!/usr/bin/env bash
# Installs what the build and tests need, and only what is missing (idempotent):
#   - Debian packages (as root): emscripten, chromium, cmake, g++, libgtest-dev, python3-numpy,
#     clang-format, flake8,
#     ca-certificates. `apt-get update` runs once, and only if something is missing.
#   - npm packages: `npm ci` when node_modules was not installed from this package-lock.json
#     (its digest is kept in node_modules/.nkp-lock; an mtime check missed a lock changed by a
#     merge or copied with an old node_modules).
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(emscripten chromium cmake g++ libgtest-dev python3-numpy clang-format flake8 ca-certificates)

log() { printf 'setup: %s\n' "$*"; }

# Node: vite 7 needs >= 20.19; the core's ESM shim needs >= 20.16.
node_ok=$(node -e 'const [a,b]=process.versions.node.split(".").map(Number); console.log(a>20||(a===20&&b>=19)?1:0)' 2>/dev/null || echo 0)
if [[ "$node_ok" != 1 ]]; then
  echo "setup: Node.js >= 20.19 is required (found: $(node --version 2>/dev/null || echo none))" >&2
  exit 1
fi

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for pkg in "${APT_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$pkg")
    fi
  done
else
  # Not Debian: check the tools themselves and leave installing them to the user.
  for tool in emcc em++ cmake g++ /usr/bin/chromium; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
  done
fi

if ((${#missing[@]})); then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    log "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y "${missing[@]}"
  else
    echo "setup: missing ${missing[*]}; install them as root (apt-get install -y ${missing[*]})" >&2
    exit 1
  fi
else
  log "system packages present"
fi

lock_digest=$(sha256sum package-lock.json | cut -d' ' -f1)
if [[ "$(cat node_modules/.nkp-lock 2>/dev/null)" != "$lock_digest" ]]; then
  log "npm ci"
  npm ci --no-audit --no-fund
  echo "$lock_digest" > node_modules/.nkp-lock
else
  log "node_modules up to date"
fi
