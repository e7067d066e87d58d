// Checks of examples/ai-sdk/ (Vite + React 19 + `ai` + @ai-sdk/react useChat, citekit's
// <CitedAnswer message streaming>) in headless Chromium. The app's transport answers
// with a UI message stream recorded from the real SDK (tests/recorded/ai-sdk/), cut
// into small chunks with delays. A MutationObserver in the page records the answer
// after every DOM change while it streams; the checks read those renders:
// - no raw marker syntax (`[1`, `【`, `[[`) is ever visible outside code;
// - every marker shown (while streaming and at the end) sits right after words its
//   sources support (the case's expectations below), and names only those sources;
// - the view is never mounted again while the message grows (one root node), and a
//   block shown complete keeps its DOM node to the end;
// - the final answer equals a one-shot render of the final UIMessage (`mount(el,
//   {data: message})` on the plain page).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, assert, eq } from './lib.mjs';

const RECORDED = join(ROOT, 'tests', 'recorded', 'ai-sdk');

/**
 * Per recorded case: which words each source supports (`after`: the words a marker
 * naming `url` follows), and text that must show as code.
 */
export const AI_SDK_CASES = [
  {
    name: 'openai-web-search',
    what: 'OpenAI url_citation positions after accents, CJK and an emoji; one source cited twice',
    cites: [
      { after: 'with about 447,000 inhabitants in 2024', url: 'https://www.stadt-zuerich.ch/de/politik-und-verwaltung/statistik-und-daten.html' },
      { after: 'In Japanese it is written チューリッヒ', url: 'https://ja.wikipedia.org/wiki/チューリッヒ' },
      { after: 'the Zürichsee, is 40 km long', url: 'https://en.wikipedia.org/wiki/Zürich' },
      { after: 'Zürich also hosts ETH', url: 'https://en.wikipedia.org/wiki/Zürich' },
    ],
  },
  {
    name: 'perplexity-citations',
    what: 'Perplexity [n] markers numbering source-url parts',
    cites: [
      { after: 'orbits Earth about every 90 minutes', url: 'https://www.nasa.gov/humans-in-space/the-international-space-station/' },
      { after: 'orbits Earth about every 90 minutes', url: 'https://en.wikipedia.org/wiki/International_Space_Station' },
      { after: 'of five space agencies', url: 'https://en.wikipedia.org/wiki/International_Space_Station' },
      { after: 'including ESA', url: 'https://www.esa.int/Science_Exploration/Human_and_Robotic_Exploration/International_Space_Station' },
    ],
  },
  {
    name: 'perplexity-edge-cases',
    what: 'a code block holding [1], a javascript: url, non-ASCII text before markers',
    cites: [
      { after: 'plusieurs octets par caractère', url: 'https://doc.rust-lang.org/book/ch08-02-strings.html' },
      { after: 'plusieurs octets par caractère', url: 'https://ja.wikipedia.org/wiki/UTF-8' },
      // The javascript: url is kept as a source, shown without a link.
      { after: 'Voir aussi ce lien', url: '(no link)' },
      { after: 'et la documentation', url: 'https://doc.rust-lang.org/book/ch08-02-strings.html' },
    ],
    code: 'let x = v[1];',
  },
  {
    name: 'anthropic-web-search',
    what: 'Anthropic web search citations (cited text parts) after CJK and an emoji',
    cites: [
      { after: 'Apple reopened Apple Ginza in Tokyo on Friday, September 26', url: 'https://www.apple.com/newsroom/2025/09/the-all-new-apple-ginza-opens-this-friday-september-26-in-tokyo/' },
      { after: 'known in Japanese as 「Apple 銀座」 🍎', url: 'https://www.apple.com/jp/newsroom/2025/09/apple-ginza-reopens/' },
      { after: 'It opened to customers at 10 a.m. JST', url: 'https://www.apple.com/newsroom/2025/09/the-all-new-apple-ginza-opens-this-friday-september-26-in-tokyo/' },
    ],
  },
  {
    name: 'gemini-grounding',
    // Also run with the full module loaded first: both modules read grounding supports
    // (the first has the provider formats), and the run without it is the
    // `first module` one of elementMessageChecks.
    formats: true,
    what: 'Gemini grounding supports (UTF-8 byte segments) forwarded as message metadata',
    cites: [
      { after: 'c’est le plus haut sommet des Alpes', url: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQGm1' },
      { after: 'c’est le plus haut sommet des Alpes', url: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQHx2' },
      { after: 'atteint en 1786 par Balmat et Paccard', url: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQGm1' },
      { after: 'atteint en 1786 par Balmat et Paccard', url: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQKp3' },
    ],
  },
];

/**
 * Installed in the page before it loads: records the assistant answer after every DOM
 * change (MutationObserver callbacks run after each batch of changes, that is after
 * every render).
 */
function recordRenders() {
  const raw = /\[\d|\[\s*$|【|\[\[/;
  window.aiSdk = { renders: [], raw: [], roots: new Set(), blocksSeen: [], lastBody: null };
  const textBefore = (body, node) => {
    const range = document.createRange();
    range.setStart(body, 0);
    range.setEndBefore(node);
    const frag = range.cloneContents();
    for (const m of frag.querySelectorAll('.cite-marker')) m.remove();
    return frag.textContent;
  };
  const snapshot = () => {
    const answer = document.querySelector('[data-message-id] .cite-root');
    const body = answer?.querySelector('.cite-answer__body');
    if (!body) return;
    const s = window.aiSdk;
    s.roots.add(answer);
    s.lastBody = body;
    // What a reader sees of the prose: markers and code left out.
    const prose = body.cloneNode(true);
    for (const x of prose.querySelectorAll('.cite-marker, pre, code')) x.remove();
    const text = prose.textContent;
    if (raw.test(text)) s.raw.push(text);
    const markers = [...body.querySelectorAll('.cite-marker')].map((m) => ({
      before: textBefore(body, m).slice(-120),
      links: [...m.querySelectorAll('.cite-marker__link')].map((a) => a.getAttribute('href') ?? a.textContent),
      numbers: [...m.querySelectorAll('.cite-marker__link')].map((a) => a.textContent.trim()),
    }));
    // Blocks other than the last are complete: their nodes must stay.
    const blocks = [...body.children];
    for (const b of blocks.slice(0, -1)) if (!s.blocksSeen.includes(b)) s.blocksSeen.push(b);
    s.renders.push({ text: body.textContent, markers });
  };
  new MutationObserver(snapshot).observe(document, {
    subtree: true,
    childList: true,
    characterData: true,
  });
}

/** The answer's HTML with its per-view id prefix made neutral. */
function normalized(html) {
  // `data-panel` says where the panel fell in the page's layout (`beside` or `below`
  // the answer): the example's chat column and the one-shot page differ in width.
  return html
    .replace(/\bcite\d+(?=[-"])/g, 'cite')
    .replace(/ aria-busy="[^"]*"/g, '')
    .replace(/ data-panel="(?:beside|below)"/g, '');
}

/** Where two texts first differ, with some context (short enough to read in a log). */
function sameHtml(actual, expected, what) {
  if (actual === expected) return;
  let i = 0;
  while (i < actual.length && actual[i] === expected[i]) i++;
  const at = (s) => JSON.stringify(s.slice(Math.max(0, i - 80), i + 120));
  throw new Error(`${what}: they differ at ${i} of ${expected.length}:\n         got      ${at(actual)}\n         expected ${at(expected)}`);
}

/**
 * The url each source number of a mounted answer links to (from its footnotes);
 * `(no link)` for a source shown without one (an unsafe url).
 */
function sourceUrls(root) {
  const urls = {};
  for (const li of root.querySelectorAll('.cite-footnotes .cite-footnote[data-source]')) {
    const link = li.querySelector('a.cite-footnote__title[href]');
    urls[li.getAttribute('data-source')] = link ? link.getAttribute('href') : '(no link)';
  }
  return urls;
}

/**
 * Every state of the UIMessage the real SDK builds from a recorded UI message stream
 * (readUIMessageStream, what useChat renders one after the other), as JSON values.
 */
export async function messageStates(name) {
  const { parseJsonEventStream, readUIMessageStream, uiMessageChunkSchema } = await import('ai');
  const text = readFileSync(join(RECORDED, `${name}.stream.txt`));
  const body = new ReadableStream({
    start(c) {
      c.enqueue(new Uint8Array(text));
      c.close();
    },
  });
  const chunks = parseJsonEventStream({ stream: body, schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream({
      transform(part, controller) {
        if (!part.success) throw part.error;
        controller.enqueue(part.value);
      },
    }),
  );
  const states = [];
  for await (const m of readUIMessageStream({ stream: chunks, terminateOnError: true })) states.push(JSON.parse(JSON.stringify(m)));
  return states;
}

/**
 * `<cited-answer>.message` on the plain page, given every state of the real SDK's
 * message one after the other with `streaming` on, then `streaming` off: the same
 * render-by-render checks as the example app.
 */
export async function elementMessageChecks(tally, context, plainUrl) {
  // Each case with the module it needs loaded first; and one with provider positions in
  // the first module alone (it reads the providers' formats: the view stays there).
  const runs = [...AI_SDK_CASES, { ...AI_SDK_CASES.find((c) => c.name === 'gemini-grounding'), formats: false, first: true }];
  for (const c of runs) {
    const label = c.first ? `${c.name}, first module` : c.name;
    const t = (name, fn) => tally.test(`<cited-answer>.message: ${name.replace(c.name, label)}`, fn);
    const states = await messageStates(c.name);
    const page = await context.newPage();
    const errors = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    let final = null;
    await t(`${c.name}: ${states.length} states of the SDK's UIMessage set one by one while streaming`, async () => {
      await page.addInitScript(`(${recordRenders})()`);
      await page.goto(`${plainUrl}/index.html`);
      await page.waitForFunction(() => window.citekitReady === true, null, { timeout: 15000 });
      await page.evaluate(async ({ states, formats }) => {
        // The full module loaded first where the case says so (a page that called
        // `loadFormats()` or `init(..., { formats: 'all' })`).
        if (formats) await window.citekit.loadFormats();
        const main = document.createElement('div');
        main.setAttribute('data-message-id', 'm');
        const el = document.createElement('cited-answer');
        el.options = { panel: true };
        el.streaming = true;
        main.append(el);
        document.body.append(main);
        for (const m of states) {
          el.message = m;
          await new Promise((ok) => setTimeout(ok, 5));
        }
        el.streaming = false;
        await new Promise((ok) => setTimeout(ok, 50));
      }, { states, formats: Boolean(c.formats) });
      final = await page.evaluate(`(${readAnswer})(${sourceUrls})`);
      eq(errors, [], 'console errors');
    });
    if (final !== null) {
      await t(`${c.name}: no raw marker in ${final.renders} renders; markers only on the words their sources support`, () => {
        eq(final.raw, [], 'prose texts showing raw marker syntax');
        eq(misplaced(final, c), [], 'misplaced markers');
        eq(missing(final, c), [], 'citations missing at the end');
        // The first module reads provider positions too: never mounted again.
        eq(final.roots, 1, 'answer roots (a new one means it was mounted again)');
        eq(final.blocksDropped, [], 'complete blocks whose node was replaced');
      });
      await t(`${c.name}: the final answer equals a one-shot render of the final state`, async () => {
        const oneShot = await page.evaluate(async (message) => {
          const el = document.createElement('div');
          document.body.append(el);
          window.citekit.mount(el, { data: message, panel: true });
          await new Promise((ok) => setTimeout(ok, 50));
          return el.querySelector('.cite-root').outerHTML;
        }, states.at(-1));
        sameHtml(normalized(final.html), normalized(oneShot), 'streamed answer vs one-shot render');
      });
    }
    await page.close();
  }
}

/**
 * Bad `message` values on the plain page: nothing throws, nothing shows as answer, and
 * the console says why once; a good message afterwards shows.
 */
export async function badMessageChecks(tally, context, plainUrl) {
  await tally.test('<cited-answer>.message: a value that is not a message is reported on the console, then a message shows', async () => {
    const page = await context.newPage();
    const warnings = [];
    const errors = [];
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    try {
      await page.goto(`${plainUrl}/index.html`);
      await page.waitForFunction(() => window.citekitReady === true, null, { timeout: 15000 });
      const r = await page.evaluate(async () => {
        const tick = () => new Promise((ok) => setTimeout(ok, 20));
        const el = document.createElement('cited-answer');
        el.id = 'bad-message';
        document.body.append(el);
        el.message = { hello: 'world' };
        await tick();
        const shown = el.querySelector('.cite-answer__body')?.textContent ?? null;
        el.message = 'not json at all';
        await tick();
        el.message = { id: 'm', role: 'assistant', parts: [{ type: 'text', text: 'Paris [1].', state: 'done' }, { type: 'source-url', sourceId: 's', url: 'javascript:alert(1)', title: 'Bad link' }] };
        await tick();
        return {
          shown,
          after: el.querySelector('.cite-answer__body').textContent.trim(),
          markers: el.querySelectorAll('.cite-marker').length,
          scriptLinks: [...el.querySelectorAll('a[href]')].filter((a) => a.getAttribute('href').startsWith('javascript:')).length,
        };
      });
      eq(errors, [], 'console errors');
      eq(r.shown, '', 'answer shown for a value that is not a message');
      assert(warnings.some((w) => /citekit: the citation data could not be read as given: undetected-format/.test(w)), `no warning names the data: ${warnings.join(' | ')}`);
      assert(warnings.some((w) => /`message` is not a message/.test(w)), `no warning for the text: ${warnings.join(' | ')}`);
      eq(r.after, 'Paris1.', 'the good message that followed (its marker numbered 1)');
      eq(r.markers, 1, 'markers');
      eq(r.scriptLinks, 0, 'javascript: links');
    } finally {
      await page.close();
    }
  });
}

/** The plain page whose .wasm is answered with an HTML page: a message shows as text. */
export async function messageFallbackChecks(tally, context, failingUrl) {
  await tally.test('<cited-answer>.message, the .wasm not loading: the text parts show as plain text as written', async () => {
    const page = await context.newPage();
    try {
      await page.goto(`${failingUrl}/index.html`);
      const text = await page.evaluate(async () => {
        const el = document.createElement('cited-answer');
        document.body.append(el);
        el.message = {
          id: 'm',
          role: 'assistant',
          parts: [
            { type: 'step-start' },
            { type: 'text', text: 'Paris is the capital [1].', state: 'done' },
            { type: 'source-url', sourceId: 's', url: 'https://en.wikipedia.org/wiki/Paris' },
          ],
        };
        for (let i = 0; i < 100 && !el.querySelector('.cite-fallback'); i++) await new Promise((ok) => setTimeout(ok, 50));
        return el.querySelector('.cite-fallback .cite-answer__body')?.textContent ?? null;
      });
      eq(text, 'Paris is the capital [1].', 'fallback text');
    } finally {
      await page.close();
    }
  });
}

/** Markers of any render that name a source whose words they do not follow. */
function misplaced(final, c) {
  const wrong = [];
  for (const [k, r] of final.history.entries()) {
    for (const m of r.markers) {
      const urls = m.numbers.map((n) => final.urls[n]);
      const ok = urls.every((url) => c.cites.some((x) => x.url === url && endsWithWords(m.before, x.after)));
      if (!ok) wrong.push(`render ${k}: marker ${m.numbers.join(',')} (${urls.join(' ')}) after …${m.before.slice(-50)}`);
    }
  }
  return wrong.slice(0, 5);
}

/** Expected citations the last render does not show. */
function missing(final, c) {
  const last = final.history.at(-1);
  return c.cites
    .filter((x) => !last.markers.some((m) => endsWithWords(m.before, x.after) && m.numbers.some((n) => final.urls[n] === x.url)))
    .map((x) => `${x.url} after "${x.after}"`);
}

export async function aiSdkChecks(tally, context, appUrl, plainUrl) {
  const t = (name, fn) => tally.test(`ai-sdk example: ${name}`, fn);
  for (const c of AI_SDK_CASES) {
    const page = await context.newPage();
    const errors = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    let final = null;
    await t(`${c.name}: useChat streams the recorded answer (${c.what})`, async () => {
      await page.addInitScript(`(${recordRenders})()`);
      const res = await page.goto(`${appUrl}/index.html?case=${c.name}&chunk=24&delay=8`);
      assert(res.ok(), `HTTP ${res.status()}`);
      await page.click('button[type="submit"]');
      await page.waitForSelector('[data-status="streaming"]', { timeout: 15000 });
      await page.waitForSelector('[data-status="ready"]', { timeout: 30000 });
      // The last render after `streaming` turned off (finish) has run.
      await page.waitForTimeout(100);
      final = await page.evaluate(`(${readAnswer})(${sourceUrls})`);
      eq(errors, [], 'console errors');
      assert(final.renders > 3, `only ${final.renders} renders recorded: the answer did not stream`);
    });
    if (final === null) {
      await page.close();
      continue;
    }
    await t(`${c.name}: no raw marker syntax in any of ${final.renders} renders`, () => {
      eq(final.raw, [], 'prose texts showing raw marker syntax');
    });
    await t(`${c.name}: every marker, while streaming and at the end, follows words its sources support`, () => {
      eq(misplaced(final, c), [], 'misplaced markers');
      eq(missing(final, c), [], 'citations missing at the end');
    });
    await t(`${c.name}: the view is mounted once and complete blocks keep their nodes`, () => {
      eq(final.roots, 1, 'answer roots seen while streaming (a new one means it was mounted again)');
      eq(final.blocksDropped, [], 'complete blocks whose node was replaced');
      if (c.code) assert(final.code.some((x) => x.includes(c.code)), `code ${c.code} not shown as code: ${JSON.stringify(final.code)}`);
    });
    await t(`${c.name}: the final answer equals a one-shot render of the final UIMessage`, async () => {
      const message = JSON.parse(readFileSync(join(RECORDED, `${c.name}.message.json`), 'utf8'));
      const plain = await context.newPage();
      try {
        await plain.goto(`${plainUrl}/index.html`);
        await plain.waitForFunction(() => window.citekitReady === true, null, { timeout: 15000 });
        const oneShot = await plain.evaluate(async (message) => {
          const { mount, loadFormats } = window.citekit;
          await loadFormats();
          const el = document.createElement('div');
          document.body.append(el);
          mount(el, { data: message, panel: true, footnotes: true, copyButton: false });
          await new Promise((ok) => setTimeout(ok, 50));
          return el.querySelector('.cite-root').outerHTML;
        }, message);
        sameHtml(normalized(final.html), normalized(oneShot), 'streamed answer vs one-shot render');
      } finally {
        await plain.close();
      }
    });
    await page.close();
  }
}

/** In the page: the recorded renders and the final answer. */
function readAnswer(sourceUrlsFn) {
  const s = window.aiSdk;
  const root = document.querySelector('[data-message-id] .cite-root');
  const body = root.querySelector('.cite-answer__body');
  return {
    renders: s.renders.length,
    history: s.renders,
    raw: s.raw,
    roots: s.roots.size,
    blocksDropped: s.blocksSeen.filter((b) => !body.contains(b)).map((b) => b.textContent.slice(0, 60)),
    urls: sourceUrlsFn(root),
    code: [...body.querySelectorAll('pre')].map((p) => p.textContent),
    html: root.outerHTML,
  };
}

/** Whether `text` ends with `words` (blanks and closing punctuation after them ignored). */
function endsWithWords(text, words) {
  const trim = (s) => s.replace(/[\s.,;:!?)\]」]+$/u, '');
  return trim(text).endsWith(trim(words));
}
