#!/usr/bin/env bash
# Runs every test suite of citekit and ends with one line `N passed, N failed`, summed
# over all suites (cargo's own `test result:` lines, plus 1 for each of fmt, clippy and
# each fuzz smoke target). Exits non-zero when anything failed. Full output stays
# visible so CI logs show the failures.
#
# Suites: fmt, clippy, cargo test (unit, fixture, property and doc tests), and a short
# fuzz smoke run of each fuzz target when nightly Rust and cargo-fuzz are installed
# (skipped with a note otherwise; CITEKIT_SKIP_FUZZ=1 skips it too, and
# CITEKIT_INSTALL_FUZZ=1 installs cargo-fuzz first when nightly is there).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1

PASSED=0
FAILED=0
LOG_DIR=$(mktemp -d)
trap 'rm -rf "$LOG_DIR"' EXIT
SUMMARY=()

now() { date +%s; }

# record NAME PASSED FAILED SECONDS
record() {
  PASSED=$((PASSED + $2))
  FAILED=$((FAILED + $3))
  SUMMARY+=("$(printf '  %-28s %4d passed, %d failed  (%ss)' "$1" "$2" "$3" "$4")")
}

# single NAME CMD...: a suite that counts as one test: passed when CMD exits 0.
single() {
  local name=$1 t0 rc
  shift
  printf '\n==> %s: %s\n' "$name" "$*"
  t0=$(now)
  "$@" 2>&1 | tee "$LOG_DIR/$name.log"
  rc=${PIPESTATUS[0]}
  if ((rc == 0)); then
    record "$name" 1 0 $(($(now) - t0))
  else
    printf '==> %s FAILED (exit %d)\n' "$name" "$rc"
    record "$name" 0 1 $(($(now) - t0))
  fi
}

# cargo_tests NAME CMD...: a cargo test run; counts come from its `test result:` lines.
# A non-zero exit with no failed test counted (a build error, a crashed test binary)
# counts as one failure.
cargo_tests() {
  local name=$1 t0 rc p f log
  shift
  printf '\n==> %s: %s\n' "$name" "$*"
  log="$LOG_DIR/$name.log"
  t0=$(now)
  "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  p=$(sed -nE 's/^test result: [A-Za-z]+\. ([0-9]+) passed; ([0-9]+) failed.*/\1/p' "$log" |
    awk '{s += $1} END {print s + 0}')
  f=$(sed -nE 's/^test result: [A-Za-z]+\. ([0-9]+) passed; ([0-9]+) failed.*/\2/p' "$log" |
    awk '{s += $1} END {print s + 0}')
  if ((rc != 0 && f == 0)); then
    printf '==> %s FAILED (exit %d) without a failed test: counted as 1 failure\n' "$name" "$rc"
    f=1
  fi
  record "$name" "$p" "$f" $(($(now) - t0))
}

