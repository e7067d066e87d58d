// The JS boundary benchmark (prints numbers; not a test): `parse()` of a ~1 MB answer
// (a marker every sentence, 100 sources) under Node, which is the data going in
// (`JSON.stringify`, read by citekit's JSON reader), the parse, and the model coming
// out (JSON text written from the model, `JSON.parse`). Median of 15 after 3 warm-ups.
//
// Usage: node bench/boundary.mjs [--pkg pkg] [--pkg other-pkg ...]   (or `npm run bench:boundary`)
//   --pkg  a package directory to measure (default pkg); several are measured in turn,
//          interleaved, to compare two builds in one run.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const pkgs = args.flatMap((a, i) => (a === '--pkg' ? [args[i + 1]] : []));
if (!pkgs.length) pkgs.push('pkg');

const words = 'the model grounds each claim in retrieved sources so that readers can check every statement quickly'.split(' ');
let seed = 7;
const rnd = (n) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
};
let text = '';
let sentences = 0;
while (text.length < 1_000_000) {
  const w = [];
  for (let i = 0; i < 22; i++) w.push(words[rnd(words.length)]);
  text += `${w.join(' ')} [${1 + rnd(100)}].${++sentences % 4 === 0 ? '\n\n' : ' '}`;
}
const data = {};
for (let i = 1; i <= 100; i++) {
  data[i] = { title: `Source ${i}`, source: `https://ex${i}.com/r/${i}`, text: `Excerpt ${i} that supports it.`, score: 0.5 + i / 1000 };
}

const mods = [];
for (const p of pkgs) {
  const m = await import(path.join(root, p, 'index.js'));
  await m.init();
  mods.push({ name: p, parse: m.parse, times: [] });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
let model;
for (let round = 0; round < 18; round++) {
  for (const m of mods) {
    const t0 = performance.now();
    model = m.parse(text, data);
    if (round >= 3) m.times.push(performance.now() - t0);
  }
}
console.log(`parse() of ${text.length} bytes (${model.citations.length} citations, ${model.sources.length} sources; the model is ${JSON.stringify(model).length} bytes of JSON), Node ${process.version}`);
for (const m of mods) {
  console.log(`  ${m.name.padEnd(24)} median ${median(m.times).toFixed(1)} ms (min ${Math.min(...m.times).toFixed(1)}, max ${Math.max(...m.times).toFixed(1)})`);
}
