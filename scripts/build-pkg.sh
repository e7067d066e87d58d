#!/usr/bin/env bash
# Builds the npm package into pkg/ (SPEC section 9) and prints its size report.
#
#   cargo build (wasm32, profile wasm-pkg = release with opt-level "z", feature `js`)
#   -> wasm-bindgen --target web
#   -> wasm-opt -Oz (binaryen 132 from node_modules) -> npm/ files + style/citekit.css
#   -> pkg/package.json
#
# Usage: bash scripts/build-pkg.sh         (or `npm run build`)
# Then:  cd pkg && npm pack                gives citekit-<version>.tgz
#
# Needs the wasm32-unknown-unknown target, wasm-bindgen-cli of the Cargo.lock version
# and `npm install` done (binaryen); missing pieces are installed when possible.
# CITEKIT_SIZE_BUDGET_KB (default 150) is the gzip budget of the whole package;
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

VERSION=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n1)
LICENSE=$(sed -n 's/^license = "\(.*\)"$/\1/p' Cargo.toml | head -n1)
DESCRIPTION=$(sed -n 's/^description = "\(.*\)"$/\1/p' Cargo.toml | head -n1)

# Profile wasm-pkg (Cargo.toml): release (LTO, one codegen unit) with opt-level "z".
PROFILE=wasm-pkg
say "cargo build --profile $PROFILE --target wasm32-unknown-unknown --features js --lib"
cargo build --profile "$PROFILE" --target wasm32-unknown-unknown --features js --lib

rm -rf "$OUT"
mkdir -p "$OUT"
say "wasm-bindgen $BINDGEN_VERSION --target web"
wasm-bindgen --target web --no-typescript --out-dir "$OUT" --out-name "$GLUE" \
  "target/wasm32-unknown-unknown/$PROFILE/citekit.wasm"

WASM=$OUT/${GLUE}_bg.wasm
say "wasm-opt -Oz ($WASM_OPT_VERSION)"
BEFORE=$(wc -c <"$WASM")
wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue \
  "$WASM" -o "$WASM.opt"
mv "$WASM.opt" "$WASM"
say "wasm: $BEFORE -> $(wc -c <"$WASM") bytes"

cp npm/index.js npm/core.js npm/cited-answer.js npm/index.d.ts npm/README.md \
  npm/react.js npm/react.d.ts npm/jsx.d.ts "$OUT/"
cp style/citekit.css "$OUT/citekit.css"

# Every file wasm-bindgen wrote (the glue, the .wasm, snippets/ when a dependency has
# inline JS) goes into the package.
FILES=$(cd "$OUT" && find . -type f ! -name package.json | sed 's|^\./||' | sort |
  awk -F/ '{print $1}' | sort -u | sed 's/.*/    "&"/' | paste -sd, - | sed 's/,/,\n/g')

cat >"$OUT/package.json" <<EOF
{
  "name": "citekit",
  "version": "$VERSION",
  "description": "$DESCRIPTION",
  "license": "$LICENSE",
  "type": "module",
  "main": "./index.js",
  "module": "./index.js",
  "types": "./index.d.ts",
  "exports": {
    ".": {
      "types": "./index.d.ts",
      "import": "./index.js",
      "default": "./index.js"
    },
    "./cited-answer.js": {
      "types": "./index.d.ts",
      "import": "./cited-answer.js",
      "default": "./cited-answer.js"
    },
    "./react": {
      "types": "./react.d.ts",
      "import": "./react.js",
      "default": "./react.js"
    },
    "./jsx": {
      "types": "./jsx.d.ts"
    },
    "./citekit.css": "./citekit.css",
    "./${GLUE}_bg.wasm": "./${GLUE}_bg.wasm",
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

# Size report: raw and gzip (-9) per file and for the whole package (the npm tarball).
gz() { gzip -9 -c "$1" | wc -c; }
kb() { awk -v b="$1" 'BEGIN { printf "%.1f KB", b / 1024 }'; }
printf '\n==> size report (pkg/)\n'
printf '  %-26s %12s %12s\n' file raw gzip
TOTAL_GZ=0
BROWSER_GZ=0
while IFS= read -r f; do
  raw=$(wc -c <"$OUT/$f")
  g=$(gz "$OUT/$f")
  TOTAL_GZ=$((TOTAL_GZ + g))
  case $f in *.js | *.wasm | *.css) BROWSER_GZ=$((BROWSER_GZ + g)) ;; esac
  printf '  %-26s %12s %12s\n' "$f" "$(kb "$raw")" "$(kb "$g")"
done < <(cd "$OUT" && find . -type f | sed 's|^\./||' | sort)
TARBALL_GZ=$(tar -C "$OUT" -cf - . | gzip -9 | wc -c)
printf '  %-26s %12s %12s\n' "page load (js+wasm+css)" "" "$(kb "$BROWSER_GZ")"
printf '  %-26s %12s %12s\n' "sum of files" "" "$(kb "$TOTAL_GZ")"
printf '  %-26s %12s %12s\n' "whole package (tar.gz)" "" "$(kb "$TARBALL_GZ")"
BUDGET=$((BUDGET_KB * 1024))
if ((TARBALL_GZ <= BUDGET)); then
  printf '  budget %d KB gzip: PASS (%s under)\n' "$BUDGET_KB" "$(kb $((BUDGET - TARBALL_GZ)))"
else
  printf '  budget %d KB gzip: OVER (by %s)\n' "$BUDGET_KB" "$(kb $((TARBALL_GZ - BUDGET)))"
  if [[ -n ${CITEKIT_SIZE_STRICT:-} ]]; then
    say "over the size budget (CITEKIT_SIZE_STRICT is set)"
    exit 3
  fi
fi
say "done: $OUT (npm pack it with: cd pkg && npm pack)"
