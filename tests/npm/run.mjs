// The npm package tests, all from the packed tarball (`npm pack` of pkg/):
//   (a) a plain HTML page importing the unpacked package with <script type="module">,
//   (b) a Vite 7 app with the tarball installed and built (`vite build`),
//   both checked in headless Chromium (browser-checks.mjs);
//   (a') the plain page again in a phone-like touch context, tapped (touch-checks.mjs);
//   (c) renderToString and parse under Node (node-render.mjs);
//   (d) the types: tsc --noEmit over typed-example.ts;
//   (e) the example pages of examples/js/ (shown on the demo page), served exactly as
//       written next to the unpacked package (example-checks.mjs);
//   (f) a Vite 7 + React 19 app (development build, StrictMode) using cited-answer/react,
//       <cited-answer> and examples/js/react.jsx (react-checks.mjs);
//   (g) examples/ai-sdk/, a Vite + React app on the real Vercel AI SDK (`ai`,
//       @ai-sdk/react useChat) whose transport answers with recorded UI message
//       streams, built with the tarball and checked render by render (ai-sdk-checks.mjs).
//   (h) what a page downloads, per kind of answer it shows, against the page-load
//       budgets (page-load.mjs).
//   (p) that the tarball can be published as it is: its files, name and version,
//       `npm publish --dry-run`, publint and @arethetypeswrong/cli (publish-checks.mjs).
//
// Usage: node tests/npm/run.mjs [--no-build] [--keep]
//   --no-build  use pkg/ as it is (default: bash scripts/build-pkg.sh first)
//   --keep      keep the scratch directory (printed) for a look afterwards
// Ends with `N passed, N failed`; exits non-zero when anything failed.
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aiSdkChecks, badMessageChecks, elementMessageChecks, messageFallbackChecks } from './ai-sdk-checks.mjs';
import { browserChecks } from './browser-checks.mjs';
import { EXAMPLES, exampleChecks } from './example-checks.mjs';
import { failureChecks } from './host-checks.mjs';
import { pageLoadChecks } from './page-load.mjs';
import { publishChecks } from './publish-checks.mjs';
import { reactChecks, reactFailureChecks } from './react-checks.mjs';
import { touchChecks } from './touch-checks.mjs';
import { ROOT, Tally, assert, eq, launch, resolveDev, run, runShown, serve } from './lib.mjs';

const args = new Set(process.argv.slice(2));
const HERE = join(ROOT, 'tests', 'npm');
const PKG = join(ROOT, 'pkg');
const tally = new Tally();
const work = mkdtempSync(join(tmpdir(), 'citekit-npm-'));
let browser = null;

function section(name) {
  console.log(`\n==> ${name}`);
}

/** Unpacks the tarball's `package/` into `dir`/node_modules/cited-answer. */
function unpackInto(tarball, dir) {
  const dest = join(dir, 'node_modules', 'cited-answer');
  mkdirSync(dest, { recursive: true });
  run('tar', ['xzf', tarball, '-C', dest, '--strip-components=1']);
  return dest;
}

