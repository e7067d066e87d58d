// Streaming benchmark (prints numbers; not a test). In headless Chromium, two answers
// are streamed in 4-character chunks:
//   20 KB: ~20 KB of markdown, 150 markers over 20 sources (the original bench answer);
//   200 KB: ~200 KB, 1,500 markers over 200 sources (a long research report).
// Both mix headings, lists, tables, fenced code with bracket literals (`arr[1]`,
// `m[2][3]`, inline `x[4]`) that must stay text, emoji and CJK. Three renderers:
//   citekit: the mounted component (`view.append`), footnotes and the source panel on;
//   element (only when asked: --renderers element): <cited-answer> with `streaming`,
//     given the whole answer so far as its `answer` property on every chunk (what a
//     framework does), the same lists on;
//   marked: marked + a citation extension, re-parsing the whole answer and replacing
//     the container's innerHTML on every chunk (what most chat UIs do today);
//   smd: streaming-markdown 0.2.15, which appends DOM nodes as characters arrive and
//     never re-parses, with a citation wrapper (below).
//   openai: citekit fed the same answer as OpenAI's Responses stream (format `openai`,
//     appended raw): markers taken out, each one a `url_citation` annotation over the
//     sentence before it (UTF-16 offsets), one `response.output_text.delta` event per
//     4 characters of text, each annotation's event right after the text it covers, the
//     `response.completed` event with the whole response at the end (in `finish`).
//     What one chunk costs there against a plain answer's append (the `citekit` row).
//   anthropic: the same text as Anthropic's Messages stream (format `anthropic`): the
//     data's sources as one `web_search_tool_result` block at the mount, each cited
//     sentence its own text block opened with one `citations_delta` per source, the text
//     between in plain text blocks, one `text_delta` per 4 characters (a chunk that
//     crosses a block's end also carries its `content_block_stop` and the next start).
//   gemini: the same text as Gemini's `streamGenerateContent?alt=sse` (format `gemini`):
//     one chunk per 4 characters, the last one (in `finish`) with its `finishReason` and
//     the `groundingMetadata` (every source a chunk, every cited sentence a support with
//     UTF-8 byte offsets), where Gemini sends it.
//   After each size, the provider sides' per-chunk median and p95 over the plain
//   answer's (`citekit`) of the same run.
// Every side draws the same things: one <sup><a> per source reference, a footnote list
// of the cited sources (with their citation counts) and a source list of every source
// (cited ones marked, with counts). The baselines keep the data's numbers; citekit
// numbers by first citation. Each side waits one MessageChannel turn for its DOM and
// forces a layout after every chunk.
//
// What streaming-markdown renders differently from CommonMark (checked on small inputs
// fed in 4-character chunks): it is a single-pass state machine, so what it emitted is
// never revised. Every soft line break becomes a <br>; setext headings (`Title` over
// `===`) stay a paragraph; link reference definitions are not read (`[a][1]` is two
// url-less links, `[1]: url` a paragraph); inline and block HTML and entity references
// (`&amp;`) show as literal text; `_` emphasizes inside words (`snake_case_word`); an
// unclosed `**a*` opens strong and emphasis instead of staying literal; a blank line
// followed by an indented paragraph ends the list (no loose lists, the paragraph falls
// out of the item); table alignment (`:-`) is ignored. It adds GFM-like extras
// (tables, strikethrough, task checkboxes, bare URLs, `$...$` equations). Depending on where chunks split it
// reads `[1]` as a link without a url or as text; the citation wrapper handles both
// (a url-less link whose text names a source becomes the marker when the link ends,
// any other one goes back to its literal text; text outside code is scanned for
// `[n]`). A `[n]` that the parser splits across two tokens stays text. Inside code
// brackets stay text.
//
// Per size and renderer it prints the total main-thread time, the per-chunk median and
// 95th percentile, and the per-chunk median over the first 10% and the last 10% of the
// chunks with their ratio. A side that would run longer than --max-seconds is cut:
// its head (from the start) is measured until the budget, then a fresh instance is fed
// the first 90% of the answer in 4 KB chunks (not timed) and the last 10% is measured in
// 4-character chunks until the budget again. The last-10% median is then measured on the
// chunks reached; the total is EXTRAPOLATED (labelled `~`): the mean per-chunk cost is
// interpolated linearly between the head's last measured tenth and the tail's mean.
// `med-total` is the sum over the ten tenths of the chunks of each tenth's per-chunk
// median times its chunk count (tenths not reached interpolated between measured
// ones): stalls from other processes on a loaded machine inflate `total` and the p95,
// much less this one. Compare sides run at similar load.
//
// Needs the built package in pkg/ (`npm run build`), marked and streaming-markdown in
// node_modules (`npm install`).
// Usage: node bench/stream.mjs [--sizes 20,200] [--renderers citekit,openai,anthropic,gemini,smd,marked]
//          [--chunk 4] [--runs 3] [--max-seconds 45] [--limit-bytes N] [--pkg pkg]
//        node bench/stream.mjs --profile [--sizes 20,200] [--profile-seconds 20] [--top 25]
//   --runs: best of N full runs (only for a size streamed whole within the budget; a cut
//     side runs once). --limit-bytes: cut a side after N bytes as well.
//   --profile: a Chromium CPU profile (through the DevTools protocol) of citekit's
//     append path (or of the first of --renderers), on a copy of the package that keeps the wasm's function names
//     (bench/build-prof.sh), aggregated by self time per function: at the start of the
//     stream (first 10% of the chunks, or --profile-seconds) and at its end (last 10%,
//     after feeding the first 90% in 4 KB chunks).
//   --dump: writes the answers and data to target/bench-stream/ (for host-side measurements)
//     and exits.
//   BENCH_DEBUG=<renderer> (environment): prints the start of what that renderer drew
//     for the first 600 bytes of the 20 KB answer (to check a wrapper), no timing.
import { chromium } from 'playwright-core';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { makeData } from './data.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const arg = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const CHUNK = Number(arg('--chunk', 4));
const RUNS = Number(arg('--runs', 3));
const SIZES = String(arg('--sizes', '20,200')).split(',').map(Number);
const RENDERERS = String(arg('--renderers', args.includes('--profile') ? 'citekit' : 'citekit,openai,anthropic,gemini,smd,marked')).split(',');
// The sides fed a provider's own stream of the answer without its markers.
const PROVIDERS = ['openai', 'anthropic', 'gemini'];
const MAX_SECONDS = Number(arg('--max-seconds', 45));
const LIMIT_BYTES = Number(arg('--limit-bytes', Infinity));
const PROFILE = args.includes('--profile');
const PROFILE_SECONDS = Number(arg('--profile-seconds', 20));
const TOP = Number(arg('--top', 25));
for (const s of SIZES) {
  if (s !== 20 && s !== 200) {
    console.error(`bench/stream: --sizes takes 20 and/or 200, not ${s}`);
    process.exit(2);
  }
}

