// renderToString and parse under Node, from the installed package (run from a directory
// whose node_modules holds citekit). No DOM exists here: the static path needs none.
// Prints `N passed, N failed`; exits non-zero on a failure.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as citekit from 'cited-answer';

let passed = 0;
let failed = 0;
async function test(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`  ok   node: ${name}`);
  } catch (err) {
    failed++;
    console.log(`  FAIL node: ${name}\n       ${String(err?.stack ?? err).split('\n').slice(0, 8).join('\n       ')}`);
  }
}

const ANSWER = 'Paris is the capital of France [1]. Lyon is known for its cuisine [2][1].';
const DATA = {
  1: { title: 'Paris - Wikipedia', source: 'https://en.wikipedia.org/wiki/Paris', text: 'Paris is the capital of France.' },
  2: { title: 'Lyon <guide> & "food"', source: 'https://www.lonelyplanet.com/france/lyon', text: 'Lyon food.' },
};

await test('there is no DOM', () => {
  assert.equal(typeof document, 'undefined');
  assert.equal(typeof window, 'undefined');
  assert.equal(typeof HTMLElement, 'undefined');
});

await test('functions say clearly that init() comes first', () => {
  assert.equal(citekit.isReady(), false);
  assert.throws(() => citekit.renderToString('x', null), /call `await init\(\)` before `renderToString\(\)`/);
});

// core.js's answer to `streamsEvents` (the table the build writes from the module),
// before the module has loaded, for every format and kinds of data: compared with the
// module's own once it has.
const core = await import(new URL('./node_modules/cited-answer/core.js', import.meta.url).href);
const dts = readFileSync(new URL('./node_modules/cited-answer/index.d.ts', import.meta.url), 'utf8');
const FORMATS = [...(/export type FormatName =([^;]*);/.exec(dts)?.[1] ?? '').matchAll(/\|\s*'([^']+)'/g)].map((m) => m[1]);
const SAMPLES = [null, undefined, {}, [], { parts: [] }, '', 'e', 'eve', ': ping\n\n', 'event: message_start\n', 'data: {"type":"start"}\n\n', '{"content": []}', ' [1]', '\ufeff{"a": 1}', '\n  {'];
const beforeLoad = FORMATS.map((f) => SAMPLES.map((d) => core.streamsEvents(f, d)));

await test('init() loads the .wasm from disk, twice is fine', async () => {
  await citekit.init();
  await citekit.init();
  assert.equal(citekit.isReady(), true);
  assert.match(citekit.version(), /^\d+\.\d+\.\d+/);
});

await test("which data streams events is the module's answer (the registry's) for every format, before the module loaded too", async () => {
  assert.ok(FORMATS.length >= 20 && FORMATS.includes('sse') && FORMATS.includes('cohere'), `formats: ${FORMATS}`);
  const glue = await import(new URL('./node_modules/cited-answer/citekit_full.js', import.meta.url).href);
  assert.equal(typeof glue.streamsEvents, 'function', 'the module exports streamsEvents');
  const moduleAnswers = FORMATS.map((f) => SAMPLES.map((d) => glue.streamsEvents(f, d)));
  const differ = [];
  FORMATS.forEach((f, i) =>
    SAMPLES.forEach((d, k) => {
      if (beforeLoad[i][k] !== moduleAnswers[i][k]) differ.push(`${f} ${JSON.stringify(d)}: ${beforeLoad[i][k]} before, ${moduleAnswers[i][k]} in the module`);
    }),
  );
  assert.deepEqual(differ, []);
  assert.deepEqual(FORMATS.map((f) => SAMPLES.map((d) => core.streamsEvents(f, d))), moduleAnswers);
  // Formats of each kind stream: sse always, ai-sdk's UI stream, a provider's, a platform's.
  for (const [f, d] of [['sse', null], ['ai-sdk', ''], ['anthropic', 'event: m'], ['cohere', null]]) {
    assert.equal(core.streamsEvents(f, d), true, `${f} ${JSON.stringify(d)}`);
  }
  assert.equal(core.streamsEvents(undefined, 'data: {}'), false, 'no format given');
});

const OPENAI = {
  output: [{
    type: 'message',
    role: 'assistant',
    content: [{
      type: 'output_text',
      text: 'Rust 1.0 shipped in May 2015. It promised stability.',
      annotations: [{ type: 'url_citation', start_index: 0, end_index: 29, url: 'https://blog.rust-lang.org/2015/05/15/Rust-1.0.html', title: 'Announcing Rust 1.0' }],
    }],
  }],
};

await test('under Node init() loads the full module: openai data parses', () => {
  const m = citekit.parse(null, OPENAI);
  assert.equal(m.format, 'openai');
  assert.deepEqual(m.sources.map((s) => s.title), ['Announcing Rust 1.0']);
  assert.match(citekit.renderToString(null, OPENAI), /Announcing Rust 1\.0/);
});