async function main() {
  if (!args.has('--no-build')) {
    section('build: bash scripts/build-pkg.sh');
    try {
      runShown('bash', [join(ROOT, 'scripts', 'build-pkg.sh')], { cwd: ROOT });
    } catch (err) {
      tally.fail('build-pkg.sh', err);
      return;
    }
  }
  if (!existsSync(join(PKG, 'package.json'))) {
    tally.fail('pkg/ exists', new Error('pkg/package.json missing: run bash scripts/build-pkg.sh'));
    return;
  }

  section('npm pack');
  let tarball;
  let packed = [];
  await tally.test('npm pack: the tarball holds the package', () => {
    const out = run('npm', ['pack', PKG, '--pack-destination', work, '--json'], { cwd: work });
    const info = JSON.parse(out)[0];
    tarball = join(work, info.filename);
    const files = info.files.map((f) => f.path).sort();
    packed = files;
    for (const f of [
      'README.md',
      'cited-answer.js',
      'citekit.css',
      'citekit_wasm.js',
      'citekit_wasm_bg.wasm',
      'core.js',
      'index.d.ts',
      'index.js',
      'package.json',
      'react.js',
      'react.d.ts',
      'jsx.d.ts',
      'citekit.css.d.ts',
    ]) {
      assert(files.includes(f), `${f} missing from the tarball: ${files.join(', ')}`);
    }
    console.log(`       ${info.filename}: ${files.length} files, ${(info.size / 1024).toFixed(1)} KB packed`);
  });
  if (!tarball) return;

  // (p) publishable as it is.
  section('(p) publishable: the files, npm publish --dry-run, publint, attw');
  await publishChecks(tally, tarball, work, packed);

  // (a) the plain page.
  section('(a) plain <script type="module"> page');
  const plain = join(work, 'plain');
  mkdirSync(plain, { recursive: true });
  unpackInto(tarball, plain);
  cpSync(join(HERE, 'site'), plain, { recursive: true });
  browser = await launch();
  {
    const server = await serve(plain);
    try {
      await browserChecks(tally, browser.context, `${server.url}/index.html`, 'plain');
    } finally {
      await server.close();
    }
  }

  // (h) what a page downloads, by the answer it shows.
  section('(h) what a page downloads (every file it requests, gzip -9), per kind of answer');
  {
    const server = await serve(plain);
    try {
      await pageLoadChecks(tally, browser.context, server.url, plain);
    } finally {
      await server.close();
    }
  }

  // (a') the plain page on a phone: real taps in a touch context.
  section("(a') plain page, taps in a touch context (hasTouch, isMobile)");
  {
    const server = await serve(plain);
    try {
      await touchChecks(tally, `${server.url}/index.html`, 'touch');
    } finally {
      await server.close();
    }
  }

  // (a2) the same page when the .wasm URL answers with an HTML page.
  section('(a2) plain page, the .wasm served as HTML');
  {
    const server = await serve(plain, { htmlFor: (path) => path.endsWith('.wasm') });
    try {
      await failureChecks(tally, browser.context, `${server.url}/index.html`);
    } finally {
      await server.close();
    }
  }

  // (c) Node.
  section('(c) renderToString and parse under Node');
  {
    cpSync(join(HERE, 'node-render.mjs'), join(plain, 'node-render.mjs'));
    const r = spawnSync(process.execPath, ['node-render.mjs'], { cwd: plain, encoding: 'utf8' });
    process.stdout.write(r.stdout);
    if (r.stderr) process.stderr.write(r.stderr);
    const m = /^(\d+) passed, (\d+) failed$/m.exec(r.stdout);
    if (m) {
      tally.passed += Number(m[1]);
      tally.failed += Number(m[2]);
      if (Number(m[2]) > 0) tally.failures.push('node-render.mjs');
    }
    if (!m || (r.status !== 0 && Number(m[2]) === 0)) {
      tally.fail('node-render.mjs', new Error(`exit ${r.status}, no summary line`));
    }
  }

  // (d) types.
  section('(d) tsc --noEmit over typed-example.ts');
  await tally.test('types: typed-example.ts compiles against index.d.ts', () => {
    cpSync(join(HERE, 'typed-example.ts'), join(plain, 'typed-example.ts'));
    cpSync(join(HERE, 'tsconfig.example.json'), join(plain, 'tsconfig.json'));
    const tsc = resolveDev('typescript/package.json').replace(/package\.json$/, 'bin/tsc');
    run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: plain });
  });

  await tally.test('types: typed-react.tsx compiles against react.d.ts and jsx.d.ts', () => {
    cpSync(join(HERE, 'typed-react.tsx'), join(plain, 'typed-react.tsx'));
    // React's types from the repository's devDependencies, where the app would have its own.
    mkdirSync(join(plain, 'node_modules', '@types'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', '@types', 'react'), join(plain, 'node_modules', '@types', 'react'));
    const config = JSON.parse(readFileSync(join(HERE, 'tsconfig.example.json'), 'utf8'));
    config.compilerOptions.jsx = 'react-jsx';
    config.files = ['typed-react.tsx'];
    writeFileSync(join(plain, 'tsconfig.react.json'), JSON.stringify(config));
    const tsc = resolveDev('typescript/package.json').replace(/package\.json$/, 'bin/tsc');
    run(process.execPath, [tsc, '-p', 'tsconfig.react.json'], { cwd: plain });
  });

  await tally.test("types: typed-ai-sdk.tsx gives the AI SDK's own UIMessage to <CitedAnswer message> and <cited-answer>", () => {
    cpSync(join(HERE, 'typed-ai-sdk.tsx'), join(plain, 'typed-ai-sdk.tsx'));
    // `ai` from the repository's devDependencies, where the app would have its own.
    symlinkSync(join(ROOT, 'node_modules', 'ai'), join(plain, 'node_modules', 'ai'));
    const config = JSON.parse(readFileSync(join(HERE, 'tsconfig.example.json'), 'utf8'));
    config.compilerOptions.jsx = 'react-jsx';
    // The AI SDK's declarations need Node's and json-schema's types, which an app on it
    // has; citekit's own are checked by the two configs above.
    config.compilerOptions.skipLibCheck = true;
    config.files = ['typed-ai-sdk.tsx'];
    writeFileSync(join(plain, 'tsconfig.ai-sdk.json'), JSON.stringify(config));
    const tsc = resolveDev('typescript/package.json').replace(/package\.json$/, 'bin/tsc');
    run(process.execPath, [tsc, '-p', 'tsconfig.ai-sdk.json'], { cwd: plain });
  });

  // (b) the Vite app.
  section('(b) Vite 7 app (npm install of the tarball, vite build)');
  const app = join(work, 'vite-app');
  cpSync(join(HERE, 'vite-app'), app, { recursive: true });
  cpSync(join(HERE, 'site', 'app.js'), join(app, 'app.js'));
  let built = false;
  // --prefer-offline, not --offline: on a new machine the npm cache holds the tarballs
  // the root `npm install` fetched by its lock file but not the registry's metadata that
  // resolving `react@19.3.1` by name needs.
  await tally.test('vite: npm install <tarball> and vite build', () => {
    run('npm', ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: app });
    const vite = resolveDev('vite/package.json').replace(/package\.json$/, 'bin/vite.js');
    const out = run(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: app });
    if (out.trim()) console.log(out.trim().replace(/^/gm, '       '));
    const assets = readdirSync(join(app, 'dist', 'assets'));
    assert(assets.some((f) => f.endsWith('.wasm')), `no .wasm in dist/assets: ${assets.join(', ')}`);
    assert(assets.some((f) => f.endsWith('.css')), `no .css in dist/assets: ${assets.join(', ')}`);
    built = true;
  });
  if (built) {
    const server = await serve(join(app, 'dist'));
    try {
      await browserChecks(tally, browser.context, `${server.url}/index.html`, 'vite');
    } finally {
      await server.close();
    }
    // Vite's dev server without optimizeDeps.exclude (this app has no vite.config.js):
    // it pre-bundles the package away from its .wasm and serves its HTML page instead.
    const dev = await viteDevServer(app);
    try {
      await failureChecks(tally, browser.context, `${dev.url}/index.html`, 'vite dev server, no optimizeDeps.exclude');
    } finally {
      dev.close();
    }
  }

  // (f) the React app: cited-answer/react and <cited-answer> in React 19 (StrictMode, a
  // development build), with the example of examples/js/react.jsx.
  section('(f) Vite 7 + React 19 app (development build)');
  const reactApp = join(work, 'react-app');
  cpSync(join(HERE, 'react-app'), reactApp, { recursive: true });
  cpSync(join(ROOT, 'examples', 'js', 'react.jsx'), join(reactApp, 'react.jsx'));
  let reactBuilt = false;
  await tally.test('react: npm install <tarball> react react-dom, development vite build', () => {
    const react = JSON.parse(readFileSync(resolveDev('react/package.json'), 'utf8')).version;
    const reactDom = JSON.parse(readFileSync(resolveDev('react-dom/package.json'), 'utf8')).version;
    run('npm', ['install', tarball, `react@${react}`, `react-dom@${reactDom}`, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: reactApp,
    });
    const vite = resolveDev('vite/package.json').replace(/package\.json$/, 'bin/vite.js');
    // NODE_ENV=development: React's development build (StrictMode's double effects).
    const out = run(process.execPath, [vite, 'build', '--mode', 'development', '--logLevel', 'warn'], {
      cwd: reactApp,
      env: { ...process.env, NODE_ENV: 'development' },
    });
    if (out.trim()) console.log(out.trim().replace(/^/gm, '       '));
    reactBuilt = true;
  });
  if (reactBuilt) {
    const server = await serve(join(reactApp, 'dist'));
    try {
      await reactChecks(tally, browser.context, `${server.url}/index.html`);
    } finally {
      await server.close();
    }
    const failing = await serve(join(reactApp, 'dist'), { htmlFor: (path) => path.endsWith('.wasm') });
    try {
      await reactFailureChecks(tally, browser.context, `${failing.url}/index.html`);
    } finally {
      await failing.close();
    }
  }

  // (g) examples/ai-sdk/: useChat with <CitedAnswer message streaming>, built with the
  // tarball and the AI SDK versions of the repository's devDependencies.
  section('(g) examples/ai-sdk/ (Vite + React + ai + @ai-sdk/react useChat)');
  const aiApp = join(work, 'ai-sdk-app');
  cpSync(join(ROOT, 'examples', 'ai-sdk'), aiApp, {
    recursive: true,
    filter: (src) => !/[/\\](node_modules|dist)$/.test(src),
  });
  let aiBuilt = false;
  await tally.test('ai-sdk example: npm install <tarball> ai @ai-sdk/react react react-dom, vite build', () => {
    const version = (name) => JSON.parse(readFileSync(resolveDev(`${name}/package.json`), 'utf8')).version;
    const pkg = JSON.parse(readFileSync(join(aiApp, 'package.json'), 'utf8'));
    // The example's own `file:../../pkg` is the tarball here; vite is the repository's.
    delete pkg.dependencies['cited-answer'];
    delete pkg.devDependencies;
    writeFileSync(join(aiApp, 'package.json'), JSON.stringify(pkg, null, 2));
    const deps = ['ai', '@ai-sdk/react', 'react', 'react-dom'].map((n) => `${n}@${version(n)}`);
    run('npm', ['install', tarball, ...deps, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: aiApp });
    const vite = resolveDev('vite/package.json').replace(/package\.json$/, 'bin/vite.js');
    const out = run(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
      cwd: aiApp,
      env: { ...process.env, RECORDED_DIR: join(ROOT, 'tests', 'recorded', 'ai-sdk') },
    });
    if (out.trim()) console.log(out.trim().replace(/^/gm, '       '));
    aiBuilt = true;
  });
  {
    // The element alone, given every state the real SDK's UIMessage goes through.
    const plainServer = await serve(plain);
    try {
      await elementMessageChecks(tally, browser.context, plainServer.url);
      await badMessageChecks(tally, browser.context, plainServer.url);
      const failing = await serve(plain, { htmlFor: (path) => path.endsWith('.wasm') });
      try {
        await messageFallbackChecks(tally, browser.context, failing.url);
      } finally {
        await failing.close();
      }
      if (aiBuilt) {
        const server = await serve(join(aiApp, 'dist'));
        try {
          await aiSdkChecks(tally, browser.context, server.url, plainServer.url);
        } finally {
          await server.close();
        }
      }
    } finally {
      await plainServer.close();
    }
  }

  // (e) the example pages, copied byte for byte next to the plain page's node_modules.
  section('(e) examples/js/ pages, served as they are');
  await tally.test('examples/js/: every page has its checks', () => {
    const pages = readdirSync(join(ROOT, 'examples', 'js')).filter((f) => f.endsWith('.html')).sort();
    eq(pages, EXAMPLES.map((ex) => ex.file).sort(), 'pages in examples/js/ (add new ones to example-checks.mjs)');
  });
  for (const ex of EXAMPLES) cpSync(join(ROOT, 'examples', 'js', ex.file), join(plain, ex.file));
  {
    const server = await serve(plain);
    try {
      await exampleChecks(tally, browser.context, server.url);
    } finally {
      await server.close();
    }
  }
}

/** Starts `vite` (the dev server) in `dir` on 127.0.0.1. Returns {url, close}. */
async function viteDevServer(dir) {
  const vite = resolveDev('vite/package.json').replace(/package\.json$/, 'bin/vite.js');
  const child = spawn(process.execPath, [vite, '--host', '127.0.0.1', '--port', '5273'], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`vite dev server did not start:\n${output}`)), 30000);
    const read = (chunk) => {
      output += chunk;
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
      if (m) {
        clearTimeout(timer);
        ok(m[0]);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => fail(new Error(`vite dev server exited (${code}):\n${output}`)));
  });
  return { url, close: () => child.kill() };
}

try {
  await main();
} catch (err) {
  tally.fail('test runner', err);
} finally {
  if (browser) await browser.close();
  if (args.has('--keep')) {
    console.log(`\nscratch directory kept: ${work}`);
  } else {
    rmSync(work, { recursive: true, force: true });
  }
}
if (tally.failures.length) console.log(`\nfailed: ${tally.failures.join('; ')}`);
console.log(`${tally.passed} passed, ${tally.failed} failed`);
process.exit(tally.failed === 0 ? 0 : 1);