for (const need of ['pkg/index.js', 'node_modules/marked/lib/marked.esm.js', 'node_modules/streaming-markdown/smd.js']) {
  if (!fs.existsSync(path.join(root, need))) {
    console.error(`bench/stream: ${need} is missing (run \`npm run build\` and \`npm install\`)`);
    process.exit(2);
  }
}
// --pkg DIR: the package to measure, relative to the repository (default pkg), e.g. an
// older build for a before/after comparison in one session.
const pkgArg = args.indexOf('--pkg');
let pkgDir = pkgArg >= 0 ? `/${args[pkgArg + 1].replace(/^\/+|\/+$/g, '')}` : '/pkg';
if (PROFILE) {
  execFileSync('bash', [path.join(root, 'bench/build-prof.sh')], { stdio: 'inherit', env: { ...process.env, PATH: `${root}/node_modules/.bin:${process.env.PATH}` } });
  pkgDir = '/target/bench-prof-pkg';
}

// An answer of about `bytes` bytes with `markers` markers over `nsrc` sources. Sentence
// length is tuned so that the markers are spread over the whole answer.
function makeAnswer(markers, nsrc, bytes) {
  const words = 'the model grounds each claim in retrieved sources so that readers can check every statement quickly and trust the answer'.split(' ');
  const build = (wps) => {
    let n = 0;
    let out = '';
    const sentence = (k) => {
      let s = '';
      for (let i = 0; i < wps; i++) s += words[(k * 7 + i * 3) % words.length] + ' ';
      s = s.trim();
      n++;
      const marker = n % 5 === 0 ? ` [${(n % nsrc) + 1}][${((n + 7) % nsrc) + 1}]` : ` [${(n % nsrc) + 1}]`;
      return s.charAt(0).toUpperCase() + s.slice(1) + marker + '. ';
    };
    let k = 0;
    let refs = 0;
    const count = () => (out.match(/\[\d+\]/g) || []).length;
    while (n < markers) {
      const section = Math.floor(k / 6);
      if (k % 6 === 0) out += `## Section ${section + 1}: findings 🚀 and 結果\n\n`;
      if (k % 6 === 3) {
        out += `- ${sentence(k)}\n- ${sentence(k + 1)}\n- ${sentence(k + 2)}\n\n`;
      } else if (k % 12 === 5) {
        out += '| metric | value |\n|---|---|\n| latency | 12 ms |\n| recall | 0.93 |\n\n';
        out += '```js\nconst refs = list[1]; // not a marker\n```\n\n';
      } else if (k % 24 === 11) {
        out += '```python\nm = grid[2][3]  # still code, not [4]\n```\n\nUse `x[4]` to index. ' + sentence(k) + '\n\n';
      } else {
        out += sentence(k) + sentence(k + 1) + sentence(k + 2) + '\n\n';
      }
      k++;
      refs = n;
    }
    void refs;
    void count;
    return out;
  };
  if (bytes <= 25000) return build(20);
  let best = build(20);
  for (let w = 20; w <= 40; w++) {
    const a = build(w);
    if (Math.abs(a.length - bytes) < Math.abs(best.length - bytes)) best = a;
  }
  return best;
}
const CASES = {
  20: { answer: makeAnswer(150, 20, 20000), data: makeData(20) },
  200: { answer: makeAnswer(1500, 200, 200000), data: makeData(200) },
};
// Markers the answer really has (code excluded): what every renderer must draw.
for (const c of Object.values(CASES)) {
  const prose = c.answer.replace(/```[\s\S]*?```/g, '').replace(/`[^`]*`/g, '');
  c.refs = (prose.match(/\[\d+\]/g) || []).length;
  c.openai = openaiAnswer(c.answer, c.data);
}

// The answer as an OpenAI Responses output text: the markers (outside code) taken out,
// each one a `url_citation` over the sentence before it (start and end in UTF-16 code
// units, JavaScript's string indices, as OpenAI gives them).
function openaiAnswer(answer, data) {
  let text = '';
  const annotations = [];
  const pieces = answer.split(/(```[\s\S]*?```|`[^`]*`)/);
  for (const [k, piece] of pieces.entries()) {
    if (k % 2 === 1) {
      text += piece;
      continue;
    }
    let from = 0;
    for (const m of piece.matchAll(/ ?((?:\[\d+\])+)/g)) {
      text += piece.slice(from, m.index);
      from = m.index + m[0].length;
      const end = text.length;
      const start = Math.max(text.lastIndexOf('. ', end) + 2, text.lastIndexOf('\n', end) + 1, 0);
      for (const n of m[1].match(/\d+/g)) {
        const src = data[n];
        annotations.push({ type: 'url_citation', start_index: start, end_index: end, url: src.source, title: src.title });
      }
    }
    text += piece.slice(from);
  }
  return { text, annotations };
}

