#!/usr/bin/env bash
# Builds the npm package into pkg/ (npm/README.md) and prints its size report.
#
#   two modules, each: cargo build (wasm32, profile wasm-pkg = release with opt-level
#      "z"; on the pinned nightly when installed, std rebuilt for size, else stable)
#      -> wasm-bindgen --target web -> wasm-opt -Oz --flatten --rereloop -Oz -Oz
#      --reorder-functions-by-name -g (binaryen 132 from node_modules;
#      the named copy stays in target/size/ for the report) -> the same wasm without
#      its name section:
#        citekit_wasm  (features `js` and `providers`, no other default features: every
#                      common format, the providers' included; no posthoc, scintilla,
#                      payload, platforms, HTML/JSON/YAML answers or tables): what a page loads
#        citekit_full  (feature `js` and the defaults: everything): loaded by
#                      npm/core.js on first use of posthoc, scintilla, payload or
#                      a RAG platform's data or a canonical
#                      HTML/JSON/YAML answer (or at init with `formats: 'all'`)
#   -> npm/ files + the stylesheet (scripts/stylesheet.sh), core.js's table of the formats
#      that stream events written from the module (scripts/stream-formats.mjs), the JS
#      minified (esbuild) -> pkg/package.json
#   -> size report: twiggy's attribution of the wasm, then every file raw and gzip
#
# Usage: bash scripts/build-pkg.sh         (or `npm run build`)
# Then:  cd pkg && npm pack                gives cited-answer-<version>.tgz
#
# Needs the wasm32-unknown-unknown target, wasm-bindgen-cli of the Cargo.lock version
# and `npm install` done (binaryen); missing pieces are installed when possible.
# CITEKIT_SIZE_BUDGET_KB (default 150) is the gzip target of the page load the report
# compares with (stricter than SPEC's 220 KB for a common page; docs/size.md);
# with CITEKIT_SIZE_STRICT=1 going over it fails the build (exit 3).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
OUT=$ROOT/pkg
GLUE=citekit_wasm
BUDGET_KB=${CITEKIT_SIZE_BUDGET_KB:-150}

say() { printf 'build-pkg: %s\n' "$*"; }
die() {
  printf 'build-pkg: error: %s\n' "$*" >&2
  exit 1
}

# binaryen 132 from npm first on PATH: Debian's wasm-opt 108 breaks the output.
export PATH="$ROOT/node_modules/.bin:$PATH"
if [[ ! -x $ROOT/node_modules/.bin/wasm-opt ]]; then
  say "node_modules/.bin/wasm-opt missing: npm install"
  npm install --no-audit --no-fund >/dev/null || die "npm install failed"
fi
WASM_OPT_VERSION=$(wasm-opt --version)
[[ $WASM_OPT_VERSION == *"version 132"* ]] ||
  die "wasm-opt must be binaryen 132 (npm binaryen@132), found: $WASM_OPT_VERSION"

BINDGEN_VERSION=$(sed -n '/^name = "wasm-bindgen"$/{n;s/^version = "\(.*\)"$/\1/p;}' Cargo.lock | head -n1)
[[ -n $BINDGEN_VERSION ]] || die "no wasm-bindgen in Cargo.lock"
if ! wasm-bindgen --version 2>/dev/null | grep -q " $BINDGEN_VERSION\$"; then
  say "installing wasm-bindgen-cli $BINDGEN_VERSION (about 2 minutes)"
  cargo install wasm-bindgen-cli --version "$BINDGEN_VERSION" || die "cargo install wasm-bindgen-cli failed"
fi
if command -v rustup >/dev/null && ! rustup target list --installed | grep -q '^wasm32-unknown-unknown$'; then
  rustup target add wasm32-unknown-unknown || die "rustup target add wasm32-unknown-unknown failed"
fi

# The npm name is the repository's package.json's (the crate is `citekit`; the npm name
# `citekit` is another project's); the version and the rest are the crate's.
NAME=$(node -p 'require("./package.json").name')
VERSION=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n1)
REPOSITORY=$(sed -n 's/^repository = "\(.*\)"$/\1/p' Cargo.toml | head -n1)
LICENSE=$(sed -n 's/^license = "\(.*\)"$/\1/p' Cargo.toml | head -n1)
DESCRIPTION=$(sed -n 's/^description = "\(.*\)"$/\1/p' Cargo.toml | head -n1)

