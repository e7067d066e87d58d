// Checks that the crate `citekit` can be published as it is:
//   - `cargo package --list`: the library's sources, build script and stylesheet, the
//     README, changelog, licences and docs; no tests, benches, demo, npm package or
//     scripts (Cargo.toml's `include`);
//   - `cargo publish --dry-run`: the manifest is complete (crates.io's checks) and the
//     packaged crate builds on its own; no warning but cargo's note that the
//     repository's tests, benches and demo example are left out;
//   - `rust-version`: no locked dependency of the library (any feature, any target)
//     needs a newer Rust (clippy's `incompatible_msrv` checks citekit's own use of std);
//   - the documentation: `cargo doc --no-deps` with docs.rs's features
//     (`[package.metadata.docs.rs]`), every rustdoc warning an error.
//
// Usage: node tests/crate/run.mjs. Ends with `N passed, N failed`; exits non-zero when
// anything failed. Needs the network to crates.io (cargo publish --dry-run).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, Tally, assert } from '../npm/lib.mjs';

const CRATE = 'citekit';
const tally = new Tally();

/** Runs a command in the repository; returns {status, out} with stdout and stderr. */
function sh(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 256 << 20,
    env: { ...process.env, CARGO_TERM_COLOR: 'never', ...env },
  });
  return { status: r.status, stdout: r.stdout ?? '', out: `${r.stdout ?? ''}\n${r.stderr ?? ''}` };
}

function tail(text, n = 30) {
  return text.trim().split('\n').slice(-n).join('\n');
}

/** `a` < `b` as dotted versions (1.88 < 1.89.0). */
function older(a, b) {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0);
  }
  return false;
}

const metadata = (() => {
  const r = sh('cargo', ['metadata', '--format-version', '1', '--locked']);
  if (r.status !== 0) throw new Error(`cargo metadata failed:\n${tail(r.out)}`);
  return JSON.parse(r.stdout);
})();
const pkg = metadata.packages.find((p) => p.name === CRATE && p.source === null);

console.log('\n==> cargo package --list');
await tally.test('cargo package --list: what users need and nothing else', () => {
  const r = sh('cargo', ['package', '--list', '-p', CRATE, '--allow-dirty']);
  assert(r.status === 0, `cargo package --list failed:\n${tail(r.out)}`);
  const files = r.stdout.trim().split('\n');
  console.log(`       ${files.length} files: ${files.join(' ')}`);
  const extra = files.filter((f) => /^(tests|benches|bench|www|npm|fuzz|scripts|pkg|style\/(?!base\.css$|sheets\.txt$)|examples\/(?!quickstart\.rs$|leptos_usage\.rs$))/.test(f));
  assert(extra.length === 0, `files users do not need: ${extra.join(', ')}`);
  const needed = ['Cargo.toml', 'Cargo.lock', 'build.rs', 'style/base.css', 'style/sheets.txt', 'README.md', 'CHANGELOG.md', 'LICENSE-MIT', 'LICENSE-APACHE'];
  // Every source file of the library, whichever feature compiles it.
  const sources = sh('git', ['ls-files', 'src']).stdout.trim().split('\n').filter((f) => f.endsWith('.rs') || f.endsWith('.css'));
  // The docs the README links to (crates.io shows the README).
  const docs = [...readFileSync(join(ROOT, 'README.md'), 'utf8').matchAll(/\]\((docs\/[a-z_-]+\.md)[#)]/g)].map((m) => m[1]);
  const missing = [...needed, ...sources, ...docs].filter((f) => !files.includes(f));
  assert(missing.length === 0, `missing from the crate: ${[...new Set(missing)].join(', ')}`);
});

console.log('\n==> cargo publish --dry-run');
await tally.test('cargo publish --dry-run: the manifest is complete and the packaged crate builds', () => {
  for (const key of ['description', 'license', 'repository', 'readme', 'rust_version', 'categories', 'keywords']) {
    const value = pkg[key];
    assert(value && (!Array.isArray(value) || value.length > 0), `Cargo.toml has no ${key.replace('_', '-')}`);
  }
  const r = sh('cargo', ['publish', '--dry-run', '-p', CRATE, '--allow-dirty']);
  process.stdout.write(r.out.replace(/^/gm, '       '));
  assert(r.status === 0, `cargo publish --dry-run failed (exit ${r.status})`);
  const warnings = r.out
    .split('\n')
    .filter((l) => /^warning:/.test(l))
    // The repository's own tests, benches and the demo example are not published.
    .filter((l) => !/^warning: ignoring (test|benchmark|example) `[^`]+` as `(tests|benches|examples)\/[^`]+` is not included in the published package$/.test(l))
    .filter((l) => l !== 'warning: aborting upload due to dry run');
  assert(warnings.length === 0, `cargo publish --dry-run warned:\n${warnings.join('\n')}`);
});

console.log('\n==> rust-version');
await tally.test(`rust-version: no locked dependency of ${CRATE} needs a newer Rust`, () => {
  const declared = pkg.rust_version;
  const byId = new Map(metadata.packages.map((p) => [p.id, p]));
  const nodes = new Map(metadata.resolve.nodes.map((n) => [n.id, n]));
  // The library's normal dependencies (and theirs), every feature and target the
  // workspace turns on; build scripts' and proc macros' dependencies are normal ones too.
  const seen = new Set();
  const stack = [pkg.id];
  while (stack.length) {
    const id = stack.pop();
    if (seen.has(id)) continue;
    seen.add(id);
    for (const dep of nodes.get(id)?.deps ?? []) {
      if (dep.dep_kinds.some((k) => k.kind !== 'dev')) stack.push(dep.pkg);
    }
  }
  const needs = [...seen]
    .map((id) => byId.get(id))
    .filter((p) => p.rust_version && p.id !== pkg.id)
    .sort((a, b) => (older(a.rust_version, b.rust_version) ? 1 : -1));
  console.log(`       rust-version ${declared}; the highest of ${seen.size - 1} locked dependencies: ${needs.slice(0, 3).map((p) => `${p.name} ${p.version} (${p.rust_version})`).join(', ')}`);
  const newer = needs.filter((p) => older(declared, p.rust_version));
  assert(newer.length === 0, `these need a newer Rust than rust-version ${declared}: ${newer.map((p) => `${p.name} ${p.version} (${p.rust_version})`).join(', ')}`);
});

console.log('\n==> cargo doc');
await tally.test("cargo doc --no-deps with docs.rs's features: no warning", () => {
  const docsrs = pkg.metadata?.docs?.rs ?? {};
  assert(Array.isArray(docsrs.features) && docsrs.features.length > 0, 'Cargo.toml has no [package.metadata.docs.rs] features');
  const args = ['doc', '--no-deps', '-p', CRATE, '--features', docsrs.features.join(',')];
  const r = sh('cargo', args, { RUSTDOCFLAGS: '-D warnings' });
  assert(r.status === 0, `cargo ${args.join(' ')} (RUSTDOCFLAGS=-D warnings) failed:\n${tail(r.out, 40)}`);
  const warnings = r.out.split('\n').filter((l) => /^warning/.test(l));
  assert(warnings.length === 0, `cargo doc warned:\n${warnings.join('\n')}`);
});

if (tally.failures.length) console.log(`\nfailed: ${tally.failures.join('; ')}`);
console.log(`${tally.passed} passed, ${tally.failed} failed`);
process.exit(tally.failed === 0 ? 0 : 1);