if (args.includes('--dump')) {
  // The answers and data, for host-side measurements (the cost split).
  const dir = path.join(root, 'target/bench-stream');
  fs.mkdirSync(dir, { recursive: true });
  for (const [size, c] of Object.entries(CASES)) {
    fs.writeFileSync(path.join(dir, `answer-${size}.md`), c.answer);
    fs.writeFileSync(path.join(dir, `data-${size}.json`), JSON.stringify(c.data));
  }
  console.log(`bench/stream: answers and data written to ${dir}`);
  process.exit(0);
}

const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json' };
const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>stream bench</title>
<style>.cited{font-weight:bold}</style></head>
<body><div id="host"></div><script type="module">
import { init, mount } from '${pkgDir}/index.js';
import { marked } from '/node_modules/marked/lib/marked.esm.js';
import * as smd from '/node_modules/streaming-markdown/smd.js';
const CASES = ${JSON.stringify(CASES)};
const CHUNK = ${CHUNK};
// Every side waits one macrotask (a MessageChannel message, no timer clamping) after a
// chunk, so all are measured the same way: the chunk handled, any DOM work it left to
// microtasks done, the layout done. (citekit's append changes the DOM before it
// returns.)
const channel = new MessageChannel();
function settle() { return new Promise((r) => { channel.port1.onmessage = () => r(); channel.port2.postMessage(0); }); }
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

// The baselines' footnotes and source list, kept up to date in place: a footnote is
// added when a source is first cited, counts are rewritten only when they change.
function makeRefs(host, data) {
  const notes = document.createElement('ol');
  notes.className = 'footnotes';
  const list = document.createElement('ul');
  list.className = 'sources';
  const items = new Map();
  for (const [n, s] of Object.entries(data)) {
    const li = document.createElement('li');
    li.innerHTML = '<a href="' + esc(s.source) + '">' + esc(s.title) + '</a> <span class="count"></span><p>' + esc(s.text) + '</p>';
    list.appendChild(li);
    items.set(n, { li, count: li.querySelector('.count'), note: null, noteCount: null, n: 0, shown: 0 });
  }
  host.appendChild(notes);
  host.appendChild(list);
  return {
    // A marker for source n (counted); null when n is not a source (stays text).
    sup(n) {
      const it = items.get(n);
      if (!it) return null;
      it.n++;
      const sup = document.createElement('sup');
      const a = document.createElement('a');
      a.href = '#fn-' + n;
      a.title = data[n].title;
      a.textContent = n;
      sup.appendChild(a);
      return sup;
    },
    supHtml(n) {
      const it = items.get(n);
      if (!it) return null;
      it.n++;
      return '<sup><a href="#fn-' + n + '" title="' + esc(data[n].title) + '">' + n + '</a></sup>';
    },
    reset() { for (const it of items.values()) it.n = 0; },
    // After a chunk: new footnotes, changed counts.
    sync() {
      for (const [n, it] of items) {
        if (it.n === it.shown) continue;
        if (!it.note && it.n > 0) {
          it.note = document.createElement('li');
          it.note.id = 'fn-' + n;
          it.note.innerHTML = esc(data[n].title) + ' <a href="' + esc(data[n].source) + '">' + esc(data[n].source) + '</a> (<span></span>)';
          it.noteCount = it.note.querySelector('span');
          notes.appendChild(it.note);
          it.li.classList.add('cited');
        }
        if (it.note) it.noteCount.textContent = String(it.n);
        it.count.textContent = it.n ? 'cited ' + it.n + 'x' : '';
        it.shown = it.n;
      }
    },
    markers: () => host.querySelectorAll('sup a').length,
  };
}

// marked with a citation extension: [n] becomes <sup><a>.
let markedRefs = null;
marked.use({ extensions: [{
  name: 'cite', level: 'inline',
  start(src) { const i = src.indexOf('['); return i < 0 ? undefined : i; },
  tokenizer(src) { const m = /^\\[(\\d+)\\]/.exec(src); if (m) return { type: 'cite', raw: m[0], n: m[1] }; },
  renderer(t) { return (markedRefs && markedRefs.supHtml(t.n)) || '[' + t.n + ']'; },
}] });

