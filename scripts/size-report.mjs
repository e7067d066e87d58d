// Attributes a .wasm to its parts with twiggy: by crate, by citekit module, the top
// items, and optionally twiggy's monomorphization report. The wasm must keep its name
// section (scripts/build-pkg.sh writes such a copy, target/size/citekit_named.wasm,
// from the same wasm-opt run as the package's wasm, so the code is the same).
//
// Usage: node scripts/size-report.mjs WASM [--top 20] [--monos 0] [--json OUT]
//   --top N    how many single items to list (default 20)
//   --monos N  also list the N generic functions with the most bytes in copies
//   --json OUT write the grouped numbers as JSON (to compare two builds)
//   --diff A.json  print the change of every crate and module against an earlier --json
// Exits 0 with a one-line note when twiggy is not installed (the build goes on without
// the attribution; scripts/setup.sh installs twiggy).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const wasm = args.find((a, i) => !a.startsWith('--') && (i === 0 || !args[i - 1].startsWith('--')));
const TOP = Number(opt('--top', 20));
const MONOS = Number(opt('--monos', 0));
const JSON_OUT = opt('--json', '');
const DIFF = opt('--diff', '');

if (!wasm || !fs.existsSync(wasm)) {
  console.error(`size-report: no such wasm: ${wasm ?? '(none given)'}`);
  process.exit(2);
}
const probe = spawnSync('twiggy', ['--version'], { encoding: 'utf8' });
if (probe.error || probe.status !== 0) {
  console.log('  (twiggy is not installed: no attribution; `bash scripts/setup.sh` installs it)');
  process.exit(0);
}
const twiggy = (sub) => {
  const r = spawnSync('twiggy', [...sub, '--format', 'json', wasm], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (r.status !== 0) throw new Error(`twiggy ${sub.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
};

let items;
try {
  items = twiggy(['top', '-n', '1000000']);
} catch (e) {
  console.log(`  (twiggy failed, no attribution: ${e.message.split('\n')[0]})`);
  process.exit(0);
}

// The names section is not in the shipped wasm: leave it out of every total.
const NAMES = /^"(function|local|module|global|data|type|elem|label|table|memory|field|tag) names" subsection$|^custom section '(name|producers|target_features)'/;
items = items.filter((it) => !NAMES.test(it.name));
const total = items.reduce((s, it) => s + it.shallow_size, 0);

// Rust names are v0-demangled (`name[hash]::`) or legacy (`name::..::h<hash>`); the
// first path in a name owns the item (`<alloc[..]::vec::Vec<citekit[..]::X> as ..>::clone` is alloc's
// generic code, compiled for a citekit type).
const CRATE = /([A-Za-z_][A-Za-z0-9_]*)(?:\[[0-9a-f]+\])?::/;
const LEPTOS = new Set([
  'leptos', 'leptos_dom', 'leptos_macro', 'leptos_config', 'leptos_hot_reload', 'leptos_server',
  'tachys', 'reactive_graph', 'reactive_stores', 'any_spawner', 'throw_error', 'or_poisoned',
  'server_fn', 'oco_ref', 'hydration_context', 'either_of', 'next_tuple', 'slotmap',
  'guardian', 'send_wrapper', 'futures_util', 'futures_core', 'futures_channel',
  'futures_executor', 'futures_sink', 'futures_io', 'pin_project_lite', 'wasm_streams',
  'wasm_bindgen_futures', 'async_lock', 'event_listener', 'concurrent_queue', 'drain_filter_polyfill',
  'tracing', 'tracing_core', 'url', 'idna', 'form_urlencoded', 'percent_encoding',
  'gloo_net', 'gloo_utils', 'http', 'bytes', 'serde_qs', 'const_str_slice_concat',
  'linear_map', 'rustc_hash', 'typed_builder', 'itertools', 'paste', 'attribute_derive',
]);
const STD = new Set(['core', 'alloc', 'std', 'compiler_builtins', 'dlmalloc', '__rustc', 'panic_abort', 'panic_unwind', 'hashbrown', 'rustc_demangle']);

function classify(name) {
  if (/^data segment/.test(name) || /^data\[\d+\]$/.test(name)) return { crate: '(data segments)' };
  if (/section headers$|^(custom section|type\[|table\[|elem\[|global\[|memory\[|export |import |"|wasm magic)/.test(name))
    return { crate: '(wasm sections, imports, exports)' };
  // `<str>::trim_matches::<..>`, `<[T]>::to_vec_in`, `<u8>::..`: inherent methods of
  // primitive types, from core and alloc.
  if (/^<(&?(mut )?(str|\[[^\]]*\]|[iuf](8|16|32|64|128|size)|char|bool))>::/.test(name)) return { crate: 'core' };
  const m = CRATE.exec(name);
  if (!m) {
    if (/^(__wbg_|__wbindgen|__externref|wasm_bindgen)|(externref|multivalue) shim$/.test(name)) return { crate: 'wasm_bindgen' };
    if (/^(mem(cpy|move|set|cmp)|__(multi|div|mod|ashl|ashr|lshr|mul|udiv|umod)|bcmp)/.test(name)) return { crate: 'compiler_builtins' };
    return { crate: '(unnamed)' };
  }
  const crate = m[1];
  const out = { crate };
  if (crate === 'citekit') {
    // `citekit[..]::core::formats::gemini::parse`: module path up to three levels in
    // core::formats, two in core, one elsewhere.
    const rest = name.slice(m.index + m[0].length).replace(/\[[0-9a-f]+\]|::h[0-9a-f]{16}$/g, '');
    const segs = rest.split(/::|[<> ,(]/).filter(Boolean);
    const mod = [];
    for (const s of segs) {
      if (!/^[a-z_][a-z0-9_]*$/.test(s)) break;
      mod.push(s);
    }
    if (mod[0] === 'core' && mod[1] === 'formats' && mod.length > 3) out.module = mod.slice(0, 3).join('::');
    else if (mod[0] === 'core' && mod.length > 2) out.module = mod.slice(0, 2).join('::');
    else if (mod.length > 1 && mod[0] !== 'core') out.module = mod[0];
    else out.module = mod.slice(0, 2).join('::') || '(crate root)';
    if (out.module === 'core::formats' || out.module === 'core') out.module += ' (shared)';
  } else if (/citekit(\[[0-9a-f]+\])?::/.test(name)) {
    out.forCitekit = true;
  }
  return out;
}

const byCrate = new Map();
const byModule = new Map();
let monoForCitekit = 0;
const add = (map, k, n) => map.set(k, (map.get(k) ?? 0) + n);
for (const it of items) {
  const c = classify(it.name);
  add(byCrate, c.crate, it.shallow_size);
  if (c.module) add(byModule, c.module, it.shallow_size);
  if (c.forCitekit) monoForCitekit += it.shallow_size;
}
const family = (crate) =>
  crate === 'citekit' ? 'citekit' : LEPTOS.has(crate) ? 'Leptos and its dependencies' : STD.has(crate) ? 'Rust std (core, alloc, std, dlmalloc, hashbrown)' : crate.startsWith('(') ? crate : crate.replace(/_impl$|_derive$/, '') === 'serde' || crate === 'serde_core' || crate === 'serde_json' || crate === 'ryu' || crate === 'zmij' || crate === 'itoa' || crate === 'serde_wasm_bindgen' ? 'serde, serde_json' : crate === 'wasm_bindgen' || crate === 'js_sys' || crate === 'web_sys' ? 'wasm-bindgen, js-sys, web-sys' : crate === 'pulldown_cmark' || crate === 'unicase' ? 'pulldown-cmark, unicase' : 'other crates';
const byFamily = new Map();
for (const [k, v] of byCrate) add(byFamily, family(k), v);

const kb = (b) => `${(b / 1024).toFixed(1)} KB`;
const pct = (b) => `${((100 * b) / total).toFixed(1)}%`;
const sorted = (map) => [...map].sort((a, b) => b[1] - a[1]);
const clean = (s) => s.replace(/\[[0-9a-f]+\]|::h[0-9a-f]{16}$/g, '');
const cut = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

let prev = null;
if (DIFF) {
  try {
    prev = JSON.parse(fs.readFileSync(DIFF, 'utf8'));
  } catch (e) {
    console.log(`  (cannot read ${DIFF}: ${e.message}; no diff)`);
  }
}
const delta = (group, k, v) => {
  if (!prev) return '';
  const before = prev[group]?.[k] ?? 0;
  const d = v - before;
  return d === 0 ? '' : `${d > 0 ? '+' : ''}${(d / 1024).toFixed(1)} KB`;
};
const table = (title, group, rows, limit = rows.length) => {
  console.log(`  ${title}`);
  for (const [k, v] of rows.slice(0, limit)) {
    console.log(`    ${cut(k, 48).padEnd(48)} ${kb(v).padStart(10)} ${pct(v).padStart(6)} ${delta(group, k, v).padStart(10)}`);
  }
  if (rows.length > limit) {
    const rest = rows.slice(limit).reduce((s, [, v]) => s + v, 0);
    console.log(`    ${`(${rows.length - limit} more)`.padEnd(48)} ${kb(rest).padStart(10)} ${pct(rest).padStart(6)}`);
  }
};

console.log(`  wasm code and data: ${kb(total)} raw (names left out)${prev ? `, was ${kb(prev.total)}` : ''}`);
table('by family', 'family', sorted(byFamily));
table('by crate (top 16)', 'crate', sorted(byCrate), 16);
console.log(`    (std/alloc/Leptos generic code compiled for citekit types: ${kb(monoForCitekit)}, counted under those crates)`);
table('citekit by module (top 14; format parsers are mostly inlined into parse_draft)', 'module', sorted(byModule), 14);
console.log(`  top ${TOP} items`);
for (const it of items.slice(0, TOP)) {
  console.log(`    ${kb(it.shallow_size).padStart(9)} ${pct(it.shallow_size).padStart(6)}  ${cut(clean(it.name), 100)}`);
}
if (MONOS > 0) {
  try {
    const monos = twiggy(['monos', '-m', String(MONOS), '-n', '100000']);
    console.log(`  generic functions with the most bytes in their copies (twiggy monos)`);
    for (const m of monos.slice(0, MONOS)) {
      const copies = m.monomorphizations?.length ?? 0;
      const bloat = m.approximate_monomorphization_bloat_bytes ?? 0;
      console.log(`    ${kb(m.total_size ?? 0).padStart(9)} in ${String(copies).padStart(3)} copies (${kb(bloat)} more than one)  ${cut(clean(m.generic ?? ''), 80)}`);
    }
  } catch (e) {
    console.log(`  (twiggy monos failed: ${e.message.split('\n')[0]})`);
  }
}
if (JSON_OUT) {
  fs.writeFileSync(
    JSON_OUT,
    JSON.stringify({
      total,
      family: Object.fromEntries(byFamily),
      crate: Object.fromEntries(byCrate),
      module: Object.fromEntries(byModule),
    }, null, 1),
  );
}
