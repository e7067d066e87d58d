#!/usr/bin/env bash
# The npm package with function names kept, for `node bench/stream.mjs --profile`:
# the wasm `npm run build` compiled (target/wasm32-unknown-unknown/wasm-pkg/citekit.wasm)
# through wasm-bindgen only. wasm-opt -Oz, which drops the name section (and inlines
# differently), is skipped, so a CPU profile shows Rust function names. Its speed is
# close to, not equal to, the published package's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# The newest of the nightly build (build-pkg.sh's default) and the stable one.
WASM=$(ls -t target/nightly/wasm32-unknown-unknown/wasm-pkg/citekit.wasm \
  target/wasm32-unknown-unknown/wasm-pkg/citekit.wasm 2>/dev/null | head -n1)
WASM=${WASM:-target/wasm32-unknown-unknown/wasm-pkg/citekit.wasm}
OUT=target/bench-prof-pkg
[[ -f $WASM ]] || {
  echo "bench/build-prof: $WASM is missing (run \`npm run build\` first)" >&2
  exit 2
}
rm -rf "$OUT"
mkdir -p "$OUT"
wasm-bindgen --target web --no-typescript --keep-debug --out-dir "$OUT" --out-name citekit_wasm "$WASM"
cp npm/index.js npm/core.js npm/cited-answer.js "$OUT/"
bash scripts/stylesheet.sh >"$OUT/citekit.css"
echo "bench/build-prof: $OUT ($(wc -c <"$OUT/citekit_wasm_bg.wasm") bytes of wasm, names kept)"
