#!/usr/bin/env bash
# Installs what citekit's build and tests need and is missing; does nothing for what is
# there already, so it is cheap to run before every `npm test` / `npm start`.
#
# Needs: Rust (rustup + cargo) and Node/npm. Everything else comes from rustup,
# crates.io, npm or Debian's packages (apt-get, as root or through sudo).
#
# Usage: bash scripts/setup.sh        installs what the tests use today
#        source scripts/setup.sh      only defines the ensure_* functions
#
# The functions below are the building blocks; `main` at the end says what is installed
# today. Later pieces (browser tests, the demo page) add their lines to `main`:
#   ensure_cargo_tool wasm-bindgen-cli 0.2.130 wasm-bindgen   # same version as Cargo.lock
#   ensure_cargo_tool trunk 0.21.14 trunk --locked
#   ensure_apt chromium chromium-driver

say() { printf 'setup: %s\n' "$*"; }
warn() { printf 'setup: warning: %s\n' "$*" >&2; }
die() {
  printf 'setup: error: %s\n' "$*" >&2
  return 1
}

# ensure_command NAME HINT: fails with HINT when NAME is not on PATH.
ensure_command() {
  command -v "$1" >/dev/null 2>&1 || die "\`$1\` is not installed: $2"
}

# ensure_rust_component NAME CHECK...: `rustup component add NAME` for the active
# toolchain unless the command CHECK... already runs.
ensure_rust_component() {
  local name=$1
  shift
  if "$@" >/dev/null 2>&1; then
    return 0
  fi
  say "installing the rust component $name (rustup component add $name)"
  rustup component add "$name" || die "could not install the rust component $name"
}

# ensure_rust_target TRIPLE: `rustup target add TRIPLE` unless it is installed.
ensure_rust_target() {
  local target=$1
  if rustup target list --installed 2>/dev/null | grep -qx "$target"; then
    return 0
  fi
  say "installing the rust target $target (rustup target add $target)"
  rustup target add "$target" || die "could not install the rust target $target"
}

# ensure_rust_toolchain NAME: `rustup toolchain install NAME --profile minimal` unless
# it is installed.
ensure_rust_toolchain() {
  local name=$1
  if rustup run "$name" rustc --version >/dev/null 2>&1; then
    return 0
  fi
  say "installing the rust toolchain $name (rustup toolchain install $name)"
  rustup toolchain install "$name" --profile minimal || die "could not install the rust toolchain $name"
}

# ensure_cargo_tool CRATE VERSION [BIN [CARGO_INSTALL_ARGS...]]: `cargo install CRATE
# --version VERSION` unless `BIN --version` (BIN defaults to CRATE) already reports
# VERSION. Extra args (e.g. --locked) go to cargo install.
ensure_cargo_tool() {
  local crate=$1 version=$2 bin=${3:-$1}
  shift 3 2>/dev/null || shift $#
  local have
  have=$("$bin" --version 2>/dev/null || true)
  if [[ " $have " == *" $version "* || "$have" == *" v$version"* ]]; then
    return 0
  fi
  if [[ -n $have ]]; then
    say "$bin reports '$have', need $version"
  fi
  say "installing $crate $version (cargo install $crate --version $version $*); this can take minutes"
  cargo install "$crate" --version "$version" "$@" || die "could not install $crate $version"
}