// streaming-markdown with a citation renderer. Depending on where the chunks split,
// the parser reads "[1]" either as a link with no url (a LINK token, its text "1", no
// href) or as plain text. A link that ends without an href is replaced by the source's
// <sup> (or by the literal "[text]" when the text names no source); text outside code
// is scanned for [n], a partial "[1" at the end of a piece waiting for the next piece
// of the same element (flushed as text when a token starts or ends).
function citeRenderer(root, refs) {
  const r = smd.default_renderer(root);
  const data = r.data;
  const links = [];
  let code = 0;
  let carry = '';
  const isCode = (t) => t === smd.CODE_INLINE || t === smd.CODE_BLOCK || t === smd.CODE_FENCE;
  const put = (text) => { if (text) data.nodes[data.index].appendChild(document.createTextNode(text)); };
  const flush = () => { put(carry); carry = ''; };
  return {
    data,
    add_token(d, type) {
      flush();
      smd.default_add_token(d, type);
      if (isCode(type)) code++;
      links.push(type === smd.LINK ? d.nodes[d.index] : isCode(type) ? 'code' : null);
    },
    end_token(d) {
      flush();
      const a = links.pop();
      if (a === 'code') code--;
      smd.default_end_token(d);
      if (a && a !== 'code' && !a.hasAttribute('href')) {
        const t = a.textContent;
        const sup = /^\\d{1,4}$/.test(t) ? refs.sup(t) : null;
        a.replaceWith(sup || document.createTextNode('[' + t + ']'));
      }
    },
    add_text(d, text) {
      if (code > 0) { put(text); return; }
      text = carry + text;
      carry = '';
      const re = /\\[(\\d{1,4})\\]/g;
      let last = 0;
      let m;
      while ((m = re.exec(text))) {
        const sup = refs.sup(m[1]);
        if (!sup) continue;
        put(text.slice(last, m.index));
        data.nodes[data.index].appendChild(sup);
        last = m.index + m[0].length;
      }
      const rest = text.slice(last);
      const partial = /\\[\\d{0,4}$/.exec(rest);
      if (partial) { put(rest.slice(0, partial.index)); carry = partial[0]; } else put(rest);
    },
    set_attr: smd.default_set_attr,
    end() { flush(); },
  };
}

// One side, fed ANSWER from byte 'from' (the part before it in 4 KB chunks, not
// timed), timed per chunk until the end, 'maxMs' or 'limitBytes'.
/// One Responses stream event, as the API writes it.
const sse = (e) => 'event: ' + e.type + '\\ndata: ' + JSON.stringify(e) + '\\n\\n';

function makeSide(kind, c, el) {
  if (kind === 'anthropic') {
    // The Messages stream: the search results at the mount, then text blocks (a cited
    // sentence each, the text between them), one text_delta per chunk.
    const { text, annotations } = c.openai;
    const view = mount(el, { answer: null, data: '', format: 'anthropic', panel: true, footnotes: true });
    const results = Object.values(c.data).map((s) => ({ type: 'web_search_result', url: s.source, title: s.title, encrypted_content: 'e', page_age: null }));
    const ev = (e) => sse(e);
    view.append(ev({ type: 'message_start', message: { id: 'msg_bench', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, usage: { input_tokens: 1, output_tokens: 1 } } }) +
      ev({ type: 'content_block_start', index: 0, content_block: { type: 'server_tool_use', id: 'srvtoolu_bench', name: 'web_search', input: {} } }) +
      ev({ type: 'content_block_stop', index: 0 }) +
      ev({ type: 'content_block_start', index: 1, content_block: { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_bench', content: results } }) +
      ev({ type: 'content_block_stop', index: 1 }));
    // Text blocks: [start, end, citations] covering the text, in order.
    const segs = [];
    let at = 0;
    for (const a of annotations) {
      const last = segs[segs.length - 1];
      if (last && last[0] === a.start_index && last[1] === a.end_index) { last[2].push(a); continue; }
      if (a.start_index < at) continue;
      if (a.start_index > at) segs.push([at, a.start_index, []]);
      segs.push([a.start_index, a.end_index, [a]]);
      at = a.end_index;
    }
    if (at < text.length) segs.push([at, text.length, []]);
    let k = 0;
    let open = false;
    let pos = 0;
    return {
      text,
      append: (s) => {
        let out = '';
        let from = pos;
        pos += s.length;
        while (from < pos && k < segs.length) {
          const [start, end, cites] = segs[k];
          const index = k + 2;
          if (!open) {
            out += ev({ type: 'content_block_start', index, content_block: cites.length ? { type: 'text', text: '', citations: [] } : { type: 'text', text: '' } });
            for (const a of cites) out += ev({ type: 'content_block_delta', index, delta: { type: 'citations_delta', citation: { type: 'web_search_result_location', url: a.url, title: a.title, cited_text: 'An excerpt of the source.', encrypted_index: 'x' } } });
            open = true;
          }
          const to = Math.min(end, pos);
          if (to > from) out += ev({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: text.slice(from, to) } });
          from = to;
          if (to === end) { out += ev({ type: 'content_block_stop', index }); open = false; k++; }
          void start;
        }
        view.append(out);
      },
      finish: () => {
        view.append(ev({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 1000 } }) + ev({ type: 'message_stop' }));
        view.finish();
      },
      markers: () => el.querySelectorAll('.cite-answer__body .cite-marker__link').length,
      literal: () => false,
      footnotes: () => el.querySelectorAll('.cite-footnotes li').length,
      destroy: () => view.destroy(),
    };
  }
  if (kind === 'gemini') {
    // One chunk per append; the grounding (sources, supports in UTF-8 bytes) with the
    // last chunk, at the end, as Gemini sends it.
    const { text, annotations } = c.openai;
    const view = mount(el, { answer: null, data: '', format: 'gemini', panel: true, footnotes: true });
    const chunk = (t, extra) => 'data: ' + JSON.stringify({ candidates: [{ content: { parts: [{ text: t }], role: 'model' }, index: 0, ...extra }], modelVersion: 'gemini-2.5-flash', responseId: 'r_bench' }) + '\\r\\n\\r\\n';
    // UTF-8 bytes before each UTF-16 index (a surrogate pair's 4 bytes on its first unit).
    const before = new Uint32Array(text.length + 1);
    for (let i = 0; i < text.length; i++) {
      const u = text.charCodeAt(i);
      before[i + 1] = before[i] + (u < 0x80 ? 1 : u < 0x800 ? 2 : u >= 0xd800 && u < 0xdc00 ? 4 : u >= 0xdc00 && u < 0xe000 ? 0 : 3);
    }
    const bytes = (i) => before[i];
    const sources = Object.values(c.data);
    const chunkOf = new Map(sources.map((s, i) => [s.source, i]));
    // Made here, not timed: the last chunk's grounding.
    const supports = [];
    for (const a of annotations) {
      const last = supports[supports.length - 1];
      const i = chunkOf.get(a.url);
      if (last && last.a.start_index === a.start_index && last.a.end_index === a.end_index) { last.groundingChunkIndices.push(i); continue; }
      supports.push({ a, segment: { startIndex: bytes(a.start_index), endIndex: bytes(a.end_index), text: text.slice(a.start_index, a.end_index) }, groundingChunkIndices: [i] });
    }
    const groundingMetadata = {
      webSearchQueries: ['bench'],
      groundingChunks: sources.map((s) => ({ web: { uri: s.source, title: s.title } })),
      groundingSupports: supports.map(({ segment, groundingChunkIndices }) => ({ segment, groundingChunkIndices })),
    };
    return {
      text,
      append: (s) => view.append(chunk(s)),
      finish: () => {
        view.append(chunk('', { finishReason: 'STOP', groundingMetadata }));
        view.finish();
      },
      markers: () => el.querySelectorAll('.cite-answer__body .cite-marker__link').length,
      literal: () => false,
      footnotes: () => el.querySelectorAll('.cite-footnotes li').length,
      destroy: () => view.destroy(),
    };
  }
  if (kind === 'openai') {
    // The Responses stream: its opening events at the mount, then one delta event per
    // chunk of text with the annotations whose text is in, the final response at the end.
    const { text, annotations } = c.openai;
    const resp = (status, output) => ({ id: 'resp_bench', object: 'response', created_at: 1764964102, status, model: 'gpt-5-mini', output, usage: null });
    const item = 'msg_bench';
    const view = mount(el, { answer: null, data: '', format: 'openai', panel: true, footnotes: true });
    let seq = 0;
    const ev = (e) => sse({ ...e, sequence_number: seq++ });
    view.append(ev({ type: 'response.created', response: resp('in_progress', []) }) +
      ev({ type: 'response.output_item.added', output_index: 0, item: { id: item, type: 'message', status: 'in_progress', content: [], role: 'assistant' } }) +
      ev({ type: 'response.content_part.added', item_id: item, output_index: 0, content_index: 0, part: { type: 'output_text', annotations: [], text: '' } }));
    let pos = 0;
    let next = 0;
    return {
      text,
      append: (s) => {
        pos += s.length;
        let out = ev({ type: 'response.output_text.delta', item_id: item, output_index: 0, content_index: 0, delta: s, logprobs: [] });
        while (next < annotations.length && annotations[next].end_index <= pos) {
          out += ev({ type: 'response.output_text.annotation.added', item_id: item, output_index: 0, content_index: 0, annotation_index: next, annotation: annotations[next] });
          next++;
        }
        view.append(out);
      },
      finish: () => {
        const part = { type: 'output_text', annotations, text };
        view.append(ev({ type: 'response.completed', response: resp('completed', [{ id: item, type: 'message', status: 'completed', content: [part], role: 'assistant' }]) }));
        view.finish();
      },
      markers: () => el.querySelectorAll('.cite-answer__body .cite-marker__link').length,
      literal: () => false,
      footnotes: () => el.querySelectorAll('.cite-footnotes li').length,
      destroy: () => view.destroy(),
    };
  }
  if (kind === 'element') {
    // <cited-answer> given the whole text so far on every chunk, as a framework sets it.
    const ce = document.createElement('cited-answer');
    ce.data = c.data;
    ce.options = { panel: true, footnotes: true };
    ce.setAttribute('streaming', '');
    ce.answer = '';
    el.appendChild(ce);
    let text = '';
    return {
      append: (s) => { text += s; ce.answer = text; },
      finish: () => { ce.streaming = false; },
      markers: () => ce.querySelectorAll('.cite-answer__body .cite-marker__link').length,
      literal: () => false,
      footnotes: () => ce.querySelectorAll('.cite-footnotes li').length,
      destroy: () => ce.remove(),
    };
  }
  if (kind === 'citekit') {
    const view = mount(el, { answer: '', data: c.data, panel: true, footnotes: true });
    return {
      append: (s) => view.append(s),
      finish: () => view.finish(),
      markers: () => el.querySelectorAll('.cite-answer__body .cite-marker__link').length,
      literal: () => { const b = el.querySelector('.cite-answer__body'); return b ? /\\[\\d+\\]/.test(b.textContent.replace(/list\\[1\\]|grid\\[2\\]\\[3\\]|not \\[4\\]|x\\[4\\]/g, '')) : false; },
      footnotes: () => el.querySelectorAll('.cite-footnotes li').length,
      destroy: () => view.destroy(),
    };
  }
  const body = document.createElement('div');
  el.appendChild(body);
  const refs = makeRefs(el, c.data);
  if (kind === 'marked') {
    let text = '';
    return {
      append: (s) => { text += s; refs.reset(); markedRefs = refs; body.innerHTML = marked.parse(text); markedRefs = null; refs.sync(); },
      finish: () => {},
      markers: () => body.querySelectorAll('sup a').length,
      literal: () => false,
      footnotes: () => el.querySelectorAll('.footnotes li').length,
      destroy: () => {},
    };
  }
  const rend = citeRenderer(body, refs);
  const parser = smd.parser(rend);
  return {
    append: (s) => { smd.parser_write(parser, s); refs.sync(); },
    finish: () => { rend.end(); smd.parser_end(parser); refs.sync(); },
    markers: () => body.querySelectorAll('sup a').length,
    literal: () => false,
    footnotes: () => el.querySelectorAll('.footnotes li').length,
    destroy: () => {},
  };
}

// Mounts a side and feeds it the answer up to byte 'from' (4 KB chunks, not timed).
window.prepareSide = async (kind, size, from) => {
  const c = CASES[size];
  const host = document.getElementById('host');
  host.innerHTML = '';
  const el = document.createElement('div');
  host.appendChild(el);
  const side = makeSide(kind, c, el);
  const A = side.text ?? c.answer;
  let pos = 0;
  while (pos < from) {
    const next = Math.min(from, pos + 4096);
    side.append(A.slice(pos, next));
    pos = next;
    await settle();
  }
  void document.body.offsetHeight;
  window.current = { side, A, pos, from, host };
};
// Streams the prepared side on, timed per chunk, until the end, 'maxMs' or 'limitBytes'.
window.measureSide = async (maxMs, limitBytes, finish) => {
  const { side, A, from, host } = window.current;
  let pos = window.current.pos;
  const times = [];
  const at = [];
  const start = performance.now();
  let cut = false;
  while (pos < A.length) {
    if (performance.now() - start > maxMs || pos - from >= limitBytes) { cut = true; break; }
    const chunk = A.slice(pos, pos + CHUNK);
    const t0 = performance.now();
    side.append(chunk);
    await settle();
    void document.body.offsetHeight;
    times.push(performance.now() - t0);
    at.push(pos);
    pos += chunk.length;
  }
  let fin = 0;
  let markers = null, footnotes = null, literal = null;
  if (!cut && finish) {
    const t0 = performance.now();
    side.finish();
    await settle();
    void document.body.offsetHeight;
    fin = performance.now() - t0;
    markers = side.markers();
    footnotes = side.footnotes();
    literal = side.literal();
  }
  side.destroy();
  window.lastHtml = host.innerHTML.slice(0, 3000);
  host.innerHTML = '';
  return { times, at, cut, end: pos, finish: fin, markers, footnotes, literal };
};
window.runSide = async (kind, size, from, maxMs, limitBytes, finish) => {
  await window.prepareSide(kind, size, from);
  return window.measureSide(maxMs, limitBytes, finish);
};
window.initReady = () => init();
window.isolated = () => self.crossOriginIsolated;
window.chunkCount = (size) => Math.ceil(CASES[size].answer.length / CHUNK);
window.benchReady = true;
</script></body></html>`;

// Cross-origin isolated: performance.now() then ticks in 5 µs steps instead of 100 µs.
const isolated = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };
const server = http.createServer((req, res) => {
  const url = decodeURIComponent(req.url.split('?')[0]);
  if (url === '/' || url === '/index.html') {
    res.writeHead(200, { 'content-type': 'text/html', ...isolated });
    res.end(page);
    return;
  }
  const file = path.join(root, url);
  if (!file.startsWith(root)) { res.writeHead(403); res.end(); return; }
  fs.readFile(file, (e, d) => {
    if (e) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream', ...isolated });
    res.end(d);
  });
}).listen(0, '127.0.0.1');
await new Promise((r) => server.on('listening', r));
const base = `http://127.0.0.1:${server.address().port}/`;
const userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'citekit-bench-'));

