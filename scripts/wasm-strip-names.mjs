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

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: node scripts/wasm-strip-names.mjs IN.wasm OUT.wasm');
  process.exit(2);
}
const b = fs.readFileSync(input);
if (b.length < 8 || b.readUInt32LE(0) !== 0x6d736100) {
  console.error(`wasm-strip-names: ${input} is not a wasm module`);
  process.exit(1);
}
const uleb = (at) => {
  let v = 0;
  let shift = 0;
  for (;;) {
    const byte = b[at++];
    if (byte === undefined) throw new Error('truncated LEB128');
    v += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(byte & 0x80)) return [v, at];
  }
};
const keep = [b.subarray(0, 8)];
let at = 8;
let dropped = 0;
while (at < b.length) {
  const start = at;
  const id = b[at++];
  const [size, body] = uleb(at);
  const end = body + size;
  if (end > b.length) throw new Error(`section at ${start} runs past the end`);
  let drop = false;
  if (id === 0) {
    const [len, nameAt] = uleb(body);
    drop = ['name', 'producers', 'target_features'].includes(b.toString('utf8', nameAt, nameAt + len));
  }
  if (drop) dropped += end - start;
  else keep.push(b.subarray(start, end));
  at = end;
}
fs.writeFileSync(output, Buffer.concat(keep));
if (!dropped) console.error(`wasm-strip-names: ${input} had no name section`);