# Profile wasm-pkg (Cargo.toml): release (LTO, one codegen unit) with opt-level "z".
PROFILE=wasm-pkg
BUILD=(build --profile "$PROFILE" --target wasm32-unknown-unknown --lib)
FULL=citekit_full
# cargo_build FEATURE_ARGS...: the wasm of one module (target/.../citekit.wasm).
# On the pinned nightly (scripts/setup.sh) std is rebuilt for size, and a panic (a bug)
# traps at once instead of formatting its message: 38 KB gzip less wasm (394 -> 356 KB).
# Its own target dir keeps the stable build's cache. CITEKIT_STABLE=1 skips it.
# -Zlocation-detail=none: no file/line/column of panic sites in the wasm (a panic
# traps without printing anything, so they were never shown): 0.9 KB gzip less.
# (setup.sh in a subshell: it has its own say/die.)
NIGHTLY_DATE=$(source scripts/setup.sh && printf '%s' "$SIZE_NIGHTLY_DATE")
if [[ -z ${CITEKIT_STABLE:-} ]] && NIGHTLY=$(source scripts/setup.sh && size_nightly) &&
  rustup component list --toolchain "$NIGHTLY" --installed 2>/dev/null | grep -q '^rust-src'; then
  TARGET_DIR=$ROOT/target/nightly
  cargo_build() {
    say "cargo +$NIGHTLY ${BUILD[*]} $* -Z build-std (std rebuilt for size)"
    RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none" \
      cargo "+$NIGHTLY" "${BUILD[@]}" "$@" --target-dir "$TARGET_DIR" \
      -Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size
  }
else
  TARGET_DIR=$ROOT/target
  if [[ -z ${CITEKIT_STABLE:-} ]]; then
    say "note: the pinned nightly nightly-$NIGHTLY_DATE with rust-src is not installed" \
      "(bash scripts/setup.sh installs it): building with stable, the wasm is about 38 KB gzip bigger"
  fi
  cargo_build() {
    say "cargo ${BUILD[*]} $*"
    cargo "${BUILD[@]}" "$@"
  }
fi
rm -rf "$OUT"
mkdir -p "$OUT" "$ROOT/target/size"

# module NAME NAMED_COPY: the wasm cargo just built, through wasm-bindgen and wasm-opt,
# into $OUT/NAME.js and $OUT/NAME_bg.wasm. One wasm-opt run with -g (names kept) writes
# the copy the size report attributes; the package gets it with only the name section
# cut out (scripts/wasm-strip-names.mjs), byte for byte what wasm-opt without -g
# writes, so the report describes the shipped code.
module() {
  local name=$1 named=$2 wasm=$OUT/${1}_bg.wasm before
  say "wasm-bindgen $BINDGEN_VERSION --target web ($name)"
  wasm-bindgen --target web --no-typescript --out-dir "$OUT" --out-name "$name" \
    "$TARGET_DIR/wasm32-unknown-unknown/$PROFILE/citekit.wasm"
  say "wasm-opt -Oz --flatten --rereloop -Oz -Oz --reorder-functions-by-name ($WASM_OPT_VERSION)"
  before=$(wc -c <"$wasm")
  # Once -Oz, then every function flattened and its control flow rebuilt (rereloop)
  # before two more -Oz rounds: 1.9 KB gzip less page load than -Oz alone, no slower
  # in bench:mount, bench:stream or bench:boundary (docs/size.md), for 6 s more per
  # module. Then the functions sorted by name (their Rust paths, kept by -g): each
  # module's code lies together, which gzip compresses better than the optimizer's order
  # (0.7 KB gzip less page load; the order is all that changes).
  wasm-opt -Oz --flatten --rereloop -Oz -Oz --reorder-functions-by-name -g --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$wasm" -o "$named"
  node scripts/wasm-strip-names.mjs "$named" "$wasm"
  # Short import names in the shipped wasm and its glue (the hashed names do not
  # compress): 4.6 KB gzip less per module.
  node scripts/wasm-short-imports.mjs "$wasm" "$OUT/$name.js" || die "wasm-short-imports $name failed"
  say "$name wasm: $before -> $(wc -c <"$wasm") bytes"
}