const median = (xs) => { if (!xs.length) return NaN; const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const pct = (xs, p) => { if (!xs.length) return NaN; const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const mean = (xs) => (xs.length ? sum(xs) / xs.length : NaN);

// A total that machine load does not inflate: the per-chunk median of each tenth of
// the chunks times its chunk count. Tenths with no measured chunk (a cut side) take
// the median interpolated linearly between the nearest measured tenths.
function medianTotal(n, sets) {
  const per = Array.from({ length: 10 }, () => []);
  for (const { times, at } of sets) times.forEach((t, i) => per[Math.min(9, Math.floor((at[i] / CHUNK) * 10 / n))].push(t));
  const med = per.map((xs) => (xs.length ? median(xs) : NaN));
  const known = med.map((m, i) => (Number.isFinite(m) ? i : -1)).filter((i) => i >= 0);
  let total = 0;
  for (let d = 0; d < 10; d++) {
    let m = med[d];
    if (!Number.isFinite(m)) {
      const lo = known.filter((i) => i < d).pop();
      const hi = known.find((i) => i > d);
      m = lo === undefined ? med[hi] : hi === undefined ? med[lo] : med[lo] + ((med[hi] - med[lo]) * (d - lo)) / (hi - lo);
    }
    const count = Math.min(n, Math.round(((d + 1) * n) / 10)) - Math.round((d * n) / 10);
    total += m * count;
  }
  return total;
}

// Total, median, p95 and first/last-10% medians of one side. `head` runs from the
// start; `tail` (when the head was cut) from 90% of the answer.
function summarize(len, head, tail) {
  const n = Math.ceil(len / CHUNK);
  const tenth = Math.max(1, Math.floor(n / 10));
  const lastFrom = (n - tenth) * CHUNK;
  if (!head.cut) {
    const t = head.times;
    const first = median(t.slice(0, tenth));
    const last = median(t.slice(-tenth));
    return { total: sum(t), medTotal: medianTotal(n, [head]), median: median(t), p95: pct(t, 0.95), first, last, firstN: tenth, lastN: tenth, extrapolated: false, measured: t.length, n, finish: head.finish, markers: head.markers, footnotes: head.footnotes, literal: head.literal };
  }
  const h = head.times;
  const firstN = Math.min(tenth, h.length);
  const first = median(h.slice(0, firstN));
  const tt = tail.times.filter((_, i) => tail.at[i] >= lastFrom);
  const last = median(tt);
  // Mean cost at the head's last tenth and over the tail: linear in between.
  const k = Math.max(1, Math.floor(h.length / 10));
  const p0 = mean(head.at.slice(-k));
  const m0 = mean(h.slice(-k));
  const p1 = tail.at.length ? mean(tail.at) : len;
  const m1 = tail.at.length ? mean(tail.times) : m0;
  const model = (p) => (p <= p0 ? m0 : p >= p1 ? m1 : m0 + ((m1 - m0) * (p - p0)) / (p1 - p0));
  let total = sum(h);
  const tailSet = new Set(tail.at);
  for (let pos = head.end; pos < len; pos += CHUNK) total += tailSet.has(pos) ? 0 : model(pos);
  total += sum(tail.times);
  const all = h.concat(tail.times);
  return { total, medTotal: medianTotal(n, [head, tail]), median: median(all), p95: pct(all, 0.95), first, last, firstN, lastN: tt.length, extrapolated: true, measured: all.length, n, headBytes: head.end, tailBytes: tail.end - lastFrom, finish: NaN, markers: null };
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const p = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  p.on('pageerror', (e) => console.error('page error:', e));
  await p.goto(base);
  await p.waitForFunction(() => window.benchReady === true);
  await p.evaluate(() => window.initReady());
  const load = os.loadavg()[0].toFixed(1);
  const run = (kind, size, from, maxMs, limitBytes, finish = true) =>
    p.evaluate(([k, s, f, m, l, fin]) => window.runSide(k, s, f, m, l, fin), [kind, size, from, maxMs, limitBytes === Infinity ? 1e12 : limitBytes, finish]);

  if (process.env.BENCH_DEBUG) {
    await run(process.env.BENCH_DEBUG, 20, 0, 5000, 600, false);
    console.log(await p.evaluate(() => window.lastHtml));
  } else if (PROFILE) {
    // Where citekit's time goes: CPU profiles of the append path, by self time.
    const cdp = await p.context().newCDPSession(p);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await run('citekit', 20, 0, 2000, Infinity, false); // warm-up (JIT, wasm tier-up)
    for (const size of SIZES) {
      const len = CASES[size].answer.length;
      const n = Math.ceil(len / CHUNK);
      const tenthBytes = Math.max(1, Math.floor(n / 10)) * CHUNK;
      for (const [label, from] of [['start (first 10% of chunks)', 0], ['end (last 10% of chunks, after 90% fed in 4 KB chunks)', (n - tenthBytes / CHUNK) * CHUNK]]) {
        await p.evaluate(([k, s, f]) => window.prepareSide(k, s, f), [RENDERERS[0], size, from]);
        await cdp.send('Profiler.start');
        const r = await p.evaluate(([m, l]) => window.measureSide(m, l, false), [PROFILE_SECONDS * 1000, tenthBytes]);
        const { profile } = await cdp.send('Profiler.stop');
        printProfile(`${RENDERERS[0]}, ${size} KB, ${label}: ${r.times.length} chunks from byte ${from}, per-chunk median ${median(r.times).toFixed(2)} ms`, profile, r.times.length);
      }
    }
  } else {
    const iso = await p.evaluate(() => window.isolated());
    console.log(`stream benchmark: chunks of ${CHUNK} characters, forced layout per chunk; timer ${iso ? '5 µs' : '100 µs'} steps; machine load ${load} (1-min average, ${os.cpus().length} cores)`);
    // Warm-up of every side (JIT, wasm tier-up).
    for (const k of RENDERERS) await run(k, 20, 0, 3000, Infinity, false);
    for (const size of SIZES) {
      const c = CASES[size];
      const len = c.answer.length;
      console.log(`\n${size} KB answer: ${len} bytes (${Buffer.byteLength(c.answer)} UTF-8), ${Math.ceil(len / CHUNK)} chunks, ${Object.keys(c.data).length} sources, ${c.refs} markers outside code`);
      console.log('                total ms  med-total ms  median ms   p95 ms   first10% ms  last10% ms  last/first  markers  notes');
      const rows = {};
      for (const kind of RENDERERS) {
        const t0 = Date.now();
        // The provider sides stream the answer without its markers.
        const len = PROVIDERS.includes(kind) ? c.openai.text.length : c.answer.length;
        let head = await run(kind, size, 0, MAX_SECONDS * 1000, LIMIT_BYTES);
        let s;
        if (head.cut) {
          const n = Math.ceil(len / CHUNK);
          const tail = await run(kind, size, (n - Math.max(1, Math.floor(n / 10))) * CHUNK, MAX_SECONDS * 1000, LIMIT_BYTES);
          s = summarize(len, head, tail);
        } else {
          s = summarize(len, head);
          for (let i = 1; i < RUNS; i++) {
            head = await run(kind, size, 0, MAX_SECONDS * 1000, LIMIT_BYTES);
            if (head.cut) break;
            const again = summarize(len, head);
            if (again.total < s.total) s = again;
          }
        }
        rows[kind] = s;
        const f = (x, w = 10, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a').padStart(w);
        const tot = s.extrapolated ? ('~' + s.total.toFixed(0)).padStart(10) : f(s.total, 10, 1);
        const note = s.extrapolated
          ? `EXTRAPOLATED total: measured ${s.measured} of ${s.n} chunks (${s.headBytes} B from the start, ${s.tailBytes} B of the last 10%); median/p95 over those; first10% over ${s.firstN}, last10% over ${s.lastN} chunks`
          : `finish ${s.finish.toFixed(1)} ms, footnotes ${s.footnotes}${s.literal ? ', LITERAL [n] LEFT' : ''}`;
        const mt = (s.extrapolated ? '~' + s.medTotal.toFixed(0) : s.medTotal.toFixed(1)).padStart(12);
        console.log(`${kind.padEnd(12)} ${tot}  ${mt}  ${f(s.median)}  ${f(s.p95, 8)}  ${f(s.first, 11)}  ${f(s.last, 10)}  ${f(s.last / s.first, 10, 2)}  ${String(s.markers ?? '-').padStart(7)}  ${note}  [${((Date.now() - t0) / 1000).toFixed(0)} s]`);
      }
      const ck = rows.citekit;
      const sm = rows.smd;
      if (ck) {
        const ratio = ck.last / ck.first;
        const lines = [`citekit last/first-10% median ${ratio.toFixed(2)} (target <= 1.5)`];
        const x = (r) => (r.extrapolated ? '~' : '');
        if (sm) lines.push(`total ${x(ck)}${ck.total.toFixed(0)} ms vs streaming-markdown ${x(sm)}${sm.total.toFixed(0)} ms, med-total ${x(ck)}${ck.medTotal.toFixed(0)} vs ${x(sm)}${sm.medTotal.toFixed(0)} ms (target: at most)`);
        if (size === 20) lines.push(`p95 ${ck.p95.toFixed(3)} ms (target <= 1 ms)`);
        if (size === 200) lines.push(`total ${x(ck)}${(ck.total / 1000).toFixed(1)} s, med-total ${x(ck)}${(ck.medTotal / 1000).toFixed(1)} s (target < 30 s)`);
        console.log('targets: ' + lines.join('; '));
        // A provider stream costs per chunk what a plain answer's append costs (issue 29).
        for (const kind of PROVIDERS.filter((k) => rows[k])) {
          const r = rows[kind];
          console.log(`${kind} stream per chunk: median ${r.median.toFixed(3)} ms, p95 ${r.p95.toFixed(3)} ms, against the plain answer's ${ck.median.toFixed(3)} / ${ck.p95.toFixed(3)} ms: ${(r.median / ck.median).toFixed(2)}x / ${(r.p95 / ck.p95).toFixed(2)}x (target about 2x at most)`);
        }
      }
    }
    console.log(`\nmachine load at the end ${os.loadavg()[0].toFixed(1)} (1-min average): other processes share the cores, absolute times vary between runs`);
  }
} finally {
  await browser.close();
  server.close();
  fs.rmSync(userDir, { recursive: true, force: true });
}

// Self time per function, self time per group, and inclusive time of citekit's own
// functions (a sample counts for every distinct citekit function on its stack), from a
// CPU profile's samples. Rust names lose their hashes and crate disambiguators.
function clean(name) {
  return name.replace(/\[[0-9a-f]{16}\]/g, '').replace(/::h[0-9a-f]{16}$/, '').replace(/::\{\{closure\}\}/g, '::{closure}');
}
function group(name, file) {
  if (name === '(program)') return 'native, unattributed (program): style/layout/paint work not under a JS frame, scheduling';
  if (name === '(garbage collector)') return 'JS garbage collector';
  if (name === 'window.measureSide') return 'forced layout + style (the bench\'s offsetHeight read) and the bench loop';
  if (/^__wbg_set_innerHTML/.test(name)) return 'DOM: innerHTML (HTML parse + node build), called from wasm';
  if (/^__wbg_/.test(name) || file === 'citekit_wasm.js') return 'JS glue (wasm-bindgen imports: DOM calls, strings)';
  if (file !== 'citekit_wasm_bg.wasm') return 'other JS/native (' + name + ')';
  if (/citekit::core::stream::/.test(name)) return 'wasm: stream parser (citekit::core::stream)';
  if (/citekit::core::(markers|resolve|sanitize|formats|json|draft|sort)/.test(name)) return 'wasm: markers, resolution (citekit::core other)';
  if (/citekit::render/.test(name)) return 'wasm: HTML rendering (citekit::render)';
  if (/citekit::web|citekit::js/.test(name)) return 'wasm: components/effects (citekit::web, citekit::js)';
  if (/reactive_graph|leptos|tachys|any_spawner|futures|wasm_bindgen_futures|js_sys/.test(name)) return 'wasm: Leptos reactivity, futures';
  if (/dlmalloc|__rdl_|__rust_(alloc|dealloc|realloc)|raw_vec|RawVec|drop_in_place|finish_grow|grow_one|memcpy|memmove|memset/.test(name)) return 'wasm: allocation, free, memcpy';
  if (/Clone>::clone|::clone$|clone::Clone/.test(name)) return 'wasm: clone';
  if (/PartialEq|::eq$|cmp::/.test(name)) return 'wasm: comparisons (==)';
  if (/hash|Hash/.test(name)) return 'wasm: hashing';
  return 'wasm: other (std, inlined helpers)';
}
function printProfile(title, profile, chunks) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const self = new Map();
  const groups = new Map();
  const incl = new Map();
  const deltas = profile.timeDeltas || [];
  let total = 0;
  const label = (n) => {
    const file = n.callFrame.url.split('/').pop();
    return { name: clean(n.callFrame.functionName || '(anonymous)'), file };
  };
  profile.samples.forEach((id, i) => {
    const n = byId.get(id);
    const dt = (deltas[i + 1] ?? deltas[i] ?? 0) / 1000;
    const { name, file } = label(n);
    if (name === '(idle)') return;
    total += dt;
    const key = `${name}${file ? ' ' + file : ''}`;
    self.set(key, (self.get(key) || 0) + dt);
    const g = group(name, file);
    groups.set(g, (groups.get(g) || 0) + dt);
    const seen = new Set();
    for (let x = id; x !== undefined; x = parent.get(x)) {
      const l = label(byId.get(x));
      if (/citekit::|^__wbg_set_innerHTML/.test(l.name) && !seen.has(l.name)) {
        seen.add(l.name);
        incl.set(l.name, (incl.get(l.name) || 0) + dt);
      }
    }
  });
  const per = (ms) => (ms / Math.max(1, chunks)).toFixed(4).padStart(10);
  const row = (ms, name) => `${ms.toFixed(1).padStart(10)} ${((100 * ms) / total).toFixed(1).padStart(5)}  ${per(ms)}  ${name.slice(0, 140)}`;
  console.log(`\n== ${title}: ${total.toFixed(0)} ms sampled (not idle), ${(total / Math.max(1, chunks)).toFixed(3)} ms per chunk`);
  console.log('-- by group (self time)\n   self ms    %   per chunk ms  group');
  let rest = 0;
  for (const [g, ms] of [...groups.entries()].sort((a, b) => b[1] - a[1])) {
    if (ms / total >= 0.005) console.log(row(ms, g));
    else rest += ms;
  }
  if (rest > 0) console.log(row(rest, 'the rest (groups under 0.5% each)'));
  console.log(`-- top ${TOP} functions by self time\n   self ms    %   per chunk ms  function`);
  for (const [name, ms] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(row(ms, name));
  console.log(`-- top ${TOP} citekit functions by inclusive time (callees included; what LTO did not inline)\n   incl ms    %   per chunk ms  function`);
  for (const [name, ms] of [...incl.entries()].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(row(ms, name));
}
