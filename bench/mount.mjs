// Mount benchmark (prints numbers; not a test). In headless Chromium, in one run:
// answers of about 2 KB, 20 KB (150 markers) and 200 KB (1,500 markers) are mounted into
// a fresh element, up to a forced layout (document.body.offsetHeight), by
//   (a) citekit: `mount(el, {answer, data, footnotes: true, panel: true})`, and
//   (b) the baseline: marked + a small citation extension (an inline extension turning
//       [n] into <sup><a> with the source title, counting the references) + innerHTML,
//       drawing the same lists as citekit: footnotes (the cited sources with their
//       counts, links, domains and a back-link to each citation, as GFM footnotes have)
//       and a source list (every source: title link, domain, cited state and count,
//       snippet), all in one HTML string.
// Also (c) both with the lists off: markers only. Each is timed to a forced layout (the
// issue's measure) and to the end of the first frame (plus the next frame's rendering
// work, not the wait for it: with content-visibility, layout skipped before the frame is
// done in it).
// A big case, ~5 MB with ~66,000 markers (short sentences), is timed the same way with
// fewer runs (--big-runs, default 3 after 1 warm-up); its diagnostics are printed (a limit
// reached would show there by name).
// Median of 15 runs after 3 warm-ups, all interleaved; then where citekit's time goes:
// parse (`parse()`), render (`renderToString()` minus parse) and DOM (the rest:
// innerHTML, listeners, style and layout), and the same HTML put in with one innerHTML
// (`renderToString` + innerHTML + layout: the markup's own cost, without listeners).
//
// Needs the built package in pkg/ (`npm run build`) and marked in node_modules.
// Usage: node bench/mount.mjs [--runs 15] [--warmup 3] [--big-runs 3] [--only big|small] [--pkg pkg]
//        (or `npm run bench:mount`)
//   --only   big: only the ~5 MB case; small: every case but it
//   --pkg  the package directory to measure, relative to the repository (default pkg)
//   --extra-css CSS  appended to citekit's stylesheet before measuring (to try a rule,
//                    e.g. '.cite-block{content-visibility:auto;contain-intrinsic-size:auto 80px}')
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeData } from './data.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const arg = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const RUNS = arg('--runs', 15);
const WARMUP = arg('--warmup', 3);
const BIG_RUNS = arg('--big-runs', 3);
const ONLY = (() => {
  const i = args.indexOf('--only');
  return i >= 0 ? args[i + 1] : '';
})();
const EXTRA_CSS = (() => {
  const i = args.indexOf('--extra-css');
  return i >= 0 ? args[i + 1] : '';
})();
const PKG = (() => {
  const i = args.indexOf('--pkg');
  return i >= 0 ? args[i + 1].replace(/^\/+|\/+$/g, '') : 'pkg';
})();

for (const need of [`${PKG}/index.js`, 'node_modules/marked/lib/marked.esm.js']) {
  if (!fs.existsSync(path.join(root, need))) {
    console.error(`bench/mount: ${need} is missing (run \`npm run build\` and \`npm install\`)`);
    process.exit(2);
  }
}

