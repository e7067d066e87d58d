// End-to-end tests of the built demo page (dist/) in headless Chromium.
//
//   node tests/e2e/demo.mjs [DIST]
//
// Build the page first (scripts/demo.sh --build-only). Serves DIST (default dist/) on
// 127.0.0.1 (a free port), runs each check as a named test case (ok / FAIL), writes
// screenshots to artifacts/screenshots/ (SCREENSHOTS overrides) and ends with
// `N passed, N failed`; exits 1 when a case fails.
// CHROMIUM overrides the browser (default /usr/bin/chromium).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.join(here, '..', '..');
const dist = path.resolve(process.argv[2] || path.join(repo, 'dist'));
const shots = path.resolve(process.env.SCREENSHOTS || path.join(repo, 'artifacts', 'screenshots'));
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

if (!fs.existsSync(path.join(dist, 'index.html'))) {
  console.error(`demo e2e: ${dist}/index.html is missing: build it first (scripts/demo.sh --build-only)`);
  process.exit(1);
}
let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch {
  console.error('demo e2e: playwright-core is not installed: run npm install (scripts/setup.sh)');
  process.exit(1);
}
if (!fs.existsSync(chromiumPath)) {
  console.error(`demo e2e: no Chromium at ${chromiumPath} (set CHROMIUM, or run scripts/setup.sh)`);
  process.exit(1);
}
fs.mkdirSync(shots, { recursive: true });

// ---------------------------------------------------------------- harness

let passed = 0;
let failed = 0;
async function test(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok   ${name}`);
  } catch (e) {
    failed++;
    const msg = String((e && e.message) || e).split('\n').slice(0, 6).join('\n     ');
    console.log(`FAIL ${name}\n     ${msg}`);
  }
}
function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}
function eq(actual, expected, what) {
  assert(actual === expected, `${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

// ---------------------------------------------------------------- setup

const { server, url } = await serve(dist, 0);
const userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'citekit-e2e-'));
const context = await chromium.launchPersistentContext(userDir, {
  executablePath: chromiumPath,
  headless: true,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
  viewport: { width: 1280, height: 900 },
  colorScheme: 'light',
  reducedMotion: 'reduce',
});
context.setDefaultTimeout(10_000);

const problems = []; // console errors, page errors, failed requests: for the whole run
const page = context.pages()[0] || (await context.newPage());
page.on('console', (m) => {
  if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
});
page.on('pageerror', (e) => problems.push(`page error: ${e}`));
page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
page.on('response', (r) => {
  if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
});

const gallery = '#gallery';
const markerIn = (scope) => `${scope} .cite-marker__link`;
const openCard = '.cite-card[data-state="open"]:not([hidden])';

async function load() {
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector(markerIn(gallery));
}
/** Waits until pending effects and a frame have run. */
async function settle() {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0)))));
}
async function setOption(id, value) {
  await page.selectOption(id, value);
}
async function bodyText(scope) {
  return page.$eval(`${scope} .cite-answer__body`, (el) => el.textContent || '');
}
/** Moves the mouse off every marker and card, and waits for any card to close. */
async function closeCards() {
  await page.mouse.move(2, 2);
  await page.keyboard.press('Escape');
  await page.waitForFunction((sel) => !document.querySelector(sel), openCard);
}
/** Gallery panel entries and footnotes whose title is not the one their marker's name
 * gives (a list left from the previous data): '' when all agree. */
async function staleEntries() {
  return page.$$eval(markerIn(gallery), (els) => els.flatMap((a) => {
    const m = /^Source (\d+): (.*)$/.exec(a.getAttribute('aria-label') || '');
    if (!m) return [];
    const root = a.closest('.cite-root');
    const entry = root?.querySelector(`.cite-source[data-source="${m[1]}"] .cite-source__title`);
    const note = root?.querySelector(`.cite-footnote[id$="-fn-${m[1]}"]`);
    const bad = [];
    if (entry && entry.textContent !== m[2]) bad.push(`panel ${m[1]}: "${entry.textContent}", marker: "${m[2]}"`);
    if (note && !note.textContent.includes(m[2])) bad.push(`footnote ${m[1]}: "${note.textContent.slice(0, 60)}", marker: "${m[2]}"`);
    return bad;
  }).join('; '));
}