# ensure_apt PKG...: installs the Debian packages that are missing, running
# `apt-get update` once per setup run first.
APT_UPDATED=${APT_UPDATED:-}
ensure_apt() {
  local missing=() pkg sudo=
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' ||
      missing+=("$pkg")
  done
  ((${#missing[@]})) || return 0
  if [[ $(id -u) != 0 ]]; then
    command -v sudo >/dev/null 2>&1 || die "need root (or sudo) to install ${missing[*]}"
    sudo=sudo
  fi
  if [[ -z $APT_UPDATED ]]; then
    say "updating the Debian package lists (apt-get update)"
    $sudo apt-get update -q || die "apt-get update failed"
    APT_UPDATED=1
  fi
  say "installing ${missing[*]} (apt-get install)"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" ||
    die "could not install ${missing[*]}"
}

# ensure_npm: installs the npm dependencies when node_modules is missing or older than
# package.json / package-lock.json, with `npm install` (reasons below). Nothing to do
# while package.json has no dependencies.
ensure_npm() {
  ensure_command npm "install Node.js 20+ and npm" || return 1
  local count
  count=$(node -e 'const p=require("./package.json");
    console.log(Object.keys({...p.dependencies,...p.devDependencies,...p.optionalDependencies}).length)') ||
    die "cannot read package.json" || return 1
  local stamp=node_modules/.package-lock.json
  if [[ $count == 0 ]] ||
    [[ -f $stamp && ! package.json -nt $stamp && ! package-lock.json -nt $stamp ]]; then
    return 0
  fi
  # `npm install`, not `npm ci`: npm 11 rejects this lock file in `ci` over optional
  # platform packages of rollup (vite) that it records without versions.
  say "installing npm dependencies (npm install)"
  npm install --no-audit --no-fund || die "npm install failed"
}

# The nightly the npm package's wasm is built with (scripts/build-pkg.sh rebuilds std
# for size with it: -Z build-std, panic=immediate-abort). Pinned by date and commit so
# that a new nightly cannot break or change the build; optional (build-pkg falls back
# to stable, with a bigger wasm, when it is missing).
SIZE_NIGHTLY_DATE=2026-05-20
SIZE_NIGHTLY_COMMIT=e50aa6fba

# size_nightly: prints the name of an installed toolchain that is the pinned nightly
# (`nightly-DATE`, or a `nightly` that happens to be that build).
size_nightly() {
  local tc installed
  installed=$(rustup toolchain list 2>/dev/null) || return 1
  for tc in "nightly-$SIZE_NIGHTLY_DATE" nightly; do
    grep -q "^$tc-" <<<"$installed" || continue
    if rustup run "$tc" rustc --version 2>/dev/null | grep -q "($SIZE_NIGHTLY_COMMIT "; then
      printf '%s\n' "$tc"
      return 0
    fi
  done
  return 1
}

# ensure_size_nightly: the pinned nightly with the rust-src component (build-std).
ensure_size_nightly() {
  local tc
  if ! tc=$(size_nightly); then
    say "installing nightly-$SIZE_NIGHTLY_DATE with rust-src (the npm package's std is rebuilt for size with it)"
    rustup toolchain install "nightly-$SIZE_NIGHTLY_DATE" --profile minimal --component rust-src ||
      die "could not install nightly-$SIZE_NIGHTLY_DATE"
    return
  fi
  rustup component list --toolchain "$tc" --installed 2>/dev/null | grep -q '^rust-src' ||
    rustup component add rust-src --toolchain "$tc" || die "could not add rust-src to $tc"
}

main() {
  cd "$(dirname "${BASH_SOURCE[0]}")/.." || return 1
  ensure_command cargo "install Rust with rustup (https://rustup.rs), toolchain 1.89 or newer" || return 1
  ensure_command rustup "citekit's setup uses rustup to add components and targets" || return 1
  ensure_rust_component rustfmt cargo fmt --version || return 1
  ensure_rust_component clippy cargo clippy --version || return 1
  ensure_rust_target wasm32-unknown-unknown || return 1
  # Browser tests and the demo: headless Chromium and its driver (Debian's packages).
  ensure_apt chromium chromium-driver || return 1
  # The wasm-bindgen CLI must be the version in Cargo.lock (no --locked: a locked
  # dependency of it is missing from the registry here).
  ensure_cargo_tool wasm-bindgen-cli 0.2.130 wasm-bindgen || return 1
  ensure_cargo_tool trunk 0.21.14 trunk --locked || return 1
  # twiggy: the wasm attribution in `npm run build`'s size report (optional there: the
  # build prints a note and goes on without it), about 2 minutes.
  ensure_cargo_tool twiggy 0.8.0 twiggy || warn "no twiggy: the size report has no attribution"
  ensure_size_nightly || warn "no pinned nightly: the npm package's wasm is built with stable (bigger)"
  ensure_npm || return 1
  # Fuzzing is opt-in (about 4 minutes to build cargo-fuzz): `npm test` then also runs a
  # short smoke of every fuzz target.
  if [[ ${CITEKIT_INSTALL_FUZZ:-} == 1 ]]; then
    ensure_rust_toolchain nightly || return 1
    ensure_cargo_tool cargo-fuzz 0.13.2 cargo-fuzz --locked || return 1
  fi
  # cargo-leptos is opt-in: the SSR example's test builds it with cargo and the
  # wasm-bindgen CLI above (scripts/ssr-example.sh), as `cargo leptos build` does, and
  # installing cargo-leptos takes long (see README, "Using it from Leptos"). 0.3.10 is
  # the newest whose locked dependencies build with Rust 1.95 (0.3.11 needs 1.96).
  if [[ ${CITEKIT_INSTALL_CARGO_LEPTOS:-} == 1 ]]; then
    ensure_cargo_tool cargo-leptos 0.3.10 cargo-leptos --locked || return 1
  fi
  say "ok ($(rustc --version), node $(node --version))"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  set -uo pipefail
  main "$@" || exit 1
fi
