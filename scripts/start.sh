#!/usr/bin/env bash
# `npm start`: shows citekit at work. Until the browser demo page exists, this runs the
# `demo` example: it parses two sample answers (a citation_map answer as in seed 001 and
# a canonical `[[S:n]]` answer as in seed 003) and prints the normalized JSON and the
# markdown export of each.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1

bash scripts/setup.sh || exit 1
printf '\nstart: the browser demo page arrives with the Leptos components; for now this\n'
printf 'start: prints what the parser makes of two sample answers (cargo run --example demo)\n\n'
exec cargo run --quiet --example demo