async function shot(name, opts = {}) {
  const file = path.join(shots, `${name}.png`);
  await page.screenshot({ path: file, ...opts });
  return file;
}
/** Mean of the RGB channels of a CSS colour (0 black .. 255 white). */
function lightness(css) {
  const m = css.match(/\d+(\.\d+)?/g) || ['0', '0', '0'];
  return m.slice(0, 3).map(Number).reduce((a, b) => a + b, 0) / 3;
}

/** Horizontal overflow of the page, in CSS pixels (0 when nothing sticks out). */
async function overflowX() {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}
/** Elements wider than the viewport or sticking out on the right (for messages). */
async function wideElements() {
  return page.evaluate(() => {
    const w = window.innerWidth;
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > w + 1) {
        // Skip elements inside a scrolling ancestor (pre, code blocks, tables).
        let p = el.parentElement;
        let clipped = false;
        while (p && p !== document.body) {
          const s = getComputedStyle(p);
          if (/(auto|scroll|hidden)/.test(s.overflowX)) {
            clipped = true;
            break;
          }
          p = p.parentElement;
        }
        if (!clipped) out.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} right=${Math.round(r.right)}`);
      }
    }
    return out.slice(0, 8);
  });
}

// ---------------------------------------------------------------- tests

await test('loads without console errors, page errors or failed requests', async () => {
  await load();
  // Let the first effects and idle work run.
  await page.waitForTimeout(300);
  eq(await page.title(), 'citekit: citations for LLM answers', 'title');
  assert(problems.length === 0, problems.join('\n'));
});

await test('the page has its sections, and the options bar its controls', async () => {
  for (const id of ['#gallery', '#playground', '#streaming', '#usage', '#opt-numbering', '#opt-markers', '#opt-uncited', '#opt-theme', '#opt-citations', '#opt-panel']) {
    assert(await page.$(id), `missing ${id}`);
  }
  eq(await page.getAttribute('html', 'data-theme'), 'auto', 'html data-theme (theme System)');
  eq(await page.inputValue('#opt-theme'), 'auto', 'theme option');
});

await test('element ids are unique', async () => {
  const dups = await page.evaluate(() => {
    const seen = new Map();
    for (const el of document.querySelectorAll('[id]')) seen.set(el.id, (seen.get(el.id) || 0) + 1);
    return [...seen].filter(([, n]) => n > 1).map(([id, n]) => `${id} x${n}`);
  });
  assert(dups.length === 0, `duplicate ids: ${dups.slice(0, 8).join(', ')}${dups.length > 8 ? ', ...' : ''}`);
});

await test('the gallery, playground and streaming renderings are independent', async () => {
  const play0 = await bodyText('#playground');
  const stream0 = await bodyText('#stream-render');
  await page.click(`${gallery} .demo-tab >> nth=1`);
  await page.waitForSelector(`${gallery} .demo-tab[aria-selected="true"] >> nth=0`);
  await settle();
  const play1 = await bodyText('#playground');
  const stream1 = await bodyText('#stream-render');
  await page.click(`${gallery} .demo-tab >> nth=0`);
  await settle();
  eq(play1, play0, 'playground text after switching the gallery tab');
  eq(stream1, stream0, 'streaming text after switching the gallery tab');
});

const tabs = await page.$$eval(`${gallery} .demo-tab`, (els) => els.map((e) => ({ id: e.id, label: e.textContent.trim() })));

await test(`the gallery has a tab per example (${tabs.length})`, async () => {
  assert(tabs.length >= 12, `only ${tabs.length} tabs`);
  eq(await page.getAttribute(`${gallery} .demo-tab >> nth=0`, 'aria-selected'), 'true', 'first tab selected');
});

for (const [i, tab] of tabs.entries()) {
  await test(`gallery tab "${tab.label}" renders markers and no error diagnostic`, async () => {
    await page.click(`#${tab.id}`);
    await page.waitForSelector(`#${tab.id}[aria-selected="true"]`);
    await settle();
    const n = await page.$$eval(markerIn(gallery), (els) => els.length);
    if (n === 0) {
      const text = (await bodyText(gallery)).trim();
      throw new Error(`no markers; rendered text: ${JSON.stringify(text.slice(0, 100))}`);
    }
    eq(await page.textContent('#gallery-errors'), '0', 'error-level diagnostics (#gallery-errors)');
    assert(!(await page.$(`${gallery} .cite-marker--pending`)), 'a pending marker in a complete example');
    // Markers link somewhere and have an accessible name.
    const bad = await page.$$eval(markerIn(gallery), (els) =>
      els.filter((a) => !a.getAttribute('href') || !(a.getAttribute('aria-label') || a.textContent.trim())).length,
    );
    eq(bad, 0, 'markers without href or name');
    eq(await staleEntries(), '', 'panel entries that do not show their marker\'s source');
    // The raw input view and back.
    await page.click('.demo-toggle');
    await page.waitForSelector('.demo-raw pre');
    eq(await page.getAttribute('.demo-toggle', 'aria-pressed'), 'true', 'toggle aria-pressed');
    const raw = await page.textContent('.demo-raw');
    assert(raw.trim().length > 20, 'raw view is empty');
    assert(!(await page.$(markerIn(gallery))), 'markers still shown in the raw view');
    await page.click('.demo-toggle');
    await page.waitForSelector(markerIn(gallery));
    eq(await page.$$eval(markerIn(gallery), (els) => els.length), n, 'markers after toggling back');
  });
}

