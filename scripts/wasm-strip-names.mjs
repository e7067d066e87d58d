// Copies a .wasm without its `name`, `producers` and `target_features` custom sections
// (function names for the size report; the toolchain's versions and the features it
// compiled for, which a browser ignores), byte for byte otherwise.
//
// scripts/build-pkg.sh runs wasm-opt once with `-g` (names kept, for the size report's
// twiggy attribution) and ships this copy: the code is then exactly what was
// attributed, and no second wasm-opt run is needed (a wasm-opt read/write of the named
// file to drop the names re-encodes the code and made it 1.4 KB bigger).
//
// Usage: node scripts/wasm-strip-names.mjs IN.wasm OUT.wasm
import fs from 'node:fs';
import { sections } from './wasm-binary.mjs';

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: node scripts/wasm-strip-names.mjs IN.wasm OUT.wasm');
  process.exit(2);
}
const b = fs.readFileSync(input);
let all;
try {
  all = sections(b);
} catch (e) {
  console.error(`wasm-strip-names: ${input}: ${e.message}`);
  process.exit(1);
}
const drop = (s) => ['name', 'producers', 'target_features'].includes(s.custom);
const keep = [b.subarray(0, 8), ...all.filter((s) => !drop(s)).map((s) => b.subarray(s.start, s.end))];
fs.writeFileSync(output, Buffer.concat(keep));
if (!all.some((s) => s.custom === 'name')) console.error(`wasm-strip-names: ${input} had no name section`);