# node_tests NAME CMD...: a node test script that ends with `N passed, N failed`.
node_tests() {
  local name=$1 t0 rc p f log line
  shift
  printf '\n==> %s: %s\n' "$name" "$*"
  log="$LOG_DIR/$name.log"
  t0=$(now)
  "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
  p=$(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed.*/\1/p' <<<"$line")
  f=$(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed.*/\2/p' <<<"$line")
  p=${p:-0}
  f=${f:-0}
  if ((rc != 0 && f == 0)); then
    printf '==> %s FAILED (exit %d) without a failed test: counted as 1 failure\n' "$name" "$rc"
    f=1
  fi
  record "$name" "$p" "$f" $(($(now) - t0))
}

fmt_check() {
  cargo fmt --all -- --check || return 1
  # fuzz/ is its own cargo workspace: check its sources directly.
  if compgen -G 'fuzz/fuzz_targets/*.rs' >/dev/null; then
    rustfmt --edition 2021 --check fuzz/fuzz_targets/*.rs
  fi
}

fuzz_smoke() {
  if [[ -n ${CITEKIT_SKIP_FUZZ:-} ]]; then
    printf '\n==> fuzz smoke: skipped (CITEKIT_SKIP_FUZZ is set)\n'
    return
  fi
  if ! cargo +nightly --version >/dev/null 2>&1; then
    printf '\n==> fuzz smoke: skipped (no nightly Rust toolchain; `rustup toolchain install nightly`)\n'
    return
  fi
  if [[ -n ${CITEKIT_INSTALL_FUZZ:-} ]]; then
    (source scripts/setup.sh && ensure_cargo_tool cargo-fuzz 0.13.2 cargo-fuzz --locked)
  fi
  if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    printf '\n==> fuzz smoke: skipped (cargo-fuzz is not installed; `cargo install cargo-fuzz`)\n'
    return
  fi
  local t targets
  targets=$(cargo +nightly fuzz list 2>/dev/null)
  printf '\n==> fuzz build: cargo +nightly fuzz build\n'
  if ! cargo +nightly fuzz build 2>&1; then
    record "fuzz build" 0 1 0
    return
  fi
  for t in $targets; do
    # markdown_diff holds core::commonmark to pulldown-cmark's events: a differential target
    # for long runs (scripts/fuzz.sh) whose findings are differences to weigh, not
    # crashes; it is built above, not run as a smoke.
    [[ $t == markdown_diff ]] && continue
    # The seeds are copied to a scratch corpus so the run adds nothing to fuzz/corpus.
    # A fixed -seed makes the smoke the same run every time (a test must not pass or
    # fail by chance); finding new inputs is scripts/fuzz.sh's job, with random seeds.
    mkdir -p "$LOG_DIR/corpus-$t"
    cp fuzz/corpus/"$t"/seed-* "$LOG_DIR/corpus-$t/" 2>/dev/null || true
    single "fuzz $t" cargo +nightly fuzz run "$t" "$LOG_DIR/corpus-$t" -- \
      -seed=1 -runs=20000 -max_total_time=20 -max_len=4096 -print_final_stats=1
  done
}

T0=$(now)
printf '==> setup: bash scripts/setup.sh\n'
if ! bash scripts/setup.sh; then
  printf '==> setup FAILED: nothing was tested\n'
  printf '0 passed, 1 failed\n'
  exit 1
fi

export PATH="$PWD/node_modules/.bin:$PATH"
export CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver}

single fmt fmt_check
single clippy cargo clippy --all-targets -- -D warnings
single "clippy wasm" cargo clippy --target wasm32-unknown-unknown --features js --all-targets -- -D warnings
# The npm package's first module: the provider formats without the other default
# features (no posthoc, HTML/JSON/YAML answers or tables); and no default feature at all.
single "clippy wasm, first module (providers only)" cargo clippy --target wasm32-unknown-unknown \
  --no-default-features --features js,providers --lib -- -D warnings
single "clippy wasm, no default features" cargo clippy --target wasm32-unknown-unknown \
  --no-default-features --features js --lib -- -D warnings
single "clippy demo" cargo clippy -p citekit-www --target wasm32-unknown-unknown -- -D warnings
cargo_tests "cargo test" cargo test --no-fail-fast
# The core as the npm package's first module builds it (the provider formats only), and
# with no default feature at all.
cargo_tests "cargo test, first module (providers only)" cargo test --no-default-features --features providers --lib --no-fail-fast
cargo_tests "cargo test, no default features" cargo test --no-default-features --lib --no-fail-fast
# The Leptos component rendered as a server renders it, against the root markup every
# other host writes (src/components/answer/leptos/tests.rs).
cargo_tests "cargo test, Leptos ssr" cargo test --features ssr --lib --no-fail-fast components::answer::leptos
cargo_tests "browser tests" cargo test --target wasm32-unknown-unknown --features csr --no-fail-fast \
  --test browser --test stream_browser --test a11y --test commonmark
# The crate as crates.io gets it: its files, cargo publish --dry-run, rust-version
# against the locked dependencies, cargo doc with docs.rs's features (no warning).
node_tests "crate package" node tests/crate/run.mjs
single "example leptos_usage" cargo build --target wasm32-unknown-unknown --features csr --example leptos_usage
single "clippy ssr example" cargo clippy -p citekit-ssr-example --features ssr --all-targets -- -D warnings
single "clippy hydrate example" cargo clippy -p citekit-ssr-example --target wasm32-unknown-unknown --features hydrate --lib -- -D warnings
node_tests "ssr example" node tests/ssr/run.mjs
single "package build" npm run build
node_tests "npm package" node tests/npm/run.mjs --no-build
single "demo build" bash scripts/demo.sh --build-only
node_tests "demo e2e" node tests/e2e/demo.mjs
fuzz_smoke

printf '\n==> summary (%ss)\n' $(($(now) - T0))
printf '%s\n' "${SUMMARY[@]}"
printf '%d passed, %d failed\n' "$PASSED" "$FAILED"
((FAILED == 0))
