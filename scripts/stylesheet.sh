#!/usr/bin/env bash
# Writes the stylesheet to standard output: the sheets style/sheets.txt lists, in its
# order, one blank line between them; build.rs joins the same sheets the same way for
# the copy the wasm carries. The npm package's citekit.css is this output.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
first=1
while IFS= read -r sheet; do
  case $sheet in '' | '#'*) continue ;; esac
  ((first)) || echo
  first=0
  cat "$sheet"
done <style/sheets.txt