await test('data with the same source ids (citation_map, then scintilla) redraws the panel and the footnotes', async () => {
  const byLabel = (l) => tabs.find((t) => t.label === l);
  await page.click(`#${byLabel('citation_map').id}`);
  await page.waitForSelector(`#${byLabel('citation_map').id}[aria-selected="true"]`);
  await settle();
  const before = await page.$$eval(`${gallery} .cite-source__title`, (els) => els.map((e) => e.textContent));
  await page.click(`#${byLabel('scintilla').id}`);
  await page.waitForSelector(`#${byLabel('scintilla').id}[aria-selected="true"]`);
  await settle();
  const after = await page.$$eval(`${gallery} .cite-source__title`, (els) => els.map((e) => e.textContent));
  assert(JSON.stringify(after) !== JSON.stringify(before), `the panel still shows ${JSON.stringify(before)}`);
  eq(await staleEntries(), '', 'panel entries and footnotes that do not show their marker\'s source');
  await page.click(`#${tabs[0].id}`);
  await settle();
});

await test('the gallery tabs are ARIA tabs: one in the Tab order, arrows, Home and End move the selection and the focus', async () => {
  await page.focus(`#${tabs[0].id}`);
  const state = () => page.evaluate(() => {
    const all = [...document.querySelectorAll('#gallery .demo-tab')];
    return {
      selected: all.findIndex((t) => t.getAttribute('aria-selected') === 'true'),
      focused: all.indexOf(document.activeElement),
      tabbable: all.filter((t) => t.tabIndex === 0).length,
      controls: all.every((t) => t.getAttribute('aria-controls') === 'gallery-panel') && !!document.getElementById('gallery-panel'),
    };
  });
  await page.keyboard.press('ArrowRight');
  await settle();
  const right = await state();
  await page.keyboard.press('End');
  await settle();
  const end = await state();
  await page.keyboard.press('ArrowRight');
  await settle();
  const wrapped = await state();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Home');
  await settle();
  const home = await state();
  eq(JSON.stringify([right, end, wrapped, home]), JSON.stringify([
    { selected: 1, focused: 1, tabbable: 1, controls: true },
    { selected: tabs.length - 1, focused: tabs.length - 1, tabbable: 1, controls: true },
    { selected: 0, focused: 0, tabbable: 1, controls: true },
    { selected: 0, focused: 0, tabbable: 1, controls: true },
  ]), 'after ArrowRight, End, ArrowRight, ArrowLeft + Home');
  await page.evaluate(() => document.activeElement?.blur());
});

await test('a card opened by focus follows its marker when the keyboard scrolls the page, and closes once the marker is off screen', async () => {
  await page.focus(`${markerIn(gallery)} >> nth=0`);
  await page.waitForSelector(`${gallery} ${openCard}`);
  const gap = () => page.evaluate((sel) => {
    const m = document.activeElement.getBoundingClientRect();
    const c = document.querySelector(sel)?.getBoundingClientRect();
    return c ? Math.round(Math.min(Math.abs(c.top - m.bottom), Math.abs(m.top - c.bottom))) : null;
  }, `${gallery} ${openCard}`);
  const before = await gap();
  await page.keyboard.press('ArrowDown');
  await page.waitForTimeout(400);
  const after = await gap();
  assert(after !== null && Math.abs(after - before) <= 2, `the card is ${after}px from its marker after a small scroll (was ${before}px)`);
  await page.keyboard.press('End');
  await page.waitForFunction((sel) => !document.querySelector(sel), `${gallery} ${openCard}`, { timeout: 3000 });
  await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
});

