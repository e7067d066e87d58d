// A marker still arriving never shows, whatever the data's format: every
// fixture of every format folder (tests/fixtures/<format>/) is streamed in small chunks
// into a mounted view that has its data from the start, and after every append the
// text shown must not end in a partial marker. The host twin, over the stream core, is
// `a_marker_still_arriving_never_shows_whatever_the_datas_format` in
// tests/stream_props.rs; the Leptos one is in tests/stream_browser.rs.
//
// Posthoc, scintilla and payload data and canonical HTML answers are read by the
// package's second module: on a fresh page the views start in the first
// module, which shows the answer without citations until the second comes, so the
// stream runs once there (synchronously, before the second module can arrive) and once
// more after `loadFormats()`.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, assert, eq } from './lib.mjs';

const FORMATS = [
  'anthropic',
  'canonical',
  'citation_map',
  'gemini',
  'openai',
  'payload',
  'perplexity',
  'posthoc',
  'scintilla',
  'sse',
  'stored',
];

/** The formats read by the second module only (canonical: its HTML, JSON and YAML answers). */
const SECOND_MODULE = ['payload', 'posthoc', 'scintilla'];

/**
 * The partial marker `text` ends in, or null: the forms SPEC section 7 says a stream
 * holds back (`[`, `[1`, `[1,`, `[[S:1,`, `[^no`, `[[USAGE:1`, `【1`, a private-use
 * marker without its `\ue201`, a `<sup` not yet closed). Written from the marker
 * grammar (docs/markers.md); the same rules as `partial_marker_at_end` of
 * tests/support/partial_marker.rs. Runs in the page too (as its source text).
 */
export function partialMarkerAtEnd(text) {
  const line = text.slice(text.lastIndexOf('\n') + 1);
  const privateUse = line.lastIndexOf('\ue200');
  if (privateUse >= 0 && !line.slice(privateUse).includes('\ue201')) return line.slice(privateUse);
  const lt = line.lastIndexOf('<');
  if (lt >= 0) {
    const rest = line.slice(lt).toLowerCase();
    if ('<sup'.startsWith(rest) || (rest.startsWith('<sup') && !rest.includes('</sup>'))) return line.slice(lt);
  }
  // A number list, or one number and a `#suffix` (anything but code or tags).
  const numeric = (s) => {
    const hash = s.indexOf('#');
    if (hash >= 0) return /^\d+$/.test(s.slice(0, hash)) && !/[`<>]/.test(s.slice(hash + 1));
    return /^[\d, \-–]*$/.test(s);
  };
  const i = Math.max(line.lastIndexOf('['), line.lastIndexOf('【'), line.lastIndexOf('［'));
  if (i < 0) return null;
  const opener = line[i];
  const body = line.slice(i + 1);
  let start = i;
  while (start > 0 && line[start - 1] === '[') start--;
  const whole = line.slice(start);
  if (opener !== '[') return !/[】］]/.test(body) && numeric(body) ? whole : null;
  // A bracket run longer than any marker is text (docs/streaming.md, Hold-back).
  if (body.includes(']') || [...body].length > 40) return null;
  const sid = body === 'S' || (body.startsWith('S:') && numeric(body.slice(2)));
  const usage = 'USAGE:'.startsWith(body) || (body.startsWith('USAGE:') && numeric(body.slice(6)));
  const footnote = body.startsWith('^') && !/\s/.test(body.slice(1));
  return numeric(body) || sid || usage || footnote ? whole : null;
}

/**
 * The text a provider's object holds (markers still in it), as an app streams it while
 * the object it passed early already carries it: Anthropic text blocks, an OpenAI
 * Responses output or chat completion, Gemini's first candidate, Perplexity's message,
 * a payload's `text`, a canonical envelope's `content`, a chat response's `answer`.
 */
function dataText(data) {
  if (data === null || typeof data !== 'object') return '';
  const texts = (items, keep) =>
    (Array.isArray(items) ? items : [])
      .filter(keep)
      .map((b) => (typeof b.text === 'string' ? b.text : typeof b.text?.value === 'string' ? b.text.value : ''))
      .join('');
  if (Array.isArray(data)) return texts(data, (b) => b?.type === 'text');
  if (data.type === 'text' || data.type === 'output_text') return typeof data.text === 'string' ? data.text : '';
  if (Array.isArray(data.output)) {
    return data.output
      .map((item) => (item?.type === 'output_text' ? item.text ?? '' : texts(item?.content, (b) => b?.type === 'output_text')))
      .filter((text) => text)
      .join('\n\n');
  }
  const message = data.choices?.[0]?.message ?? data.choices?.[0]?.delta ?? (data.role ? data : null);
  if (typeof message?.content === 'string') return message.content;
  const candidate = data.candidates?.[0] ?? (data.content?.parts ? data : null);
  if (candidate) return texts(candidate.content?.parts, (p) => !p?.thought);
  if (Array.isArray(data.content)) return texts(data.content, (b) => b?.type === 'text');
  for (const key of ['content', 'text', 'answer', 'response']) {
    if (typeof data[key] === 'string') return data[key];
  }
  return '';
}

/** Every fixture case of every format folder that has text to stream. */
export function streamCases() {
  const out = [];
  for (const format of FORMATS) {
    const dir = join(ROOT, 'tests', 'fixtures', format);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
      const v = JSON.parse(readFileSync(join(dir, file), 'utf8'));
      (v.cases ?? [v]).forEach((c, i) => {
        if (c.error !== undefined) return;
        // A JSON or YAML answer is a document: its `[` is the document's own syntax.
        if (['json', 'yaml'].includes(c.expected?.contentKind)) return;
        const sse = typeof c.data === 'string' && (c.answer ?? null) === null;
        const text = sse ? c.data : c.answer || dataText(c.data);
        if (!text) return;
        out.push({ name: `${format}/${file}#${i}`, format, sse, text, data: c.data ?? null, options: c.options ?? {} });
      });
    }
  }
  // Data the stream refuses (JSON that does not parse): the answer is parsed whole,
  // held back all the same.
  out.push({
    name: 'refused data',
    format: 'refused',
    sse: false,
    text: 'Paris is the capital of France [1]. Lyon [[S:2]] and Nice 【3】 too [^4].',
    data: '{"not json',
    options: {},
  });
  return out;
}

