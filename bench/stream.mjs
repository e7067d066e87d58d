// Streaming benchmark (prints numbers; not a test). In headless Chromium, one run:
// a ~20 KB markdown answer with 150 citation markers is streamed in 4-character chunks
// into (a) citekit's mounted component (`view.append`) and (b) the baseline most chat
// UIs use today: marked + a small citation extension, re-parsing the whole answer and
// replacing the container's innerHTML on every chunk. A layout is forced after every
// chunk (as a browser would paint). Prints total main-thread time and the median and
// 95th percentile per chunk for both, and the ratio.
//
// Needs the built package in pkg/ (`npm run build`) and marked in node_modules.
// Usage: node bench/stream.mjs [--chunk 4] [--runs 3]
import { chromium } from 'playwright-core';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const arg = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const CHUNK = arg('--chunk', 4);
const RUNS = arg('--runs', 3);

for (const need of ['pkg/index.js', 'node_modules/marked/lib/marked.esm.js']) {
  if (!fs.existsSync(path.join(root, need))) {
    console.error(`bench/stream: ${need} is missing (run \`npm run build\` and \`npm install\`)`);
    process.exit(2);
  }
}

// The answer: realistic markdown (headings, lists, a table, code, emoji, CJK) with
// 150 markers over 20 sources, about 20 KB.
function makeAnswer() {
  const words = 'the model grounds each claim in retrieved sources so that readers can check every statement quickly and trust the answer'.split(' ');
  let n = 0;
  let out = '';
  const sentence = (k) => {
    let s = '';
    for (let i = 0; i < 20; i++) s += words[(k * 7 + i * 3) % words.length] + ' ';
    s = s.trim();
    n++;
    const marker = n % 5 === 0 ? ` [${(n % 20) + 1}][${((n + 7) % 20) + 1}]` : ` [${(n % 20) + 1}]`;
    return s.charAt(0).toUpperCase() + s.slice(1) + marker + '. ';
  };
  let k = 0;
  while (n < 150) {
    const section = Math.floor(k / 6);
    if (k % 6 === 0) out += `## Section ${section + 1}: findings 🚀 and 結果\n\n`;
    if (k % 6 === 3) {
      out += `- ${sentence(k)}\n- ${sentence(k + 1)}\n- ${sentence(k + 2)}\n\n`;
    } else if (k % 12 === 5) {
      out += '| metric | value |\n|---|---|\n| latency | 12 ms |\n| recall | 0.93 |\n\n';
      out += '```js\nconst refs = list[1]; // not a marker\n```\n\n';
    } else {
      out += sentence(k) + sentence(k + 1) + sentence(k + 2) + '\n\n';
    }
    k++;
  }
  return out;
}
const answer = makeAnswer();
const data = {};
for (let i = 1; i <= 20; i++) {
  data[String(i)] = {
    title: `Source ${i}: a report on grounded answers`,
    source: `https://example${i}.com/reports/${i}`,
    text: `Excerpt ${i} of the source that supports the statement, long enough to be a snippet.`,
    score: 0.5 + i / 50,
  };
}