await test('a footnote back-link scrolls its marker into view below the sticky options bar, not under it', async () => {
  await page.evaluate(() => window.scrollTo(0, 0));
  const back = page.locator(`${gallery} .cite-footnote__back`).first();
  const href = await back.getAttribute('href');
  await back.click();
  await settle();
  await page.waitForTimeout(600);
  const hit = await page.evaluate((id) => {
    const m = document.getElementById(id);
    const r = m.getBoundingClientRect();
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return { top: Math.round(r.top), onMarker: !!at && (at === m || m.contains(at)) };
  }, href.slice(1));
  assert(hit.onMarker, `the marker at y=${hit.top} is covered (by the options bar?)`);
  await closeCards();
  await page.evaluate(() => window.scrollTo(0, 0));
});

await test('the right-to-left gallery entry: markers and English labels in their order', async () => {
  const rtl = tabs.find((t) => t.label === 'right to left');
  assert(rtl, `no "right to left" tab: ${tabs.map((t) => t.label).join(', ')}`);
  await page.click(`#${rtl.id}`);
  await page.waitForSelector(`${gallery} .demo-render[dir="rtl"] .cite-marker__link`);
  await settle();
  const r = await page.evaluate(() => {
    const root = document.querySelector('#gallery .cite-root');
    const links = [...root.querySelectorAll('.cite-answer__body .cite-marker')]
      .filter((sup) => sup.querySelectorAll('.cite-marker__link').length === 2)
      .map((sup) => [...sup.querySelectorAll('.cite-marker__link')].map((a) => {
        const b = a.getBoundingClientRect();
        return { n: a.textContent, left: b.left, right: b.right };
      }));
    const panel = root.querySelector('.cite-panel').getBoundingClientRect();
    const body = root.querySelector('.cite-answer').getBoundingClientRect();
    const count = [...root.querySelectorAll('.cite-source__count')].find((c) => c.textContent.includes('2'));
    const range = document.createRange();
    const text = count.firstChild;
    const at = (i) => { range.setStart(text, i); range.setEnd(text, i + 1); return range.getBoundingClientRect().left; };
    return {
      groups: links,
      panelLeft: panel.right <= body.left + 1,
      countText: count.textContent,
      countDir: getComputedStyle(count).direction,
      timesAfterWord: at(text.length - 1) > at(0),
    };
  });
  eq(r.groups.length, 2, 'markers with two links');
  for (const g of r.groups) {
    // The first number on the right, the second to its left: two numbers, not `23`.
    assert(g[0].left >= g[1].right - 0.5, `group ${g.map((x) => x.n).join('|')}: ${JSON.stringify(g)}`);
  }
  assert(r.panelLeft, 'the panel is not on the left of the answer');
  eq(r.countText, 'cited 2×', 'count label');
  eq(r.countDir, 'ltr', 'direction of the English count label');
  assert(r.timesAfterWord, '`×` jumped to the left end of `cited 2×`');
  await page.locator(gallery).scrollIntoViewIfNeeded();
  await page.hover(`${markerIn(gallery)} >> nth=1`);
  await page.waitForSelector(`${gallery} ${openCard}`);
  await page.locator(gallery).screenshot({ path: path.join(shots, 'desktop-gallery-rtl.png') });
  await closeCards();
  await page.click(`#${tabs[0].id}`);
  await page.waitForSelector(`${gallery} .demo-render[dir="ltr"] .cite-marker__link`);
});

