// Writes into the package's core.js (its `const STREAMS = {};`) the module's answer to
// `streamsEvents(format, data)` for every format and kind of data, for the time before
// the module has loaded: the registry's rule, read from the built full module (both
// modules share the registry), not a list kept by hand. The formats are npm/index.d.ts's
// `FormatName` (tests/format_registry.rs holds it to the registry).
//
// Usage (scripts/build-pkg.sh): node scripts/stream-formats.mjs <pkg dir>
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const out = resolve(process.argv[2] ?? 'pkg');
const dts = readFileSync(join(out, 'index.d.ts'), 'utf8');
const union = /export type FormatName =([^;]*);/.exec(dts);
if (!union) throw new Error('index.d.ts has no `export type FormatName = ...;`');
const formats = [...union[1].matchAll(/\|\s*'([^']+)'/g)].map((m) => m[1]);

const glue = await import(pathToFileURL(join(out, 'citekit_full.js')).href);
await glue.default({ module_or_path: readFileSync(join(out, 'citekit_full_bg.wasm')) });

// The kinds of data, by their bit in core.js: none, a value, JSON text, other text.
const KINDS = [
  [1, null],
  [2, { parts: [] }],
  [4, '{"type": "message"}'],
  [8, 'data: {"type": "start"}\n\n'],
];
const table = {};
for (const format of formats) {
  let bits = 0;
  for (const [bit, data] of KINDS) if (glue.streamsEvents(format, data)) bits |= bit;
  if (bits !== 0) table[format] = bits;
}
const file = join(out, 'core.js');
const source = readFileSync(file, 'utf8');
const marker = 'const STREAMS = {};';
if (!source.includes(marker)) throw new Error(`${file} has no \`${marker}\``);
writeFileSync(file, source.replace(marker, `const STREAMS = ${JSON.stringify(table)};`));
console.log(`stream-formats: ${JSON.stringify(table)}`);