/** Streams every case in the page, in chunks of 1, 2, 3, 1, ... characters. */
function streamAll(cases) {
  const { mount } = window.citekit;
  const failures = [];
  const streamed = {};
  const firstModule = {};
  let appends = 0;
  // The text shown: the last block of the answer, without its markers and the line
  // break the markup leaves after it.
  const shown = (el) => {
    const last = el.querySelector('.cite-answer__body')?.lastElementChild;
    if (!last) return '';
    const copy = last.cloneNode(true);
    for (const m of copy.querySelectorAll('.cite-marker')) m.remove();
    return copy.textContent.trimEnd();
  };
  for (const c of cases) {
    const el = document.createElement('div');
    document.body.append(el);
    const view = c.sse
      ? mount(el, { ...c.options, answer: null, data: '', format: 'sse' })
      : mount(el, { ...c.options, answer: '', data: c.data });
    const chars = [...c.text];
    for (let k = 0, step = 0; k < chars.length; step++) {
      const n = 1 + (step % 3);
      const chunk = chars.slice(k, k + n).join('');
      k += n;
      view.append(chunk);
      appends++;
      const partial = window.partialMarkerAtEnd(shown(el));
      if (partial !== null) {
        failures.push(`${c.name}: after ${JSON.stringify(chars.slice(Math.max(0, k - 40), k).join(''))} the text shown ends in ${JSON.stringify(partial)}`);
        break;
      }
    }
    if (el.getAttribute('aria-busy') === 'true') firstModule[c.format] = (firstModule[c.format] ?? 0) + 1;
    streamed[c.format] = (streamed[c.format] ?? 0) + 1;
    view.destroy();
    el.remove();
  }
  return { failures, streamed, firstModule, appends };
}

/**
 * The issue's example: a Perplexity stream's first chunk (its `citations` and
 * `search_results`, and a `delta` with the first words) and an OpenAI Responses output
 * passed early with `update({data})`, then `append('Paris is the capital of France [')`.
 * Returns the text shown for each, markers taken out.
 */
function issueExample() {
  const url = 'https://en.wikipedia.org/wiki/Paris';
  const perplexityChunk = {
    id: 'p1',
    model: 'sonar',
    object: 'chat.completion.chunk',
    citations: [url],
    search_results: [{ title: 'Paris', url }],
    choices: [{ index: 0, delta: { role: 'assistant', content: 'Paris' } }],
  };
  const openai = {
    object: 'response',
    output: [
      {
        type: 'message',
        role: 'assistant',
        content: [
          {
            type: 'output_text',
            text: 'Paris is the capital of France.',
            annotations: [{ type: 'url_citation', start_index: 0, end_index: 30, url, title: 'Paris' }],
          },
        ],
      },
    ],
  };
  const shown = {};
  for (const [name, data] of Object.entries({ perplexityChunk, openai })) {
    const el = document.createElement('div');
    document.body.append(el);
    const view = window.citekit.mount(el, { answer: '', data: null });
    view.update({ data });
    view.append('Paris is the capital of France [');
    // Without its markers (the annotation's marker is live once the second module is in).
    const body = el.querySelector('.cite-answer__body').cloneNode(true);
    for (const m of body.querySelectorAll('.cite-marker')) m.remove();
    shown[name] = body.textContent.trim();
    view.destroy();
    el.remove();
  }
  return shown;
}

/** The check, on a fresh page of `url` (only the first module loaded). */
export async function partialMarkerChecks(t, context, url) {
  const cases = streamCases();
  await t("a marker still arriving never shows, whatever the data's format (every format's fixtures, streamed with their data, in both modules)", async () => {
    const page = await context.newPage();
    try {
      const res = await page.goto(url);
      assert(res.ok(), `HTTP ${res.status()}`);
      await page.waitForFunction(() => window.citekitReady === true, null, { timeout: 15000 });
      await page.evaluate(`window.partialMarkerAtEnd = ${partialMarkerAtEnd.toString()}`);
      const expected = { perplexityChunk: 'Paris is the capital of France', openai: 'Paris is the capital of France' };
      // In the first module: provider data waits there for the second one.
      eq(await page.evaluate(issueExample), expected, "the issue's example (first module)");
      const first = await page.evaluate(streamAll, cases);
      for (const format of [...FORMATS, 'refused']) assert(first.streamed[format] > 0, `no ${format} case streamed`);
      for (const format of SECOND_MODULE) {
        assert(first.firstModule[format] > 0, `no ${format} case streamed in the first module: ${JSON.stringify(first.firstModule)}`);
      }
      eq(first.failures, [], 'partial markers shown (first module)');
      // In the second module, once loaded.
      await page.evaluate(() => window.citekit.loadFormats());
      eq(await page.evaluate(issueExample), expected, "the issue's example (second module)");
      const second = await page.evaluate(streamAll, cases);
      eq(second.firstModule, {}, 'views left in the first module after loadFormats()');
      eq(second.failures, [], 'partial markers shown (second module)');
      console.log(`       ${cases.length} cases, ${first.appends + second.appends} appends checked`);
    } finally {
      await page.close();
    }
  });
}