await test('hovering a marker opens its card with a title; leaving closes it', async () => {
  await page.click(`#${tabs[0].id}`);
  await page.waitForSelector(markerIn(gallery));
  await page.locator(markerIn(gallery)).first().scrollIntoViewIfNeeded();
  await page.hover(`${markerIn(gallery)} >> nth=0`);
  const card = await page.waitForSelector(`${gallery} ${openCard}`);
  const title = (await card.$eval('.cite-card__title', (e) => e.textContent)).trim();
  assert(title.length > 0, 'empty card title');
  const box = await card.boundingBox();
  assert(box && box.width > 100 && box.height > 30, `card box ${JSON.stringify(box)}`);
  const vw = page.viewportSize().width;
  assert(box.x >= 0 && box.x + box.width <= vw, `card outside the viewport: ${JSON.stringify(box)}`);
  await shot('desktop-hover-card');
  await page.mouse.move(2, 2);
  await page.waitForFunction((sel) => !document.querySelector(sel), `${gallery} ${openCard}`);
});

await test('Tab focus on a marker opens its card; Escape closes it and keeps focus', async () => {
  await closeCards();
  await page.focus(`${gallery} .demo-toggle`);
  let onMarker = false;
  for (let i = 0; i < 40 && !onMarker; i++) {
    await page.keyboard.press('Tab');
    onMarker = await page.evaluate(() => !!document.activeElement?.matches('#gallery .cite-marker__link'));
  }
  assert(onMarker, 'Tab never reached a marker');
  const card = await page.waitForSelector(`${gallery} ${openCard}`);
  assert((await card.$eval('.cite-card__title', (e) => e.textContent)).trim(), 'empty card title');
  const describedBy = await page.evaluate(() => document.activeElement.getAttribute('aria-describedby'));
  eq(describedBy, await card.getAttribute('id'), 'aria-describedby of the focused marker');
  await page.keyboard.press('Escape');
  await page.waitForFunction((sel) => !document.querySelector(sel), `${gallery} ${openCard}`);
  assert(
    await page.evaluate(() => !!document.activeElement?.matches('#gallery .cite-marker__link')),
    'focus left the marker after Escape',
  );
});

await test('playground: editing the answer adds a marker and changes the JSON', async () => {
  await closeCards();
  await page.locator('#playground').scrollIntoViewIfNeeded();
  await page.waitForSelector(markerIn('#playground'));
  const n0 = await page.$$eval(markerIn('#playground'), (els) => els.length);
  const json0 = await page.textContent('#play-json');
  assert(json0.includes('"citations"'), 'no normalized JSON');
  await page.click('#play-answer');
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' New claim [2].');
  await page.waitForFunction(
    ({ sel, n0 }) => document.querySelectorAll(sel).length === n0 + 1,
    { sel: markerIn('#playground'), n0 },
  );
  const json1 = await page.textContent('#play-json');
  assert(json1 !== json0, 'JSON did not change');
  assert(json1.includes('New claim'), 'JSON lacks the new text');
  assert((await bodyText('#playground')).includes('New claim'), 'rendering lacks the new text');
});

await test('playground: picking a format changes what it is read as', async () => {
  eq((await page.textContent('#play-detected')).trim(), 'citation_map', 'auto-detected format');
  await setOption('#play-format', 'markdown');
  await page.waitForFunction(() => document.querySelector('#play-detected')?.textContent.trim() === 'markdown');
  await setOption('#play-format', 'auto');
  await page.waitForFunction(() => document.querySelector('#play-detected')?.textContent.trim() === 'citation_map');
});

await test('playground: invalid JSON data shows an error diagnostic and still the answer', async () => {
  const data0 = await page.inputValue('#play-data');
  await page.fill('#play-data', '{"citations": ["https://example.com/a", ');
  await page.waitForSelector('#play-diags .demo-diag--error');
  const msg = await page.textContent('#play-diags .demo-diag--error');
  assert(msg.trim().length > 5, 'empty diagnostic');
  const text = await bodyText('#playground');
  assert(text.includes('New claim'), `answer text missing: ${text.slice(0, 80)}`);
  assert(!(await page.$(markerIn('#playground'))), 'live markers without sources');
  await page.fill('#play-data', data0);
  await page.waitForSelector(markerIn('#playground'));
  assert(!(await page.$('#play-diags .demo-diag--error')), 'error diagnostic stays after fixing the data');
});