await test("init(undefined, { formats: 'first-use' }): openai data parses at once; posthoc data and canonical HTML answers throw format-not-loaded saying what to do; loadFormats() then parses them", async () => {
  const { spawnSync } = await import('node:child_process');
  const code = `
    import { init, parse, renderToString, loadFormats } from 'cited-answer';
    const OPENAI = ${JSON.stringify(OPENAI)};
    await init(undefined, { formats: 'first-use' });
    const out = [];
    for (const f of [() => parse(null, OPENAI).sources[0].title, () => renderToString(null, OPENAI).includes('Announcing Rust 1.0')]) {
      try { out.push(f()); } catch (e) { out.push(e.code + ': ' + e.message); }
    }
    out.push(parse('Plain [1].', { 1: { title: 'T', source: 'https://t.example/' } }).sources.length);
    const HTML = { ok: true, format: 'html', content: '<p>Paris<sup class="cite" data-sids="1">[S:1]</sup>.</p>',
      sources_used: [{ sid: 1, title: 'Paris', url: 'https://p.example/' }] };
    try { parse(null, HTML); out.push('no error'); } catch (e) { out.push(e.code + ': ' + e.message); }
    const POSTHOC = { response: 'Paris is big.', sources: [{ title: 'P', url: 'https://p.example/' }],
      citations: [{ claim: 'Paris is big', sourceIndex: 1 }] };
    try { parse(null, POSTHOC); out.push('no error'); } catch (e) { out.push(e.code + ': ' + e.message); }
    try { renderToString(null, POSTHOC); out.push('no error'); } catch (e) { out.push(e.code + ': ' + e.message); }
    await loadFormats();
    out.push(parse(null, OPENAI).sources[0].title);
    const html = parse(null, HTML);
    const rendered = renderToString(null, HTML);
    out.push(parse(null, POSTHOC).citations.length);
    out.push([html.format, html.citations.length, /<p[ >]/.test(rendered) && rendered.includes("Paris") && !rendered.includes("[S:1]")]);
    console.log(JSON.stringify(out));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout.trim().split('\n').pop());
  // The providers' formats are in the first module.
  assert.equal(out[0], 'Announcing Rust 1.0', 'parse of openai data in the first module');
  assert.equal(out[1], true, 'renderToString of openai data in the first module');
  assert.equal(out[2], 1, 'other formats work in the first module');
  // HTML, JSON and YAML answers (canonical) and posthoc data are read by the full module.
  assert.match(out[3], /^format-not-loaded: citekit: canonical html answers need citekit's full module/);
  for (const [i, name] of [[4, 'parse'], [5, 'renderToString']]) {
    assert.match(out[i], /^format-not-loaded: citekit: posthoc data needs citekit's full module/);
    assert.match(out[i], new RegExp(`await loadFormats\\(\\)\` before \`${name}\\(\\)`));
  }
  assert.equal(out[6], 'Announcing Rust 1.0');
  assert.equal(out[7], 1, 'the posthoc claim is located by the full module');
  assert.deepEqual(out[8], ['canonical', 1, true]);
});

