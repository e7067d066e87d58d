#!/usr/bin/env bash
# Runs every fuzz target (fuzz/fuzz_targets) for N executions, one after another, and
# prints the executions and crashes of each. Needs nightly Rust and cargo-fuzz
# (`rustup toolchain install nightly && cargo install cargo-fuzz`).
#
# Usage: bash scripts/fuzz.sh [N] [TARGET...]     N defaults to 1000000, targets to all.
#        FUZZ_MAX_TIME=S bash scripts/fuzz.sh ...  also stops each target after S seconds.
#
# Speed on this 2-core machine (early exploration, from the seeds): scan ~3000, formats
# and sse ~1000, resolve ~250 executions per second.
#
# Each target starts from its corpus fuzz/corpus/<target> (the committed seed-* files
# plus whatever earlier runs added; only the seeds are committed). libFuzzer stops a
# target at its first crash and writes the input to fuzz/artifacts/<target>/; reproduce
# it with `cargo +nightly fuzz run <target> fuzz/artifacts/<target>/<file>`.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1

RUNS=${1:-1000000}
shift $(($# > 0 ? 1 : 0))
if ! [[ $RUNS =~ ^[0-9]+$ ]]; then
  echo "usage: bash scripts/fuzz.sh [N] [TARGET...]" >&2
  exit 2
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  echo "fuzz: needs nightly Rust and cargo-fuzz: rustup toolchain install nightly && cargo install cargo-fuzz" >&2
  exit 2
fi

TARGETS=("$@")
if ((${#TARGETS[@]} == 0)); then
  mapfile -t TARGETS < <(cargo +nightly fuzz list)
fi

cargo +nightly fuzz build || exit 1

LOG_DIR=$(mktemp -d)
trap 'rm -rf "$LOG_DIR"' EXIT
RESULTS=()
TOTAL_CRASHES=0
for t in "${TARGETS[@]}"; do
  mkdir -p "fuzz/corpus/$t" "fuzz/artifacts/$t"
  before=$(find "fuzz/artifacts/$t" -type f | wc -l)
  t0=$(date +%s)
  echo "==> fuzz $t: $RUNS runs"
  cargo +nightly fuzz run "$t" -- -runs="$RUNS" -max_len=4096 -timeout=10 \
    -rss_limit_mb=4096 -print_final_stats=1 ${FUZZ_MAX_TIME:+-max_total_time=$FUZZ_MAX_TIME} \
    2>&1 | tee "$LOG_DIR/$t.log"
  rc=${PIPESTATUS[0]}
  execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$LOG_DIR/$t.log" | tail -n1)
  crashes=$(($(find "fuzz/artifacts/$t" -type f | wc -l) - before))
  if ((rc != 0 && crashes == 0)); then
    crashes=1 # stopped by something that left no artifact (a build error, a signal)
  fi
  TOTAL_CRASHES=$((TOTAL_CRASHES + crashes))
  RESULTS+=("$(printf '%-10s %12s executions  %d crashes  %5ss' "$t" "${execs:-?}" "$crashes" $(($(date +%s) - t0)))")
done

echo
echo "==> fuzz summary ($RUNS runs per target${FUZZ_MAX_TIME:+, at most ${FUZZ_MAX_TIME}s each})"
printf '  %s\n' "${RESULTS[@]}"
if ((TOTAL_CRASHES > 0)); then
  echo "  crash inputs: fuzz/artifacts/<target>/"
  exit 1
fi