await test('streaming: runs to Done and its markers become live', async () => {
  await page.locator('#streaming').scrollIntoViewIfNeeded();
  await page.fill('#stream-speed', '200');
  await page.click('#stream-start');
  await page.waitForFunction(() => document.querySelector('#stream-start')?.disabled);
  // While streaming: text arrives, markers wait for sources.
  await page.waitForFunction(() => (document.querySelector('#stream-render')?.textContent || '').trim().length > 0);
  await page.waitForFunction(() => /Done/.test(document.querySelector('#stream-status')?.textContent || ''), null, {
    timeout: 60_000,
  });
  await page.waitForSelector(markerIn('#stream-render'));
  assert(!(await page.$('#stream-render .cite-marker--pending')), 'pending markers after Done');
  assert(!(await page.isDisabled('#stream-start')), 'Start still disabled');
  const progress = await page.textContent('.demo-progress');
  const m = progress.match(/(\d+) of (\d+)/);
  assert(m && m[1] === m[2], `progress: ${progress}`);
  assert(!/\[\d+\]/.test(await bodyText('#stream-render')), 'a literal [n] in the streamed text');
});

await test('options: grouped and domain markers', async () => {
  await page.locator(gallery).scrollIntoViewIfNeeded();
  const n0 = await page.$$eval(markerIn(gallery), (els) => els.length);
  const text0 = await page.$$eval(markerIn(gallery), (els) => els.map((e) => e.textContent).join('|'));
  await setOption('#opt-markers', 'grouped');
  await page.waitForSelector(`${gallery} .cite-root[data-marker-style="grouped"]`);
  await page.waitForSelector(markerIn(gallery));
  await setOption('#opt-markers', 'domain');
  await page.waitForSelector(`${gallery} .cite-root[data-marker-style="domain"]`);
  await page.waitForFunction(
    ({ sel, text0 }) => [...document.querySelectorAll(sel)].map((e) => e.textContent).join('|') !== text0,
    { sel: markerIn(gallery), text0 },
  );
  const domains = await page.$$eval(markerIn(gallery), (els) => els.map((e) => e.textContent.trim()));
  assert(domains.some((d) => /[a-z]\.[a-z]/i.test(d)), `no domain chips: ${domains.slice(0, 4).join(', ')}`);
  await page.locator(`${gallery} .demo-card`).screenshot({ path: path.join(shots, 'desktop-domain-markers.png') });
  await setOption('#opt-markers', 'number');
  await page.waitForSelector(`${gallery} .cite-root[data-marker-style="number"]`);
  eq(await page.$$eval(markerIn(gallery), (els) => els.length), n0, 'markers back to numbers');
});

await test('options: dark theme on the page and every component root', async () => {
  await setOption('#opt-theme', 'dark');
  await page.waitForSelector('html[data-theme="dark"]');
  const roots = await page.$$eval('.cite-root', (els) => els.map((e) => e.classList.contains('cite-theme-dark')));
  assert(roots.length >= 3, `only ${roots.length} component roots`);
  assert(roots.every(Boolean), `roots without cite-theme-dark: ${roots.filter((r) => !r).length}`);
  assert(
    await page.$eval(`${gallery} .cite-root`, (e) => e.classList.contains('cite-root--with-panel')),
    'the gallery root lost cite-root--with-panel (the panel is no longer beside the answer)',
  );
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert(lightness(bg) < 60, `body background is not dark: ${bg}`);
  await setOption('#opt-theme', 'light');
  await page.waitForSelector('html[data-theme="light"]');
  const light = await page.$$eval('.cite-root', (els) => els.every((e) => !e.classList.contains('cite-theme-dark')));
  assert(light, 'a root stayed dark');
});

await test('options: theme System follows the system colour scheme, page and components', async () => {
  await setOption('#opt-theme', 'auto');
  await page.waitForSelector('html[data-theme="auto"]');
  const colours = () =>
    page.evaluate(() => ({
      page: getComputedStyle(document.body).backgroundColor,
      roots: [...document.querySelectorAll('.cite-root')].map((e) => getComputedStyle(e).color),
    }));
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await colours();
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await colours();
  assert(lightness(dark.page) < 60, `page background on a dark system: ${dark.page}`);
  assert(dark.roots.every((c) => lightness(c) > 180), `component text on a dark system: ${dark.roots.join(', ')}`);
  assert(lightness(light.page) > 200, `page background on a light system: ${light.page}`);
  assert(light.roots.every((c) => lightness(c) < 80), `component text on a light system: ${light.roots.join(', ')}`);
});

