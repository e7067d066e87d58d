// Helpers of the npm package tests: a static file server on 127.0.0.1, headless
// Chromium through playwright-core, a tiny test counter, and command runners.
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const require = createRequire(join(ROOT, 'package.json'));

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.ts': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
};

/**
 * Serves `dir` on 127.0.0.1 (a free port). Returns {url, close}. With `htmlFor`, a
 * path it accepts gets an HTML page instead of its file (as a dev server's fallback
 * does for a path it does not know).
 */
export async function serve(dir, { htmlFor } = {}) {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (htmlFor?.(path)) {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><body>app</body></html>');
      return;
    }
    let file = normalize(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
    });
    createReadStream(file).pipe(res);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    // A connection the browser opened ahead and never used would keep close() waiting.
    close: () =>
      new Promise((ok) => {
        server.close(ok);
        server.closeAllConnections();
      }),
  };
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Headless Chromium (Debian's, /usr/bin/chromium) with a fresh profile directory.
 * Returns {context, close}.
 */
export async function launch() {
  const { chromium } = require('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'citekit-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1200, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Counts passed and failed checks; prints each. */
export class Tally {
  passed = 0;
  failed = 0;
  failures = [];

  /** Runs `fn` (sync or async) as one test named `name`. */
  async test(name, fn) {
    try {
      await fn();
      this.passed++;
      console.log(`  ok   ${name}`);
    } catch (err) {
      this.failed++;
      this.failures.push(name);
      console.log(`  FAIL ${name}\n       ${String(err?.stack ?? err).split('\n').slice(0, 6).join('\n       ')}`);
    }
  }

  /** A failure that is not a single test (a build or a setup step). */
  fail(name, err) {
    this.failed++;
    this.failures.push(name);
    console.log(`  FAIL ${name}\n       ${String(err?.stack ?? err).split('\n').slice(0, 12).join('\n       ')}`);
  }
}

/** Runs a command; throws with its output when it fails. Returns stdout. */
export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
  if (r.status !== 0) {
    const out = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.trim().split('\n').slice(-40).join('\n');
    throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal}):\n${out}`);
  }
  return r.stdout;
}

/** Runs a command with its output shown; throws when it fails. */
export function runShown(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
}

/** Resolves a file of a root devDependency (vite, typescript, marked). */
export function resolveDev(spec) {
  return require.resolve(spec);
}

export function assert(cond, message) {
  if (!cond) throw new Error(message);
}

export function eq(actual, expected, what) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}