const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json' };
const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>stream bench</title></head>
<body><div id="host"></div><script type="module">
import { init, mount } from '/pkg/index.js';
import { marked } from '/node_modules/marked/lib/marked.esm.js';
const ANSWER = ${JSON.stringify(answer)};
const DATA = ${JSON.stringify(data)};
const CHUNK = ${CHUNK};
// The baseline's citation extension: [n] → <sup><a> with the source title.
marked.use({ extensions: [{
  name: 'cite', level: 'inline',
  start(src) { const i = src.indexOf('['); return i < 0 ? undefined : i; },
  tokenizer(src) { const m = /^\\[(\\d+)\\]/.exec(src); if (m) return { type: 'cite', raw: m[0], n: m[1] }; },
  renderer(t) { const s = DATA[t.n]; const title = s ? s.title.replace(/"/g, '&quot;') : ''; return '<sup><a href="#src-' + t.n + '" title="' + title + '">' + t.n + '</a></sup>'; },
}] });
// Appends update the DOM from effects in microtasks; a macrotask (a MessageChannel
// message, no timer clamping) runs after them. Both sides wait for it, so both are
// measured the same way: the chunk handled, its effects run, the layout done.
const channel = new MessageChannel();
function settle() { return new Promise((r) => { channel.port1.onmessage = () => r(); channel.port2.postMessage(0); }); }
function chunks() { const out = []; for (let i = 0; i < ANSWER.length; i += CHUNK) out.push(ANSWER.slice(i, i + CHUNK)); return out; }
function stats(times) {
  const s = [...times].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { total: times.reduce((a, b) => a + b, 0), median: q(0.5), p95: q(0.95), n: times.length };
}
async function runCitekit() {
  const host = document.getElementById('host');
  host.innerHTML = '';
  const el = document.createElement('div');
  host.appendChild(el);
  const view = mount(el, { answer: '', data: DATA });
  const times = [];
  for (const c of chunks()) {
    const t0 = performance.now();
    view.append(c);
    await settle();
    void document.body.offsetHeight;
    times.push(performance.now() - t0);
  }
  const t0 = performance.now();
  view.finish();
  await settle();
  void document.body.offsetHeight;
  const fin = performance.now() - t0;
  const markers = el.querySelectorAll('.cite-marker__link').length;
  const text = el.querySelector('.cite-answer__body').textContent;
  view.destroy();
  return { ...stats(times), finish: fin, markers, literal: /\[\d+\]/.test(text.replace(/list\[1\]/g, '')) };
}
async function runBaseline() {
  const host = document.getElementById('host');
  host.innerHTML = '';
  const el = document.createElement('div');
  host.appendChild(el);
  let text = '';
  const times = [];
  for (const c of chunks()) {
    const t0 = performance.now();
    text += c;
    el.innerHTML = marked.parse(text);
    await settle();
    void document.body.offsetHeight;
    times.push(performance.now() - t0);
  }
  const markers = el.querySelectorAll('sup a').length;
  return { ...stats(times), finish: 0, markers };
}
window.bench = async (runs) => {
  await init();
  // Warm-up of both (JIT, wasm tier-up).
  await runCitekit(); await runBaseline();
  const c = [], b = [];
  for (let i = 0; i < runs; i++) { c.push(await runCitekit()); b.push(await runBaseline()); }
  return { citekit: c, baseline: b, bytes: ANSWER.length, chunks: chunks().length };
};
window.profileOnce = async () => { await runCitekit(); };
window.initReady = () => init();
window.benchReady = true;
</script></body></html>`;

const server = http.createServer((req, res) => {
  const url = decodeURIComponent(req.url.split('?')[0]);
  if (url === '/' || url === '/index.html') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(page);
    return;
  }
  const file = path.join(root, url);
  if (!file.startsWith(root)) { res.writeHead(403); res.end(); return; }
  fs.readFile(file, (e, d) => {
    if (e) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' });
    res.end(d);
  });
}).listen(0, '127.0.0.1');
await new Promise((r) => server.on('listening', r));
const base = `http://127.0.0.1:${server.address().port}/`;
const userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'citekit-bench-'));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const p = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  p.on('pageerror', (e) => console.error('page error:', e));
  await p.goto(base);
  await p.waitForFunction(() => window.benchReady === true);
  if (args.includes('--profile')) {
    // Where citekit's time goes: a CPU profile of one streamed run, by self time.
    await p.evaluate(() => window.initReady());
    const cdp = await p.context().newCDPSession(p);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    await p.evaluate(() => window.profileOnce());
    const { profile } = await cdp.send('Profiler.stop');
    const self = new Map();
    const dt = (profile.endTime - profile.startTime) / Math.max(1, profile.samples.length) / 1000;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    for (const id of profile.samples) {
      const n = byId.get(id);
      const name = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}`;
      self.set(name, (self.get(name) || 0) + dt);
    }
    const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30);
    for (const [name, ms] of top) console.log(ms.toFixed(1).padStart(9), 'ms ', name);
    await browser.close();
    server.close();
    process.exit(0);
  }
  const r = await p.evaluate((runs) => window.bench(runs), RUNS);
  const best = (list) => list.reduce((a, b) => (a.total <= b.total ? a : b));
  const c = best(r.citekit);
  const b = best(r.baseline);
  const f = (x) => x.toFixed(3).padStart(9);
  console.log(`stream benchmark: ${r.bytes} bytes, ${r.chunks} chunks of ${CHUNK} characters, best of ${RUNS} runs, forced layout per chunk`);
  console.log(`                      total ms   median ms     p95 ms   markers`);
  console.log(`citekit (append)   ${f(c.total)}   ${f(c.median)}  ${f(c.p95)}   ${c.markers}  (+ finish ${c.finish.toFixed(2)} ms)`);
  console.log(`marked + innerHTML ${f(b.total)}   ${f(b.median)}  ${f(b.p95)}   ${b.markers}`);
  console.log(`ratio citekit/baseline total: ${(c.total / b.total).toFixed(3)} (target <= 0.1); citekit p95 ${c.p95.toFixed(3)} ms (target < 2 ms)`);
} finally {
  await browser.close();
  server.close();
  fs.rmSync(userDir, { recursive: true, force: true });
}