await test('options: citations off hides every marker; on brings them back', async () => {
  await page.uncheck('#opt-citations');
  await page.waitForFunction(() => !document.querySelector('#gallery .cite-marker__link, #playground .cite-marker__link'));
  assert((await bodyText(gallery)).trim().length > 20, 'answer text gone with citations off');
  await page.check('#opt-citations');
  await page.waitForSelector(markerIn(gallery));
  await page.waitForSelector(markerIn('#playground'));
});

await test('options: panel beside and below; uncited hidden', async () => {
  await page.uncheck('#opt-panel');
  await page.waitForSelector(`${gallery} .demo-panel-below`);
  const [a, p] = await Promise.all([
    page.locator(`${gallery} .cite-answer`).boundingBox(),
    page.locator(`${gallery} .cite-panel`).boundingBox(),
  ]);
  assert(p.y >= a.y + a.height - 1, 'panel is not below the answer');
  await page.check('#opt-panel');
  await page.waitForFunction(() => !document.querySelector('#gallery .demo-panel-below'));
  await setOption('#opt-uncited', 'hide');
  await page.waitForTimeout(100);
  assert(!(await page.$(`${gallery} .cite-source--uncited:not([hidden])`)), 'uncited source still shown');
  await setOption('#opt-uncited', 'dim');
});

// ---------------------------------------------------------------- usage

/** The "Use it" tabs: each shows a whole file of the repository that a test runs. */
const usageTabs = [
  { tab: '#usage-tab-js', panel: '#usage-js', label: 'JavaScript', file: 'examples/js/mount.html' },
  { tab: '#usage-tab-element', panel: '#usage-element', label: 'Custom element', file: 'examples/js/element.html' },
  { tab: '#usage-tab-react', panel: '#usage-react', label: 'React', file: 'examples/js/react.jsx' },
  { tab: '#usage-tab-leptos', panel: '#usage-leptos', label: 'Leptos', file: 'examples/leptos_usage.rs' },
];

async function showUsage(u) {
  await page.click(u.tab);
  await page.waitForSelector(`${u.panel}:not([hidden])`);
}

await test('Use it: the JavaScript, custom element and Leptos snippets are the files on disk', async () => {
  await page.locator('#usage').scrollIntoViewIfNeeded();
  const labels = await page.$$eval('#usage [role="tab"]', (els) => els.map((e) => e.textContent.trim()));
  eq(JSON.stringify(labels), JSON.stringify(usageTabs.map((u) => u.label)), 'tab labels');
  for (const u of usageTabs) {
    await showUsage(u);
    eq(await page.getAttribute(u.tab, 'aria-selected'), 'true', `${u.label}: aria-selected`);
    eq(await page.getAttribute(u.tab, 'aria-controls'), u.panel.slice(1), `${u.label}: aria-controls`);
    const visible = await page.$$eval('#usage [role="tabpanel"]', (els) =>
      els.filter((e) => e.getBoundingClientRect().height > 0).map((e) => e.id),
    );
    eq(JSON.stringify(visible), JSON.stringify([u.panel.slice(1)]), `${u.label}: visible panels`);
    const note = await page.textContent(`${u.panel} .demo-usage__file`);
    eq(note, u.file, `${u.label}: file name shown`);
    const shown = await page.textContent(`${u.panel} pre code`);
    const disk = fs.readFileSync(path.join(repo, u.file), 'utf8');
    if (shown !== disk) {
      let at = 0;
      while (at < disk.length && disk[at] === shown[at]) at++;
      throw new Error(`${u.label}: the snippet differs from ${u.file} at character ${at}: ${JSON.stringify(shown.slice(at, at + 40))}`);
    }
  }
  await showUsage(usageTabs[0]);
});