// A deterministic answer: paragraphs, a heading and a list now and then, some
// emphasis and inline code, one marker per sentence (two every fifth), `sources`
// sources. About 133 bytes per marker.
function makeAnswer(markers, sources, sentenceWords = [25, 8]) {
  const words = (
    'the model grounds each claim in retrieved sources so that readers can check every ' +
    'statement quickly and trust what the assistant wrote about latency recall and cost'
  ).split(' ');
  let seed = markers * 7919 + sources;
  const [minWords, moreWords] = sentenceWords;
  const rnd = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    // The high bits: an LCG modulo a power of two has short cycles in its low bits
    // (with `seed % n` every marker of the 2 KB answer cited source 1).
    return Math.floor(seed / 65536) % n;
  };
  let n = 0;
  let out = '';
  const sentence = () => {
    const len = minWords + rnd(moreWords);
    const w = [];
    for (let i = 0; i < len; i++) w.push(words[rnd(words.length)]);
    if (rnd(4) === 0) w[3] = `**${w[3]}**`;
    if (rnd(6) === 0) w[6] = `\`${w[6]}\``;
    let s = w.join(' ');
    s = s.charAt(0).toUpperCase() + s.slice(1);
    n++;
    const first = 1 + rnd(sources);
    let m = ` [${first}]`;
    if (n % 5 === 0 && n < markers) {
      n++;
      // A different source: a group never names one twice.
      m += `[${1 + ((first + rnd(sources - 1)) % sources)}]`;
    }
    return `${s}${m}.`;
  };
  let k = 0;
  while (n < markers) {
    if (k % 8 === 0) out += `## Part ${k / 8 + 1}\n\n`;
    if (k % 8 === 4) {
      out += `- ${sentence()}\n- ${sentence()}\n\n`;
    } else {
      out += `${sentence()} ${sentence()} ${sentence()}\n\n`;
    }
    k++;
  }
  return { text: out, markers: n };
}

const CASES = [
  { name: '~2 KB', ...makeAnswer(15, 8), data: makeData(8) },
  { name: '~20 KB', ...makeAnswer(150, 30), data: makeData(30) },
  { name: '~200 KB', ...makeAnswer(1500, 100), data: makeData(100) },
  // Short sentences: about 79 bytes per marker, a long answer dense with citations.
  { name: '~5 MB', ...makeAnswer(66000, 300, [14, 4]), data: makeData(300), big: true },
].filter((c) => (ONLY === 'big' ? c.big : ONLY === 'small' ? !c.big : true));

const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>mount bench</title></head><body><div id="host"></div><script type="module">
import { init, mount, parse, renderToString } from '/${PKG}/index.js';
import { Marked } from '/node_modules/marked/lib/marked.esm.js';
const CASES = ${JSON.stringify(CASES)};

// The baseline: marked with an inline extension for [n] markers; counts records the
// references per source (in first-cited order) for the lists.
let current = {};
let counts = new Map();
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const md = new Marked({ extensions: [{
  name: 'cite', level: 'inline',
  start(src) { const i = src.indexOf('['); return i < 0 ? undefined : i; },
  tokenizer(src) { const m = /^\\[(\\d+)\\]/.exec(src); if (m) return { type: 'cite', raw: m[0], n: m[1] }; },
  renderer(t) {
    const s = current[t.n];
    if (!s) return esc(t.raw);
    const k = (counts.get(t.n) || 0) + 1;
    counts.set(t.n, k);
    return '<sup class="cite"><a id="ref-' + t.n + '-' + k + '" href="' + esc(s.source) + '" title="' + esc(s.title) + '">' + t.n + '</a></sup>';
  },
}] });

// citekit's mount writes the DOM before it returns; this only checks that the answer
// and its footnotes section are there (and would wait, without a timer, for a mount that
// finished in microtasks). Past the first screenful of a long answer (blocks after 6,000
// bytes, the footnote entries below it, panel entries after the eighth), mount leaves
// the rest to a task after it; allParts inserts that at once (any event on the answer
// does), to time the whole of it too.
async function settled(el, wantNotes) {
  for (let i = 0; i < 1000; i++) {
    const body = el.querySelector('.cite-answer__body');
    if (body && body.firstElementChild && (!wantNotes || el.querySelector('.cite-footnotes'))) return 'microtasks';
    await Promise.resolve();
  }
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 0));
    if (el.querySelector('.cite-answer__body')?.firstElementChild) return 'timers';
  }
  throw new Error('citekit did not render');
}

async function citekitOnce(c, notes = true, allParts = false) {
  const el = document.createElement('div');
  document.getElementById('host').appendChild(el);
  const t0 = performance.now();
  const view = mount(el, { answer: c.text, data: c.data, footnotes: notes, panel: notes });
  const how = await settled(el, notes);
  if (allParts) el.dispatchEvent(new FocusEvent('focusin'));
  void document.body.offsetHeight;
  const ms = performance.now() - t0;
  const frame = ms + (await frameWork());
  el.dispatchEvent(new FocusEvent('focusin'));
  const markers = el.querySelectorAll('.cite-answer__body .cite-marker__link').length;
  view.destroy();
  view.free();
  el.remove();
  return { ms, frame, markers, how };
}