# The first module: every common format (the providers' included), without the rarer
# ones (posthoc, scintilla, payload, the RAG platforms, HTML/JSON/YAML answers) and the tables the browser has (what a page
# loads).
NAMED=$ROOT/target/size/citekit_named.wasm
cargo_build --no-default-features --features js,providers
module "$GLUE" "$NAMED"
# The second: everything, loaded on first use of a rarer format.
cargo_build --features js
module "$FULL" "$ROOT/target/size/citekit_full_named.wasm"

cp npm/index.js npm/core.js npm/cited-answer.js npm/index.d.ts npm/cited-answer.d.ts npm/README.md \
  npm/react.js npm/react.d.ts npm/jsx.d.ts npm/citekit.css.d.ts LICENSE-MIT LICENSE-APACHE "$OUT/"
bash scripts/stylesheet.sh >"$OUT/citekit.css"
# core.js's answer to `streamsEvents` before the module has loaded, from the module.
node scripts/stream-formats.mjs "$OUT" || die "stream-formats failed"

# The package's JavaScript minified one file at a time (esbuild from node_modules;
# imports stay as they are, nothing is bundled): 6.5 KB gzip less page load. The
# readable sources are npm/*.js and the glue wasm-bindgen writes.
[[ -x $ROOT/node_modules/.bin/esbuild ]] || die "node_modules/.bin/esbuild missing: npm install"
for f in index.js core.js cited-answer.js react.js "$GLUE.js" "$FULL.js"; do
  "$ROOT/node_modules/.bin/esbuild" "$OUT/$f" --minify --format=esm --legal-comments=none \
    --log-level=warning --outfile="$OUT/$f.min" || die "esbuild $f failed"
  mv "$OUT/$f.min" "$OUT/$f"
done

# Every file wasm-bindgen wrote (the glue, the .wasm, snippets/ when a dependency has
# inline JS) goes into the package.
FILES=$(cd "$OUT" && find . -type f ! -name package.json | sed 's|^\./||' | sort |
  awk -F/ '{print $1}' | sort -u | sed 's/.*/    "&"/' | paste -sd, - | sed 's/,/,\n/g')

cat >"$OUT/package.json" <<EOF
{
  "name": "$NAME",
  "version": "$VERSION",
  "description": "$DESCRIPTION",
  "license": "$LICENSE",
  "repository": {
    "type": "git",
    "url": "git+$REPOSITORY.git"
  },
  "homepage": "$REPOSITORY#readme",
  "type": "module",
  "main": "./index.js",
  "module": "./index.js",
  "types": "./index.d.ts",
  "exports": {
    ".": {
      "types": "./index.d.ts",
      "default": "./index.js"
    },
    "./cited-answer.js": {
      "types": "./cited-answer.d.ts",
      "default": "./cited-answer.js"
    },
    "./react": {
      "types": "./react.d.ts",
      "default": "./react.js"
    },
    "./jsx": {
      "types": "./jsx.d.ts"
    },
    "./citekit.css": {
      "types": "./citekit.css.d.ts",
      "default": "./citekit.css"
    },
    "./${GLUE}_bg.wasm": "./${GLUE}_bg.wasm",
    "./${FULL}_bg.wasm": "./${FULL}_bg.wasm",
    "./package.json": "./package.json"
  },
  "files": [
$FILES
  ],
  "sideEffects": [
    "./index.js",
    "./cited-answer.js",
    "*.css"
  ],
  "peerDependencies": {
    "react": ">=18.3"
  },
  "peerDependenciesMeta": {
    "react": {
      "optional": true
    }
  },
  "keywords": ["citations", "llm", "rag", "sources", "footnotes", "web-component", "wasm"],
  "engines": {
    "node": ">=18"
  }
}
EOF
node -e 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))' "$OUT/package.json" ||
  die "pkg/package.json is not valid JSON"