// The npm name `citekit` is another project's package: the tabs install and import
// this one by package.json's name, and add the crate with the README's `cargo add` line.
await test("Use it: the tabs install and import the npm package by its name, and add the crate as the README does", async () => {
  const name = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')).name;
  const cargoAdd = /^cargo add .*$/m.exec(fs.readFileSync(path.join(repo, 'README.md'), 'utf8'))?.[0];
  assert(cargoAdd, 'README.md has no `cargo add` line');
  const used = [];
  for (const u of usageTabs.slice(0, 3)) {
    await showUsage(u);
    const text = `${await page.textContent(`${u.panel} .demo-usage__note`)}\n${await page.textContent(`${u.panel} pre code`)}`;
    const specs = [
      ...[...text.matchAll(/(?:\bfrom\s+|\bimport\s+)['"]([^'"]+)['"]/g)].map((m) => m[1]),
      ...[...text.matchAll(/"imports":\s*\{\s*"([^"]+)"/g)].map((m) => m[1]),
      ...[...text.matchAll(/npm install ([\w@/.-]+)/g)].map((m) => m[1]),
    ];
    assert(specs.length > 0, `${u.label}: no import or install line`);
    for (const s of specs) {
      assert(!/^citekit(\/|$)/.test(s), `${u.label}: names ${s}, the npm package of another project`);
    }
    used.push(...specs);
  }
  assert(used.includes(name), `no tab imports or installs ${name}: ${used.join(', ')}`);
  await showUsage(usageTabs[3]);
  const note = await page.textContent(`${usageTabs[3].panel} .demo-usage__note`);
  assert(note.includes(cargoAdd), `Leptos tab: no \`${cargoAdd}\`: ${note}`);
  await showUsage(usageTabs[0]);
});

// ---------------------------------------------------------------- screenshots

async function screenshotsAt(width, height, name) {
  await page.setViewportSize({ width, height });
  for (const theme of ['light', 'dark']) {
    await setOption('#opt-theme', theme);
    await page.waitForSelector(`html[data-theme="${theme}"]`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(150);
    await shot(`${name}-${theme}`);
    await shot(`${name}-${theme}-full`, { fullPage: true });
  }
  await setOption('#opt-theme', 'auto');
}

await test('screenshots: desktop 1280x900, light and dark', async () => {
  await closeCards();
  await page.click(`#${tabs[0].id}`);
  await screenshotsAt(1280, 900, 'desktop');
  await page.locator('#playground').scrollIntoViewIfNeeded();
  await page.evaluate(() => document.querySelector('#playground').scrollIntoView());
  await shot('desktop-playground');
  await page.evaluate(() => document.querySelector('#streaming').scrollIntoView());
  await shot('desktop-streaming');
  await page.locator('#usage').screenshot({ path: path.join(shots, 'desktop-usage.png') });
});

await test('phone 390x844: no horizontal overflow on any gallery tab', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const tab of tabs) {
    await page.click(`#${tab.id}`);
    await page.waitForSelector(`#${tab.id}[aria-selected="true"]`);
    await settle();
    const o = await overflowX();
    assert(o <= 0, `tab ${tab.label}: page is ${o}px wider than the screen: ${(await wideElements()).join(', ')}`);
  }
  await page.click(`#${tabs[0].id}`);
  await page.waitForSelector(markerIn(gallery));
});

await test('phone 390x844: no horizontal overflow on any Use it tab', async () => {
  for (const u of usageTabs) {
    await showUsage(u);
    const o = await overflowX();
    assert(o <= 0, `${u.label}: page is ${o}px wider than the screen: ${(await wideElements()).join(', ')}`);
  }
  await page.locator('#usage').scrollIntoViewIfNeeded();
  await page.locator('#usage').screenshot({ path: path.join(shots, 'phone-usage.png') });
  await showUsage(usageTabs[0]);
});

await test('screenshots: phone 390x844, light and dark, and a tapped card', async () => {
  await screenshotsAt(390, 844, 'phone');
  await page.locator(markerIn(gallery)).first().scrollIntoViewIfNeeded();
  await page.hover(`${markerIn(gallery)} >> nth=0`);
  const card = await page.waitForSelector(`${gallery} ${openCard}`);
  const box = await card.boundingBox();
  assert(box.x >= 0 && box.x + box.width <= 390 + 0.5, `card sticks out of the phone screen: ${JSON.stringify(box)}`);
  await shot('phone-hover-card');
  await closeCards();
  await page.evaluate(() => document.querySelector('#playground').scrollIntoView());
  await shot('phone-playground');
  await page.evaluate(() => document.querySelector('#streaming').scrollIntoView());
  await shot('phone-streaming');
  await page.setViewportSize({ width: 1280, height: 900 });
});

await test('no console errors, page errors or failed requests during the run', async () => {
  assert(problems.length === 0, problems.join('\n'));
});

await context.close();
server.close();
fs.rmSync(userDir, { recursive: true, force: true });
console.log(`screenshots: ${shots}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