// The footnotes and source list a careful baseline draws under the answer, with what
// citekit's show: a back-reference to each citation of the source (as GFM footnotes
// draw one per reference: remark-gfm, markdown-it-footnote) and the source's domain.
const domain = (url) => { try { return new URL(url).hostname; } catch { return ''; } };
function listsHtml(data) {
  let notes = '<h2>References</h2><ol class="footnotes">';
  for (const [n, k] of counts) {
    const s = data[n];
    notes += '<li id="fn-' + n + '" value="' + n + '">';
    for (let i = 1; i <= k; i++) notes += '<a href="#ref-' + n + '-' + i + '" aria-label="Back to citation ' + i + '">↩</a>';
    notes += ' <a href="' + esc(s.source) + '">' + esc(s.title) + '</a> <span class="domain">' + esc(domain(s.source)) + '</span> (' + k + ')</li>';
  }
  notes += '</ol><h2>Sources</h2><ul class="sources">';
  for (const [n, s] of Object.entries(data)) {
    const k = counts.get(n) || 0;
    notes += '<li' + (k ? ' class="cited"' : '') + '><span>' + n + '</span> <a href="' + esc(s.source) + '">' + esc(s.title) + '</a> <span class="domain">' + esc(domain(s.source)) + '</span> <span class="count">' + (k ? 'cited ' + k + 'x' : 'not cited') + '</span><p>' + esc(s.text) + '</p></li>';
  }
  return notes + '</ul>';
}

async function baselineOnce(c, lists = true) {
  const el = document.createElement('div');
  document.getElementById('host').appendChild(el);
  const t0 = performance.now();
  current = c.data;
  counts = new Map();
  const answer = md.parse(c.text);
  el.innerHTML = lists ? answer + listsHtml(c.data) : answer;
  void document.body.offsetHeight;
  const ms = performance.now() - t0;
  const frame = ms + (await frameWork());
  const markers = el.querySelectorAll('sup.cite a').length;
  el.remove();
  return { ms, frame, markers };
}

// The rendering work of the next frame (style, layout and paint the forced layout did
// not do, e.g. of blocks under content-visibility:auto that turn out to be on screen):
// from the start of the frame's requestAnimationFrame callbacks to a message posted
// there, which runs after the frame is rendered. The wait for the frame itself is not
// counted.
function frameWork() {
  return new Promise((resolve) => requestAnimationFrame(() => {
    const t = performance.now();
    const ch = new MessageChannel();
    ch.port1.onmessage = () => resolve(performance.now() - t);
    ch.port2.postMessage(0);
  }));
}

function staticOnce(c) {
  const el = document.createElement('div');
  document.getElementById('host').appendChild(el);
  const t0 = performance.now();
  el.innerHTML = renderToString(c.text, c.data, { panel: true });
  void document.body.offsetHeight;
  const ms = performance.now() - t0;
  el.remove();
  return ms;
}

function timeOnly(f) {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
}

