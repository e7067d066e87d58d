#!/usr/bin/env bash
# Builds the server-rendering example (examples/ssr/, an axum + leptos_axum app) with the
# two builds `cargo leptos build` makes (without its dev-mode `--cfg erase_components`),
# without needing cargo-leptos, and serves it:
#   1. the server: the binary with feature `ssr` (target/debug/citekit-ssr-example);
#   2. the browser build: the library for wasm32 with feature `hydrate`, then
#      `wasm-bindgen --target web` into the site root's pkg/ (target/ssr-example/pkg,
#      the `site-root` and `site-pkg-dir` of the example's [package.metadata.leptos]).
# The server reads those settings from the example's Cargo.toml and serves
# http://127.0.0.1:3000/ (LEPTOS_SITE_ADDR=127.0.0.1:8000 picks another address).
#
# Usage: scripts/ssr-example.sh                builds, then runs the server
#        scripts/ssr-example.sh --build-only   builds only (tests/ssr/run.mjs)
#
# Assumes the tools are installed (scripts/setup.sh installs them): cargo with the
# wasm32-unknown-unknown target and wasm-bindgen (wasm-bindgen-cli, the version of
# Cargo.lock).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

serve=1
for arg in "$@"; do
  case $arg in
    --build-only) serve=0 ;;
    -h | --help)
      sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      printf 'ssr-example: unknown option %s (try --help)\n' "$arg" >&2
      exit 2
      ;;
  esac
done

die() {
  printf 'ssr-example: error: %s\n' "$*" >&2
  exit 1
}

export PATH="$HOME/.cargo/bin:$PATH"
command -v cargo >/dev/null 2>&1 || die "\`cargo\` is not installed: install Rust with rustup"
command -v wasm-bindgen >/dev/null 2>&1 ||
  die "\`wasm-bindgen\` is not installed (cargo install wasm-bindgen-cli --version 0.2.130); run scripts/setup.sh"

SITE_PKG=target/ssr-example/pkg
WASM=target/wasm32-unknown-unknown/debug/citekit_ssr_example.wasm

printf 'ssr-example: building the server (feature ssr)\n'
cargo build -p citekit-ssr-example --features ssr --bin citekit-ssr-example ||
  die "the server build failed"
printf 'ssr-example: building the browser build (feature hydrate, wasm32)\n'
cargo build -p citekit-ssr-example --lib --target wasm32-unknown-unknown --features hydrate ||
  die "the browser build failed"
mkdir -p "$SITE_PKG"
wasm-bindgen --target web --no-typescript --out-dir "$SITE_PKG" "$WASM" ||
  die "wasm-bindgen failed (its version must be the one in Cargo.lock)"
printf 'ssr-example: built target/debug/citekit-ssr-example and %s/\n' "$SITE_PKG"

if ((serve)); then
  exec target/debug/citekit-ssr-example
fi