await test('init() rejects an unknown `formats` with what it expects', async () => {
  const { spawnSync } = await import('node:child_process');
  const code = `
    import { init } from 'cited-answer';
    try { await init(undefined, { formats: 'some' }); console.log('resolved'); } catch (e) { console.log(e.message); }
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  assert.match(r.stdout, /unknown `formats` "some", expected 'all' or 'first-use'/);
});

await test('renderToString: markers, footnotes, escaped titles', () => {
  const html = citekit.renderToString(ANSWER, DATA);
  assert.match(html, /^<div class="cite-root" id="cite" data-marker-style="number">/);
  const markers = html.match(/<a class="cite-marker__link"[^>]*>\d+<\/a>/g) ?? [];
  assert.equal(markers.length, 3, html);
  assert.match(html, /<section class="cite-footnotes" role="doc-endnotes"/);
  assert.match(html, /<li class="cite-footnote" id="cite-fn-1"/);
  assert.match(html, /href="https:\/\/en\.wikipedia\.org\/wiki\/Paris"/);
  assert.ok(html.includes('Lyon &lt;guide&gt; &amp; &quot;food&quot;'), 'title escaped');
  assert.ok(!html.includes('<guide>'), 'raw title leaked');
  assert.ok(!html.includes('[1]'), 'literal marker left');
  assert.ok(!html.includes('cite-panel'), 'panel without options.panel');
});

await test('renderToString: panel, idPrefix and theme options', () => {
  const html = citekit.renderToString(ANSWER, DATA, { panel: true, idPrefix: 'answer7', theme: 'dark', markerStyle: 'grouped' });
  // The root a mounted view has: its marker style named, the panel with its id.
  assert.match(html, /^<div class="cite-root cite-theme-dark cite-root--with-panel" id="answer7" data-marker-style="grouped">/);
  assert.match(html, /<aside class="cite-panel" id="answer7-panel" aria-labelledby="answer7-panel-title">/);
  assert.match(html, /id="answer7-fn-1"/);
  assert.ok(!/id="cite-/.test(html), 'default prefix left');
});

await test('renderToString never throws on bad data', () => {
  const cyclic = {};
  cyclic.self = cyclic;
  for (const data of ['{not json', cyclic, { a: 1n }, 42, [1, 2]]) {
    const html = citekit.renderToString('Still shown [1].', data, { format: 'citation_map' });
    assert.match(html, /Still shown/);
  }
});

await test('parse: the documented JSON shape as plain objects, utf16 offsets by default', () => {
  const r = citekit.parse('Émile 😀 cites [1].', { 1: { title: 'T', source: 'https://a.example/x' } });
  assert.equal(Object.getPrototypeOf(r), Object.prototype);
  assert.equal(r.format, 'citation_map');
  assert.equal(r.text, 'Émile 😀 cites.');
  assert.equal(r.citations.length, 1);
  const c = r.citations[0];
  assert.equal(r.text.slice(c.start, c.end), 'Émile 😀 cites');
  assert.deepEqual(c.sources, ['1']);
  assert.equal(r.sources[0].domain, 'a.example');
  const r8 = citekit.parse('Émile 😀 cites [1].', { 1: { title: 'T', source: 'https://a.example/x' } }, { positionEncoding: 'utf8' });
  assert.equal(r8.citations[0].end, Buffer.byteLength('Émile 😀 cites'));
});

await test('parse: data as JSON text, as an object and as an sse stream', () => {
  const a = citekit.parse(ANSWER, JSON.stringify(DATA));
  const b = citekit.parse(ANSWER, DATA);
  assert.deepEqual(a, b);
  const sse = 'data: {"type": "token", "content": "Hi [1]."}\n\ndata: {"type": "citations", "data": {"1": {"title": "S", "source": "https://s.example/"}}}\n\ndata: [DONE]\n\n';
  const s = citekit.parse(null, sse, { format: 'sse' });
  assert.equal(s.format, 'sse');
  assert.equal(s.text, 'Hi.');
  assert.equal(s.sources[0].title, 'S');
});

// Regression: a source with only a url showed as "Untitled source".
await test('renderToString: a source with only a url shows its domain and readable path, a refused url the untitled label', () => {
  const completion = {
    id: 'p1',
    model: 'sonar',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content: 'The Louvre is closed on Tuesdays [1]. Click here [2].' } }],
    citations: ['https://www.louvre.fr/en/visit/hours-admission', 'javascript:alert(1)'],
  };
  const r = citekit.parse(null, completion);
  assert.equal(r.sources[0].title, undefined, 'parse keeps the input (no title)');
  const html = citekit.renderToString(null, completion, { panel: true });
  assert.match(html, /<span class="cite-source__title" dir="auto">louvre\.fr › hours admission<\/span>/);
  assert.match(html, /louvre\.fr › hours admission<\/a>/, 'the footnote');
  assert.match(html, /<span class="cite-source__title" dir="auto">Untitled source<\/span>/);
  assert.doesNotMatch(html, /javascript/);
});

await test('parse throws on not-the-format data with a code, and on bad options naming them', () => {
  assert.throws(() => citekit.parse('x', '{not json'), (e) => e instanceof Error && e.code === 'invalid-json' && /^citekit: /.test(e.message));
  assert.throws(() => citekit.parse('x', null, { format: 'nope' }), /citekit: invalid option `format`: unknown format `nope`/);
  assert.throws(() => citekit.parse('x', null, { markerStyle: 3 }), /invalid option `markerStyle`/);
  assert.throws(() => citekit.parse(42, null), /`answer` must be a string, null or undefined/);
  const cyclic = {};
  cyclic.self = cyclic;
  assert.throws(() => citekit.parse('x', cyclic), /citekit: `data` could not be converted to JSON/);
  assert.throws(() => citekit.parse('x', { n: 1n }), /citekit: `data` could not be converted to JSON.*BigInt/);
  // Unknown option keys are ignored.
  assert.equal(citekit.parse('x', null, { someFutureOption: true }).text, 'x');
});

await test('parse: lone surrogates become U+FFFD with an invalid-utf16 diagnostic', () => {
  const r = citekit.parse('bad \ud800 text [1].', { 1: { title: 'T\udc00itle', source: 'https://a.example/' } });
  assert.equal(r.text, 'bad \ufffd text.');
  assert.equal(r.sources[0].title, 'T\ufffditle');
  const d = r.diagnostics.find((x) => x.code === 'invalid-utf16');
  assert.ok(d, JSON.stringify(r.diagnostics));
  assert.equal(d.severity, 'warning');
  const ok = citekit.parse('fine \u{1f600} [1].', { 1: { title: 'T\u{1f600}', source: 'https://a.example/' } });
  assert.ok(!ok.diagnostics.some((x) => x.code === 'invalid-utf16'));
});

await test('mount under Node is a clear Error, not a crash', () => {
  assert.throws(() => citekit.mount({}, {}), /citekit: mount: `element` must be an HTML element/);
});

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
