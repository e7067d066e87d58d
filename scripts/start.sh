#!/usr/bin/env bash
# `npm start`: installs what is missing, builds the demo page (www/, with Trunk) and
# serves it on 127.0.0.1, printing the address. PORT=9000 npm start picks the port.
# `cargo run --example demo` still prints what the parser makes of two sample answers.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1

bash scripts/setup.sh || exit 1
export PATH="$PWD/node_modules/.bin:$PATH"
exec bash scripts/demo.sh "$@"
