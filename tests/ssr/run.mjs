// The SSR example (examples/ssr) end to end: an axum + leptos_axum app as cargo-leptos's
// start-axum template lays it out. Its server renders a cited answer with Leptos's `ssr`
// renderer, its browser build (feature `hydrate`) hydrates it.
//   1. build: `scripts/ssr-example.sh --build-only` (the server binary, feature ssr; the
//      browser build, wasm32 with feature hydrate, then wasm-bindgen --target web into
//      the site root's pkg/, target/ssr-example/pkg), as `cargo leptos build` does;
//   2. the server, on a free port (LEPTOS_SITE_ADDR=127.0.0.1:0), answers as
//      leptos_axum does: the page, the browser build from /pkg/, the app's 404 page;
//   3. with JavaScript disabled, the page already holds the markers, the footnotes and
//      the source panel (what search engines and readers without JavaScript see);
//   4. with JavaScript, the page hydrates without a hydration error or any console
//      error, keeps the server's nodes, and then works as a client-side app: hover and
//      focus open a card, a marker click selects its source in the panel, and a
//      follow-up answer streams in.
//
// Usage: node tests/ssr/run.mjs [--no-build]
// Ends with `N passed, N failed`; exits non-zero when anything failed.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { ROOT, Tally, assert, eq, launch, runShown } from '../npm/lib.mjs';

const args = new Set(process.argv.slice(2));
const tally = new Tally();
const PKG = join(ROOT, 'target', 'ssr-example', 'pkg');
const SERVER = join(ROOT, 'target', 'debug', 'citekit-ssr-example');

function build() {
  runShown('bash', [join(ROOT, 'scripts', 'ssr-example.sh'), '--build-only'], { cwd: ROOT });
}

/**
 * Starts the example's server on a free port, from the workspace root as cargo-leptos
 * runs it (the site root in its [package.metadata.leptos] is relative to it); resolves
 * to {url, stop}.
 */