// Diagnostic codes with their counts and the first message of each (a limit reached
// names itself in its message).
function diagnosticCodes(parsed) {
  const out = {};
  for (const d of parsed.diagnostics) {
    out[d.code] ??= { count: 0, first: d.message };
    out[d.code].count++;
  }
  return out;
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

window.bench = async (smallRuns, smallWarmup, extraCss, bigRuns) => {
  await init();
  // The stylesheet is in the page for both (mount adds it once).
  mount(document.createElement('div'), { answer: '' }).destroy();
  if (extraCss) document.getElementById('citekit-css').textContent += extraCss;
  const out = [];
  for (const c of CASES) {
    const runs = c.big ? bigRuns : smallRuns;
    const warmup = c.big ? Math.min(1, smallWarmup) : smallWarmup;
    for (let i = 0; i < warmup; i++) { await citekitOnce(c); await baselineOnce(c); }
    const ck = [], bl = [], ckFrame = [], blFrame = [], parseMs = [], renderMs = [], markedMs = [], staticMs = [];
    const bare = [], bareFrame = [], bareBl = [], bareBlFrame = [], all = [];
    let markers = {}, how = '';
    for (let i = 0; i < runs; i++) {
      const a = await citekitOnce(c);
      const b = await baselineOnce(c);
      const d = await citekitOnce(c, false);
      const e = await baselineOnce(c, false);
      all.push((await citekitOnce(c, true, true)).ms);
      ck.push(a.ms); bl.push(b.ms); how = a.how;
      ckFrame.push(a.frame); blFrame.push(b.frame);
      bare.push(d.ms); bareFrame.push(d.frame);
      bareBl.push(e.ms); bareBlFrame.push(e.frame);
      markers = { citekit: a.markers, baseline: b.markers };
    }
    for (let i = 0; i < runs; i++) {
      parseMs.push(timeOnly(() => parse(c.text, c.data)));
      renderMs.push(timeOnly(() => renderToString(c.text, c.data, { panel: true })));
      current = c.data;
      markedMs.push(timeOnly(() => md.parse(c.text)));
      staticMs.push(staticOnce(c));
    }
    out.push({
      big: !!c.big,
      name: c.name, bytes: c.text.length, markerCount: c.markers, markers, how,
      citekit: median(ck), baseline: median(bl),
      citekitFrame: median(ckFrame), baselineFrame: median(blFrame),
      bare: median(bare), bareFrame: median(bareFrame), all: median(all),
      bareBaseline: median(bareBl), bareBaselineFrame: median(bareBlFrame),
      parse: median(parseMs), renderToString: median(renderMs), marked: median(markedMs),
      static: median(staticMs),
      diagnostics: c.big ? diagnosticCodes(parse(c.text, c.data)) : null,
    });
  }
  return out;
};
window.benchReady = true;
</script></body></html>`;

const types = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json' };
const server = http.createServer((req, res) => {
  const url = decodeURIComponent(req.url.split('?')[0]);
  if (url === '/' || url === '/index.html') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page);
    return;
  }
  const file = path.join(root, url);
  if (!file.startsWith(root + path.sep)) {
    res.writeHead(403);
    res.end();
    return;
  }
  fs.readFile(file, (e, d) => {
    if (e) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' });
    res.end(d);
  });
}).listen(0, '127.0.0.1');
await new Promise((r) => server.on('listening', r));
const base = `http://127.0.0.1:${server.address().port}/`;
const userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'citekit-bench-'));
// A fresh profile directory (launchPersistentContext is playwright's way to pass it).
const context = await chromium.launchPersistentContext(userDir, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1200, height: 900 },
  args: [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--no-first-run',
  ],
});
let worst = 0;
try {
  const p = await context.newPage();
  p.on('pageerror', (e) => console.error('page error:', e));
  await p.goto(base);
  await p.waitForFunction(() => window.benchReady === true);
  const rows = await p.evaluate(([runs, warmup, css, big]) => window.bench(runs, warmup, css, big), [RUNS, WARMUP, EXTRA_CSS, BIG_RUNS]);
  const f = (x, w = 9) => x.toFixed(2).padStart(w);
  console.log(`mount benchmark: median of ${RUNS} after ${WARMUP} warm-ups (the ~5 MB case: ${BIG_RUNS} after 1), fresh element each run`);
  if (EXTRA_CSS) console.log(`extra CSS: ${EXTRA_CSS}`);
  console.log('citekit: mount() with footnotes and the panel; marked: marked + [n] extension + innerHTML with');
  console.log('the same footnotes and source list. "no lists": both with markers only.');
  let worstFrame = 0, worstBare = 0, worstBareFrame = 0;
  const table = (title, pick) => {
    console.log(`\n${title} (ms)`);
    console.log('size       bytes  markers     citekit    marked   ratio  | no lists: citekit    marked   ratio');
    for (const r of rows) {
      const [ck, bl, bare, bareBl] = pick(r);
      console.log(
        `${r.name.padEnd(8)} ${String(r.bytes).padStart(7)} ${String(r.markerCount).padStart(8)}  ${f(ck, 10)} ${f(bl)} ${(ck / bl).toFixed(2).padStart(7)}  | ${f(bare, 17)} ${f(bareBl)} ${(bare / bareBl).toFixed(2).padStart(7)}`,
      );
    }
  };
  table('to a forced layout (document.body.offsetHeight)', (r) => [r.citekit, r.baseline, r.bare, r.bareBaseline]);
  table("to the end of the first frame (the forced layout plus the next frame's rendering work, not the wait for it)",
    (r) => [r.citekitFrame, r.baselineFrame, r.bareFrame, r.bareBaselineFrame]);
  console.log('\neverything in at once (the parts past the first screenful inserted before the forced layout) (ms)');
  console.log('size       bytes  markers     citekit    marked   ratio');
  for (const r of rows) {
    console.log(`${r.name.padEnd(8)} ${String(r.bytes).padStart(7)} ${String(r.markerCount).padStart(8)}  ${f(r.all, 10)} ${f(r.baseline)} ${(r.all / r.baseline).toFixed(2).padStart(7)}`);
  }
  const targets = [];
  for (const r of rows) {
    worst = Math.max(worst, r.citekit / r.baseline);
    worstBare = Math.max(worstBare, r.bare / r.bareBaseline);
    worstFrame = Math.max(worstFrame, r.citekitFrame / r.baselineFrame);
    worstBareFrame = Math.max(worstBareFrame, r.bareFrame / r.bareBaselineFrame);
    if (!r.big) {
      const target = r.bytes < 10000 ? 1.0 : 0.7;
      targets.push(`${r.name} ${(r.citekit / r.baseline).toFixed(2)} (target <= ${target.toFixed(1)}${r.citekit / r.baseline <= target ? ', met' : ', NOT met'})`);
    }
    if (r.markers.citekit !== r.markerCount || r.markers.baseline !== r.markerCount) {
      console.log(`${r.name}: markers rendered: citekit ${r.markers.citekit}, baseline ${r.markers.baseline}`);
    }
  }
  console.log('\nwhere the time goes (medians, ms):');
  console.log('size      citekit: parse  render  DOM+layout  | marked: parse  DOM+layout  | citekit HTML, one innerHTML');
  for (const r of rows) {
    const render = Math.max(0, r.renderToString - r.parse);
    const dom = Math.max(0, r.citekit - r.renderToString);
    console.log(
      `${r.name.padEnd(8)} ${f(r.parse, 15)} ${f(render, 7)} ${f(dom, 11)}  | ${f(r.marked, 13)} ${f(Math.max(0, r.baseline - r.marked), 11)}  | ${f(r.static, 13)}`,
    );
  }
  for (const r of rows) {
    if (r.diagnostics) {
      const d = Object.entries(r.diagnostics).map(([code, x]) => `${code} x${x.count} (${x.first})`);
      console.log(`\n${r.name} diagnostics: ${d.length ? d.join('; ') : 'none (no limit reached)'}`);
      console.log(`${r.name} mount to a forced layout: ${r.citekit.toFixed(0)} ms (target < 2000 ms)`);
    }
  }
  console.log(`\nratios to a forced layout, lists on: ${targets.join('; ')}`);
  console.log(`worst ratio citekit/baseline: forced layout ${worst.toFixed(2)} (no lists ${worstBare.toFixed(2)}); first frame ${worstFrame.toFixed(2)} (no lists ${worstBareFrame.toFixed(2)})`);
} finally {
  await context.close();
  server.close();
  fs.rmSync(userDir, { recursive: true, force: true });
}
