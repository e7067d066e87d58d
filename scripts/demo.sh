#!/usr/bin/env bash
# Builds the demo page (www/, a Leptos CSR app) with Trunk into dist/ and serves it on
# 127.0.0.1.
#
# Usage: scripts/demo.sh                builds, then serves dist/ at http://127.0.0.1:$PORT/
#                                       (PORT defaults to 8080; a free port if it is taken)
#        scripts/demo.sh --build-only   builds only
#        scripts/demo.sh --serve-only   serves the dist/ already built
#
# Assumes the tools are installed (scripts/setup.sh installs them): cargo with the
# wasm32-unknown-unknown target, trunk, wasm-bindgen (wasm-bindgen-cli, same version as
# Cargo.lock), wasm-opt (npm's binaryen, node_modules/.bin) and node.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build=1
serve=1
for arg in "$@"; do
  case $arg in
    --build-only) serve=0 ;;
    --serve-only) build=0 ;;
    -h | --help)
      sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      printf 'demo: unknown option %s (try --help)\n' "$arg" >&2
      exit 2
      ;;
  esac
done

die() {
  printf 'demo: error: %s\n' "$*" >&2
  exit 1
}

# binaryen's wasm-opt from npm must come first: Trunk.toml asks for version_132.
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

need() {
  command -v "$1" >/dev/null 2>&1 || die "\`$1\` is not installed ($2); run scripts/setup.sh"
}

need node "Node.js, serves the page"
if ((build)); then
  need cargo "the Rust toolchain"
  need trunk "cargo install trunk --version 0.21.14 --locked"
  need wasm-bindgen "cargo install wasm-bindgen-cli --version 0.2.130"
  need wasm-opt "npm's binaryen@132 in node_modules/.bin: npm install"
  if command -v rustup >/dev/null 2>&1 &&
    ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    die "the rust target wasm32-unknown-unknown is not installed (rustup target add wasm32-unknown-unknown); run scripts/setup.sh"
  fi
  printf 'demo: building the demo page with trunk (release; a cold build takes minutes)\n'
  trunk build --offline || die "trunk build failed"
  printf 'demo: built into %s/dist/\n' "$PWD"
fi

if ((serve)); then
  [[ -f dist/index.html ]] || die "dist/index.html is missing: build first (scripts/demo.sh --build-only)"
  exec node tests/e2e/serve.mjs dist
fi
