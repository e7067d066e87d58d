#!/usr/bin/env bash
# Builds and runs bench/stream-costs on the bench's answers (written by
# `node bench/stream.mjs --dump`), sharing the main target dir's build cache.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
[[ -f target/bench-stream/answer-200.md ]] || node bench/stream.mjs --dump
cp -n Cargo.lock bench/stream-costs/Cargo.lock 2>/dev/null || true
CARGO_TARGET_DIR=$PWD/target cargo run --quiet --release --offline \
  --manifest-path bench/stream-costs/Cargo.toml -- target/bench-stream "$@"