# What the wasm is made of (twiggy on the named copy), and the change in every group
# since the previous build of this checkout. Without twiggy this prints one line saying
# so and the build goes on. CITEKIT_SIZE_TOP (default 20) items are listed;
# CITEKIT_SIZE_MONOS=N adds twiggy's N biggest generic functions.
printf '\n==> wasm attribution (twiggy; the change since the previous build on the right)\n'
LAST=$ROOT/target/size/last.json
DIFF=()
if [[ -f $LAST ]]; then
  cp "$LAST" "$LAST.prev"
  DIFF=(--diff "$LAST.prev")
fi
node scripts/size-report.mjs "$NAMED" --top "${CITEKIT_SIZE_TOP:-20}" \
  --monos "${CITEKIT_SIZE_MONOS:-0}" --json "$LAST" "${DIFF[@]}" ||
  say "warning: the wasm attribution failed (the package is built)"
printf '\n'

# Size report: raw and gzip (-9) per file and for the whole package (the npm tarball).
gz() { gzip -9 -c "$1" | wc -c; }
kb() { awk -v b="$1" 'BEGIN { printf "%.1f KB", b / 1024 }'; }
printf '\n==> size report (pkg/)\n'
printf '  %-26s %12s %12s\n' file raw gzip
TOTAL_GZ=0
BROWSER_GZ=0
REACT_GZ=0
FULL_GZ=0
while IFS= read -r f; do
  raw=$(wc -c <"$OUT/$f")
  g=$(gz "$OUT/$f")
  TOTAL_GZ=$((TOTAL_GZ + g))
  # What a page that imports the package (index.js) downloads: its modules and the
  # wasm, which carries the stylesheet it injects. react.js is for React pages only;
  # citekit.css for pages that link it themselves (with injectCss: false).
  case $f in index.js | core.js | cited-answer.js | "$GLUE.js" | "${GLUE}_bg.wasm") BROWSER_GZ=$((BROWSER_GZ + g)) ;; esac
  [[ $f == react.js ]] && REACT_GZ=$g
  case $f in "$FULL.js" | "${FULL}_bg.wasm") FULL_GZ=$((FULL_GZ + g)) ;; esac
  printf '  %-26s %12s %12s\n' "$f" "$(kb "$raw")" "$(kb "$g")"
done < <(cd "$OUT" && find . -type f | sed 's|^\./||' | sort)
TARBALL_GZ=$(tar -C "$OUT" -cf - . | gzip -9 | wc -c)
printf '  %-26s %12s %12s\n' "page load (index.js+wasm)" "" "$(kb "$BROWSER_GZ")"
printf '  %-26s %12s %12s\n' "  with cited-answer/react" "" "$(kb $((BROWSER_GZ + REACT_GZ)))"
printf '  %-26s %12s %12s\n' "full module" "" "$(kb "$FULL_GZ")"
printf '    (%s.js + wasm: everything, with posthoc, scintilla, payload, the RAG platforms and HTML/JSON/YAML\n' "$FULL"
printf '     answers; loaded on first use of such data, or instead of the first with\n     init({ formats: "all" }))\n'

printf '  %-26s %12s %12s\n' "sum of files" "" "$(kb "$TOTAL_GZ")"
printf '  %-26s %12s %12s\n' "whole package (tar.gz)" "" "$(kb "$TARBALL_GZ")"
BUDGET=$((BUDGET_KB * 1024))
if ((BROWSER_GZ <= BUDGET)); then
  printf '  budget %d KB gzip page load: PASS (%s under)\n' "$BUDGET_KB" "$(kb $((BUDGET - BROWSER_GZ)))"
else
  printf '  budget %d KB gzip page load: OVER (by %s)\n' "$BUDGET_KB" "$(kb $((BROWSER_GZ - BUDGET)))"
  if [[ -n ${CITEKIT_SIZE_STRICT:-} ]]; then
    say "over the size budget (CITEKIT_SIZE_STRICT is set)"
    exit 3
  fi
fi
say "done: $OUT (npm pack it with: cd pkg && npm pack)"