function startServer() {
  return new Promise((ok, fail) => {
    const child = spawn(SERVER, [], {
      cwd: ROOT,
      env: { ...process.env, LEPTOS_SITE_ADDR: '127.0.0.1:0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/127\.0\.0\.1:\d+)\//);
      if (m) ok({ url: m[1], stop: () => child.kill() });
    });
    child.on('exit', (code) => fail(new Error(`server exited (${code}) before listening: ${out}`)));
  });
}

async function main() {
  if (!args.has('--no-build')) {
    console.log('\n==> build: server (ssr) and browser build (hydrate)');
    try {
      build();
    } catch (err) {
      tally.fail('build the SSR example', err);
      return;
    }
  }
  for (const f of [SERVER, join(PKG, 'citekit_ssr_example.js')]) {
    if (!existsSync(f)) {
      tally.fail('SSR example built', new Error(`${f} missing`));
      return;
    }
  }
  const server = await startServer();
  const browser = await launch();
  try {
    console.log('\n==> the server (axum, leptos_axum)');
    await tally.test('the page streams from leptos_axum with the app\'s title and hydration script', async () => {
      const res = await fetch(server.url + '/');
      eq(res.status, 200, 'status of /');
      assert(/^text\/html/.test(res.headers.get('content-type') ?? ''), `content-type ${res.headers.get('content-type')}`);
      // leptos_axum sends the rendered page as a stream: no length known up front.
      eq(res.headers.get('transfer-encoding'), 'chunked', 'transfer-encoding');
      eq(res.headers.get('content-length'), null, 'content-length');
      const html = await res.text();
      assert(html.startsWith('<!DOCTYPE html>'), `page starts with ${html.slice(0, 40)}`);
      // leptos_meta's <Title/>, written into the head by <MetaTags/> in the shell.
      assert(/<head>[^]*<title>citekit: server-rendered answer<\/title>[^]*<\/head>/.test(html), 'title in the head');
      assert(html.includes('/pkg/citekit_ssr_example.js'), 'hydration script of the output name');
    });
    await tally.test('the browser build and the 404 page come from leptos_axum\'s file and error handler', async () => {
      const res = await fetch(server.url + '/pkg/citekit_ssr_example_bg.wasm');
      eq(res.status, 200, 'status of the wasm');
      eq(res.headers.get('content-type'), 'application/wasm', 'content-type of the wasm');
      const bytes = new Uint8Array(await res.arrayBuffer());
      eq([...bytes.slice(0, 4)], [0, 0x61, 0x73, 0x6d], 'wasm magic');
      const missing = await fetch(server.url + '/no/such/page');
      eq(missing.status, 404, 'status of an unknown path');
      const html = await missing.text();
      // The app rendered in its shell, with the router's fallback.
      assert(html.startsWith('<!DOCTYPE html>') && html.includes('Page not found.'), `404 page: ${html.slice(0, 200)}`);
    });
    await tally.test('an idle connection does not hold up the page (tokio serves connections at once)', async () => {
      const { port } = new URL(server.url);
      const idle = connect({ host: '127.0.0.1', port: Number(port) });
      await new Promise((ok, fail) => { idle.once('connect', ok); idle.once('error', fail); });
      try {
        const res = await fetch(server.url + '/', { signal: AbortSignal.timeout(5000) });
        eq(res.status, 200, 'status of / while another connection is open and silent');
        await res.text();
      } finally {
        idle.destroy();
      }
    });

    console.log('\n==> without JavaScript');
    {
      // A persistent context cannot turn JavaScript off per page: a browser of its own.
      const { chromium } = await import('playwright-core');
      const plain = await chromium.launch({
        executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
          '--disable-component-update', '--disable-sync', '--no-first-run'],
      });
      try {
        const ctx = await plain.newContext({ javaScriptEnabled: false });
        const p = await ctx.newPage();
        await p.goto(server.url + '/');
        await tally.test('the server page holds the markers (JavaScript off)', async () => {
          const markers = await p.locator('main article .cite-marker').count();
          assert(markers === 5, `expected 5 markers in the first answer, got ${markers}`);
          const first = await p.locator('main article .cite-marker__link').first().textContent();
          assert(/1/.test(first ?? ''), `first marker shows ${first}`);
          const text = await p.locator('main article .cite-answer__body').innerText();
          assert(text.includes('Paris is the capital of France') && !/\[\d\]/.test(text),
            `answer text without raw markers: ${text}`);
        });
        await tally.test('the server page holds the footnotes (JavaScript off)', async () => {
          const items = await p.locator('main article .cite-footnotes li').count();
          eq(items, 4, 'footnote items');
          const first = await p.locator('main article .cite-footnotes li').first().innerText();
          assert(first.includes('Paris - Wikipedia'), `first footnote: ${first}`);
        });
        await tally.test('the server page holds the source panel (JavaScript off)', async () => {
          const sources = await p.locator('aside.cite-panel .cite-source').count();
          eq(sources, 4, 'panel sources');
          const title = await p.locator('aside.cite-panel').innerText();
          assert(title.includes('Eiffel Tower history'), `panel: ${title}`);
        });
        await tally.test('the server page has citekit\'s stylesheet and no hydration yet', async () => {
          eq(await p.locator('style#citekit-css').count(), 1, 'citekit stylesheet');
          eq(await p.locator('main[data-hydrated]').count(), 0, 'hydrated marks without JavaScript');
        });
        await ctx.close();
      } finally {
        await plain.close();
      }
    }

    console.log('\n==> with JavaScript: hydration');
    const page = await browser.context.newPage();
    const messages = [];
    page.on('console', (m) => messages.push(`${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => messages.push(`pageerror: ${e.message}`));
    // Marks one server-rendered node before any script runs: hydration must keep it.
    await page.addInitScript(() => {
      document.addEventListener('readystatechange', () => {
        if (document.readyState === 'interactive') {
          window.__ssrBlock = document.querySelector('main article .cite-block');
          window.__ssrFootnotes = document.querySelector('main article .cite-footnotes');
        }
      });
    });
    await page.goto(server.url + '/');
    await tally.test('the page hydrates', async () => {
      await page.waitForSelector('main[data-hydrated="true"]', { timeout: 15000 });
    });
    await tally.test('hydration keeps the server\'s nodes', async () => {
      const kept = await page.evaluate(() => ({
        block: !!window.__ssrBlock && window.__ssrBlock.isConnected
          && window.__ssrBlock === document.querySelector('main article .cite-block'),
        notes: !!window.__ssrFootnotes && window.__ssrFootnotes.isConnected,
      }));
      eq(kept, { block: true, notes: true }, 'server nodes still in the page');
    });
    await tally.test('hovering a marker opens its card', async () => {
      const link = page.locator('main article .cite-marker__link').first();
      await link.hover();
      const card = page.locator('main article .cite-card');
      await card.waitFor({ state: 'visible', timeout: 3000 });
      const text = await card.innerText();
      assert(text.includes('Paris - Wikipedia'), `card text: ${text}`);
      eq(await link.getAttribute('aria-describedby'), await card.getAttribute('id'), 'aria-describedby names the card');
      await page.mouse.move(5, 5);
      await card.waitFor({ state: 'hidden', timeout: 3000 });
    });
    await tally.test('clicking a marker selects its source in the panel', async () => {
      await page.locator('main article .cite-marker__link').nth(1).click();
      await page.waitForSelector('aside.cite-panel .cite-source.cite-selected', { timeout: 3000 });
      const sel = await page.locator('aside.cite-panel .cite-source.cite-selected').innerText();
      assert(sel.includes('Seine'), `selected source: ${sel}`);
    });
    await tally.test('a follow-up answer streams in after hydration', async () => {
      await page.locator('button.ask').click();
      let sawRaw = false;
      const deadline = Date.now() + 10000;
      for (;;) {
        const state = await page.evaluate(() => {
          const body = document.querySelector('.follow-up .cite-answer__body');
          return { text: body ? body.textContent : '', markers: document.querySelectorAll('.follow-up .cite-marker').length };
        });
        if (/\[\d/.test(state.text)) sawRaw = true;
        if (state.markers === 2 && state.text.includes('World Heritage Site')) break;
        assert(Date.now() < deadline, `streamed answer incomplete: ${JSON.stringify(state)}`);
        await page.waitForTimeout(10);
      }
      assert(!sawRaw, 'raw marker syntax was shown while streaming');
      await page.waitForSelector('.follow-up .cite-footnotes li', { timeout: 3000 });
    });
    await tally.test('no console error and no hydration warning', async () => {
      const bad = messages.filter((m) => /^(error|warning|pageerror)/.test(m) || /hydrat/i.test(m));
      eq(bad, [], 'console messages');
    });
  } finally {
    await browser.close();
    server.stop();
  }
}

try {
  await main();
} catch (err) {
  tally.fail('SSR example', err);
}
console.log(`\n${tally.passed} passed, ${tally.failed} failed`);
process.exit(tally.failed ? 1 : 0);
