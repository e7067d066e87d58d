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
import { leb, name, nameBytes, section, sections, uleb } from './wasm-binary.mjs';

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
let all;
try {
  all = sections(b);
} catch (e) {
  fail(`${wasmFile}: ${e.message}`);
}

// Skips an import's description (function, table, memory, global or tag).
const limits = (at) => {
  const flag = b[at++];
  [, at] = uleb(b, at);
  if (flag & 1) [, at] = uleb(b, at);
  return at;
};
const skipImportDesc = (at) => {
  const kind = b[at++];
  switch (kind) {
    case 0: return uleb(b, at)[1]; // function: type index
    case 1: return limits(at + 1); // table: reference type, limits
    case 2: return limits(at); // memory: limits
    case 3: return at + 2; // global: value type, mutability
    case 4: return uleb(b, at + 1)[1]; // tag: attribute, type index
    default: throw new Error(`unknown import kind ${kind}`);
  }
};

// a..z, A..Z, then two letters: valid identifiers that cannot meet `__proto__`.
const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const shortName = (i) =>
  i < letters.length ? letters[i] : shortName(Math.floor(i / letters.length) - 1) + letters[i % letters.length];

// A section that is a vector of entries, rewritten: `entry(p)` reads the entry at `p`
// and gives its new bytes and the position after it.
const rewriteVector = (s, entry) => {
  let [count, p] = uleb(b, s.body);
  const out = [leb(count)];
  for (let i = 0; i < count; i++) {
    let bytes;
    [bytes, p] = entry(p);
    out.push(bytes);
  }
  if (p !== s.end) fail(`section ${s.id} has bytes after its entries`);
  return section(s.id, Buffer.concat(out));
};

// Imports: every one gets a short name, under the module `w`.
const renamed = new Map(); // old name -> new name
let moduleName = null;
const importEntry = (p) => {
  let mod, field;
  [mod, p] = name(b, p);
  [field, p] = name(b, p);
  const desc = p;
  p = skipImportDesc(p);
  moduleName ??= mod;
  if (mod !== moduleName) fail(`imports from two modules (${moduleName}, ${mod})`);
  if (renamed.has(field)) fail(`import ${field} twice`);
  renamed.set(field, shortName(renamed.size));
  return [Buffer.concat([nameBytes('w'), nameBytes(renamed.get(field)), b.subarray(desc, p)]), p];
};

// The glue's own exports (`__wbindgen_malloc`, the closures' long hashed `invoke`
// names, `view_update`, ...) get short names too, `$a`, `$b`, ...; the API's exports
// (`mount`, `parse`, `memory`, ...) keep theirs, since the glue reads them as
// `wasm.parse` where `.parse` also means `JSON.parse`.
const exportsRenamed = new Map();
const exportEntry = (p) => {
  let field;
  [field, p] = name(b, p);
  const desc = p;
  p = uleb(b, p + 1)[1]; // kind, index
  if (/^(?:__|wasm_bindgen_|view_)/.test(field)) {
    exportsRenamed.set(field, `$${shortName(exportsRenamed.size)}`);
    field = exportsRenamed.get(field);
  }
  return [Buffer.concat([nameBytes(field), b.subarray(desc, p)]), p];
};

const parts = [b.subarray(0, 8)];
for (const s of all) {
  if (s.id === 2) parts.push(rewriteVector(s, importEntry));
  else if (s.id === 7) parts.push(rewriteVector(s, exportEntry));
  else parts.push(b.subarray(s.start, s.end));
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
