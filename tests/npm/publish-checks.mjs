// Checks that the packed tarball can be published as it is, and holds what users need
// and nothing else:
//   - its files: exactly the package's modules, types, wasm, stylesheet, README and
//     licences (no tests, no sources, no source maps: the JS is minified on purpose and
//     its readable sources are npm/*.js in the repository);
//   - its package.json: the repository's npm name (not `citekit`, another project's
//     package on npm) and the crate's version, licence and repository;
//   - the READMEs install and import it by that name, and only through its exports;
//   - `npm publish --dry-run` of the tarball (which asks the registry about the name);
//   - publint (strict, every message level) and @arethetypeswrong/cli over the
//     tarball, for every entry (`.`, `./react`, `./jsx`, `./citekit.css`,
//     `./cited-answer.js`).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, assert, eq, resolveDev, run } from './lib.mjs';

/** The files of the tarball, besides what wasm-bindgen may add under snippets/. */
export const PACKAGE_FILES = [
  'LICENSE-APACHE',
  'LICENSE-MIT',
  'README.md',
  'cited-answer.d.ts',
  'cited-answer.js',
  'citekit.css',
  'citekit.css.d.ts',
  'citekit_full.js',
  'citekit_full_bg.wasm',
  'citekit_wasm.js',
  'citekit_wasm_bg.wasm',
  'core.js',
  'index.d.ts',
  'index.js',
  'jsx.d.ts',
  'package.json',
  'react.d.ts',
  'react.js',
];

/** The entries users import; each must resolve to JS (or CSS) and to its types. */
export const ENTRIES = ['.', './react', './jsx', './citekit.css', './cited-answer.js'];

/**
 * The npm registry's rule for new names: one that equals an existing name once case
 * and punctuation are dropped is refused as too similar. `citekit` is taken.
 */
