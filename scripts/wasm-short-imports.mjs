// Gives a wasm-bindgen module's imports (and the glue's own exports) short names, in
// the .wasm and in its glue.
//
// wasm-bindgen names every import after the function and a hash
// (`__wbg_setAttribute_2704501201f15687`) under the module `./citekit_wasm_bg.js`; the
// name is written twice (the wasm's import section, the glue's import object) and the
// hashes do not compress. The names mean nothing at run time: the glue's import object
// is matched to the wasm's import section by name only. This renames each import to a
// short identifier (`a`, `b`, ... in import order) and the module to `w`, in both files,
// and checks that every old name was found in the glue exactly once (a wasm-bindgen
// whose glue names them differently stops the build instead of shipping a broken pair).
//
// Usage: node scripts/wasm-short-imports.mjs MODULE.wasm GLUE.js   (both rewritten)
import fs from 'node:fs';

const [wasmFile, glueFile] = process.argv.slice(2);
if (!wasmFile || !glueFile) {
  console.error('usage: node scripts/wasm-short-imports.mjs MODULE.wasm GLUE.js');
  process.exit(2);
}
const fail = (msg) => {
  console.error(`wasm-short-imports: ${msg}`);
  process.exit(1);
};
const b = fs.readFileSync(wasmFile);
if (b.length < 8 || b.readUInt32LE(0) !== 0x6d736100) fail(`${wasmFile} is not a wasm module`);

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
const leb = (v) => {
  const out = [];
  do {
    let byte = v % 128;
    v = Math.floor(v / 128);
    if (v) byte |= 0x80;
    out.push(byte);
  } while (v);
  return Buffer.from(out);
};
const str = (s) => {
  const bytes = Buffer.from(s, 'utf8');
  return Buffer.concat([leb(bytes.length), bytes]);
};
// Skips an import's description (function, table, memory, global or tag).
const limits = (at) => {
  const flag = b[at++];
  [, at] = uleb(at);
  if (flag & 1) [, at] = uleb(at);
  return at;
};
const skipDesc = (at) => {
  const kind = b[at++];
  switch (kind) {
    case 0: return uleb(at)[1]; // function: type index
    case 1: return limits(at + 1); // table: reference type, limits
    case 2: return limits(at); // memory: limits
    case 3: return at + 2; // global: value type, mutability
    case 4: return uleb(at + 1)[1]; // tag: attribute, type index
    default: throw new Error(`unknown import kind ${kind}`);
  }
};

// a..z, A..Z, then two letters: valid identifiers that cannot meet `__proto__`.
const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const shortName = (i) =>
  i < letters.length ? letters[i] : shortName(Math.floor(i / letters.length) - 1) + letters[i % letters.length];

// The glue's own exports (`__wbindgen_malloc`, the closures' long hashed `invoke`
// names, `view_update`, ...) get short names too, `$a`, `$b`, ...; the API's exports
// (`mount`, `parse`, `memory`, ...) keep theirs, since the glue reads them as
// `wasm.parse` where `.parse` also means `JSON.parse`.
const exportsRenamed = new Map();
const renameExports = (body, end) => {
  let p = body;
  let count;
  [count, p] = uleb(p);
  const entries = [leb(count)];
  for (let i = 0; i < count; i++) {
    let len;
    [len, p] = uleb(p);
    let name = b.toString('utf8', p, p + len);
    p += len;
    const descStart = p;
    p = uleb(p + 1)[1];
    if (/^(?:__|wasm_bindgen_|view_)/.test(name)) {
      const short = `$${shortName(exportsRenamed.size)}`;
      exportsRenamed.set(name, short);
      name = short;
    }
    entries.push(str(name), b.subarray(descStart, p));
  }
  if (p !== end) fail('the export section has bytes after its entries');
  const payload = Buffer.concat(entries);
  return Buffer.concat([Buffer.from([7]), leb(payload.length), payload]);
};

const parts = [b.subarray(0, 8)];
const renamed = new Map(); // old name -> new name
let moduleName = null;
let at = 8;
while (at < b.length) {
  const start = at;
  const id = b[at++];
  const [size, body] = uleb(at);
  const end = body + size;
  if (end > b.length) fail(`section at ${start} runs past the end`);
  if (id === 7) {
    parts.push(renameExports(body, end));
    at = end;
    continue;
  }
  if (id !== 2) {
    parts.push(b.subarray(start, end));
    at = end;
    continue;
  }
  let p = body;
  let count;
  [count, p] = uleb(p);
  const entries = [leb(count)];
  for (let i = 0; i < count; i++) {
    let len;
    [len, p] = uleb(p);
    const mod = b.toString('utf8', p, p + len);
    p += len;
    [len, p] = uleb(p);
    const name = b.toString('utf8', p, p + len);
    p += len;
    const descStart = p;
    p = skipDesc(p);
    if (moduleName === null) moduleName = mod;
    if (mod !== moduleName) fail(`imports from two modules (${moduleName}, ${mod})`);
    if (renamed.has(name)) fail(`import ${name} twice`);
    renamed.set(name, shortName(renamed.size));
    entries.push(str('w'), str(renamed.get(name)), b.subarray(descStart, p));
  }
  if (p !== end) fail('the import section has bytes after its entries');
  const payload = Buffer.concat(entries);
  parts.push(Buffer.from([2]), leb(payload.length), payload);
  at = end;
}
if (moduleName === null) fail(`${wasmFile} has no imports`);

let glue = fs.readFileSync(glueFile, 'utf8');
const quotedModule = JSON.stringify(moduleName);
if (glue.split(quotedModule).length !== 2) fail(`${glueFile} does not name ${quotedModule} exactly once`);
glue = glue.replace(quotedModule, '"w"');
const byName = new RegExp(`\\b(?:${[...renamed.keys()].join('|')})\\b`, 'g');
const seen = new Map();
glue = glue.replace(byName, (name) => {
  seen.set(name, (seen.get(name) || 0) + 1);
  return renamed.get(name);
});
for (const name of renamed.keys()) {
  if (seen.get(name) !== 1) fail(`${glueFile} names the import ${name} ${seen.get(name) || 0} times, not once`);
}
// An export is read as a property of the wasm's exports (`wasm.view_update(...)`);
// the glue also has local functions of the same names, which stay (esbuild shortens
// them). A quoted name would be a property read another way: the build stops.
for (const [name, short] of exportsRenamed) {
  if (glue.includes(`"${name}"`) || glue.includes(`'${name}'`)) fail(`${glueFile} quotes the export ${name}`);
  const asProperty = new RegExp(`\\.${name}\\b`, 'g');
  glue = glue.replace(asProperty, () => `.${short}`);
}
fs.writeFileSync(wasmFile, Buffer.concat(parts));
fs.writeFileSync(glueFile, glue);
console.error(`wasm-short-imports: ${renamed.size} imports of ${moduleName} and ${exportsRenamed.size} exports renamed`);