function moniker(name) {
  return name.replace(/^@[^/]+\//, '').toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Cargo.toml's `[package]` string field `key`. */
function cargoField(key) {
  const pkg = readFileSync(join(ROOT, 'Cargo.toml'), 'utf8').split(/^\[/m)[1];
  return new RegExp(`^${key} = "(.*)"$`, 'm').exec(pkg)?.[1];
}

/**
 * The module specifiers of the package a markdown file's code blocks use: `from 'x'`,
 * `import 'x'`, `import('x')`, `npm install x`, and import maps' `"x": "./node_modules/..."`.
 */
function specifiers(markdown) {
  const code = [...markdown.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1]).join('\n');
  const found = new Set();
  for (const m of code.matchAll(/(?:\bfrom\s+|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)) found.add(m[1]);
  for (const m of code.matchAll(/\bnpm (?:install|i|add)\s+([^\n#]+)/g)) {
    for (const word of m[1].trim().split(/\s+/)) if (!word.startsWith('-')) found.add(word);
  }
  return [...found];
}

/** Runs every publish check over `tarball` (the `npm pack` of pkg/ in `work`). */
export async function publishChecks(tally, tarball, work, files) {
  const manifest = JSON.parse(run('tar', ['xzOf', tarball, 'package/package.json']));
  const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

  await tally.test('publish: the tarball holds only what users need (no tests, sources or source maps)', () => {
    const extra = files.filter((f) => !PACKAGE_FILES.includes(f) && !/^snippets\/.+\.js$/.test(f));
    const missing = PACKAGE_FILES.filter((f) => !files.includes(f));
    assert(extra.length === 0, `files users do not need in the tarball: ${extra.join(', ')}`);
    assert(missing.length === 0, `files missing from the tarball: ${missing.join(', ')}`);
    // A `sourceMappingURL` to a map that is not shipped makes devtools and bundlers
    // warn on every load.
    for (const f of files.filter((f) => f.endsWith('.js'))) {
      const text = run('tar', ['xzOf', tarball, `package/${f}`]);
      assert(!/[#@] sourceMappingURL=/.test(text), `${f} points at a source map the package does not ship`);
    }
  });

  await tally.test("publish: package.json: the repository's npm name and the crate's version, licence and repository", () => {
    eq(manifest.name, root.name, "the tarball's name (the repository package.json's)");
    assert(manifest.private !== true, 'the tarball is marked private: npm refuses to publish it');
    assert(moniker(manifest.name) !== moniker('citekit'), `${manifest.name}: npm treats it as the name citekit, another project's package`);
    eq(manifest.version, cargoField('version'), "the tarball's version (Cargo.toml's)");
    eq(root.version, cargoField('version'), "package.json's version (Cargo.toml's)");
    eq(manifest.license, cargoField('license'), "the tarball's licence (Cargo.toml's)");
    eq(manifest.repository?.url, `git+${cargoField('repository')}.git`, "the tarball's repository (Cargo.toml's)");
  });

  await tally.test('publish: the READMEs install and import the package by its name, through its exports', () => {
    const exportsKeys = Object.keys(manifest.exports);
    for (const readme of ['README.md', 'npm/README.md']) {
      const used = specifiers(readFileSync(join(ROOT, readme), 'utf8'));
      const ours = used.filter((s) => s === manifest.name || s.startsWith(`${manifest.name}/`));
      assert(ours.length > 0, `${readme} never imports or installs ${manifest.name}: ${used.join(', ')}`);
      const wrong = used.filter((s) => moniker(s.split('/')[0]) === moniker('citekit'));
      assert(wrong.length === 0, `${readme} names citekit on npm (another project's package): ${wrong.join(', ')}`);
      for (const s of ours) {
        const sub = s === manifest.name ? '.' : `.${s.slice(manifest.name.length)}`;
        assert(exportsKeys.includes(sub), `${readme} imports ${s}, which is not in the package's exports (${exportsKeys.join(', ')})`);
      }
    }
  });

  await tally.test('publish: npm publish --dry-run of the tarball', () => {
    const r = spawnSync('npm', ['publish', '--dry-run', tarball], { cwd: work, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    // npm writes its notices, warnings and errors to stderr.
    const out = `${r.stdout}\n${r.stderr}`;
    assert(r.status === 0, `npm publish --dry-run failed (exit ${r.status}):\n${out.trim().split('\n').slice(-15).join('\n')}`);
    const warnings = out
      .split('\n')
      .filter((l) => /^npm (warn|error)/i.test(l))
      // A dry run needs no login: npm says so and goes on.
      .filter((l) => !/requires you to be logged in/.test(l));
    assert(warnings.length === 0, `npm publish --dry-run warned:\n${warnings.join('\n')}`);
    assert(new RegExp(`name: ${manifest.name.replace(/[/.]/g, '\\$&')}\\b`).test(out), `npm publish --dry-run did not name ${manifest.name}:\n${out}`);
    console.log(`       ${out.split('\n').filter((l) => /Tarball Details|name:|version:|package size|unpacked size|total files/.test(l)).map((l) => l.replace(/^npm notice /, '')).join('; ')}`);
  });

  await tally.test('publish: publint (strict) over the tarball: no error, warning or suggestion', async () => {
    const { publint } = await import(pathToFileURL(resolveDev('publint')).href);
    const { formatMessage } = await import(pathToFileURL(resolveDev('publint/utils')).href);
    const tar = readFileSync(tarball);
    const result = await publint({
      pack: { tarball: tar.buffer.slice(tar.byteOffset, tar.byteOffset + tar.byteLength) },
      level: 'suggestion',
      strict: true,
    });
    const lines = result.messages.map((m) => `${m.type}: ${formatMessage(m, result.pkg) ?? m.code}`);
    assert(lines.length === 0, `publint:\n${lines.join('\n')}`);
  });

  await tally.test('publish: @arethetypeswrong/cli over the tarball: every entry resolves to its types', () => {
    const attw = resolveDev('@arethetypeswrong/cli/package.json').replace(/package\.json$/, 'dist/index.js');
    // The .wasm files are exported as assets (a bundler's `new URL(...)`), not modules
    // with types. The package is ESM only (it finds its .wasm from import.meta.url), so
    // `require` from CommonJS resolving to ESM is by design: CommonJS code import()s it.
    const r = spawnSync(
      process.execPath,
      [attw, tarball, '--format', 'json', '--exclude-entrypoints', './citekit_wasm_bg.wasm', './citekit_full_bg.wasm', '--ignore-rules', 'cjs-resolves-to-esm'],
      { cwd: work, encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, NO_COLOR: '1' } },
    );
    assert(r.stdout.trim().startsWith('{'), `attw gave no report (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
    const { analysis } = JSON.parse(r.stdout);
    const problems = Object.values(analysis.problems ?? [])
      .flat()
      .filter((p) => p.kind !== 'CJSResolvesToESM');
    assert(problems.length === 0 && r.status === 0, `attw (exit ${r.status}): ${JSON.stringify(problems)}`);
    const entries = analysis.entrypoints;
    for (const entry of ENTRIES) {
      assert(entries[entry], `attw did not check ${entry}: ${Object.keys(entries).join(', ')}`);
      for (const kind of ['node10', 'node16-esm', 'bundler']) {
        const res = entries[entry].resolutions[kind]?.resolution;
        assert(res?.isTypeScript, `${entry} (${kind}): no type declarations: ${JSON.stringify(res)}`);
      }
    }
  });
}
