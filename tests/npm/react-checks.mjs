// Checks of the React app (react-app/, a development build: StrictMode runs every
// effect twice) in headless Chromium: cited-answer/react's <CitedAnswer> streaming, reorder,
// theme, unmount, leaks; the example of examples/js/react.jsx; a hydrated <cited-answer>.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RAW_MARKER } from './host-checks.mjs';
import { ROOT, assert, eq, resolveDev } from './lib.mjs';

const ANSWER =
  'Paris is the capital of France [1]. The Eiffel Tower was completed in 1889 [2][3].\n\n' +
  'Lyon is known for its cuisine [3].';
const DATA = {
  1: { title: 'Paris - Wikipedia', source: 'https://en.wikipedia.org/wiki/Paris' },
  2: { title: 'Eiffel Tower history', source: 'https://www.toureiffel.paris/en' },
  3: { title: 'Lyon travel guide', source: 'https://www.lonelyplanet.com/france/lyon' },
};

/** Records every text an answer body shows (each DOM change) that holds a raw marker. */
function watchRaw(selector) {
  window.rawSeen = window.rawSeen ?? {};
  const seen = (window.rawSeen[selector] = []);
  const raw = /\[\d|\[\s*$|【|\[\[/;
  const check = () => {
    for (const body of document.querySelectorAll(`${selector} .cite-answer__body`)) {
      if (raw.test(body.textContent)) seen.push(body.textContent);
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
}

export async function reactChecks(tally, context, url) {
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  const t = (name, fn) => tally.test(`react: ${name}`, fn);

  await t('the app loads (development build, StrictMode) and init() resolves', async () => {
    await page.addInitScript(`(${watchRaw})('#example'); (${watchRaw})('#msg-a'); (${watchRaw})('#msg-c');`);
    const res = await page.goto(url);
    assert(res.ok(), `HTTP ${res.status()}`);
    await page.waitForFunction(() => window.citekitReady === true && window.chat, null, { timeout: 15000 });
    eq(await page.evaluate(() => window.stats.effectRuns), 2, 'effect runs of one mount (StrictMode in a dev build)');
  });

  await t('examples/js/react.jsx streams to the end without a raw marker', async () => {
    await page.waitForFunction(
      () => document.querySelectorAll('#example .cite-answer__body .cite-marker__link').length === 4,
      null,
      { timeout: 10000 },
    );
    const r = await page.evaluate(() => ({
      raw: window.rawSeen['#example'],
      text: document.querySelector('#example .cite-answer__body').textContent,
      panel: [...document.querySelectorAll('#example .cite-panel .cite-source__title')].map((s) => s.textContent),
      roots: document.querySelectorAll('#example .cite-root').length,
    }));
    eq(r.raw, [], 'texts with a raw marker shown while it streamed');
    assert(r.text.startsWith('Rust 1.0 was released on May 15, 2015'), `text: ${r.text}`);
    eq(r.panel, ['Announcing Rust 1.0', 'The Cargo Book', 'crates.io'], 'panel');
    eq(r.roots, 1, 'views in the example');
  });

  let baseline;
  await t('<CitedAnswer>: an answer streamed 3-8 characters every 20 ms, sources at the end', async () => {
    baseline = await page.evaluate(() => ({ listeners: window.stats.windowListeners(), destroyed: window.stats.destroyed }));
    const r = await page.evaluate(
      async ({ ANSWER, DATA }) => {
        const wait = (ms) => new Promise((ok) => setTimeout(ok, ms));
        const set = (m) => window.chat.setMessages([m]);
        set({ id: 'a', text: '', data: null, streaming: true });
        let firstRoot = null;
        for (let end = 0; end < ANSWER.length; ) {
          end = Math.min(ANSWER.length, end + 3 + (end % 6));
          set({ id: 'a', text: ANSWER.slice(0, end), data: null, streaming: true });
          await wait(20);
          firstRoot = firstRoot ?? document.querySelector('#msg-a .cite-root');
        }
        const pending = document.querySelectorAll('#msg-a .cite-marker--pending').length;
        set({ id: 'a', text: ANSWER, data: DATA, streaming: true });
        await wait(30);
        set({ id: 'a', text: ANSWER, data: DATA, streaming: false });
        await wait(50);
        return {
          pending,
          sameRoot: firstRoot !== null && document.querySelector('#msg-a .cite-root') === firstRoot,
          text: document.querySelector('#msg-a .cite-answer__body').textContent,
          links: [...document.querySelectorAll('#msg-a .cite-answer__body .cite-marker__link')].map((a) => a.textContent),
          notes: document.querySelectorAll('#msg-a .cite-footnotes .cite-footnote').length,
          raw: window.rawSeen['#msg-a'],
        };
      },
      { ANSWER, DATA },
    );
    eq(r.raw, [], 'texts with a raw marker shown while it streamed');
    assert(r.pending > 0, `no pending marker before the sources came (${r.pending})`);
    assert(r.sameRoot, 'the view was re-created while the answer grew (not appended)');
    assert(r.text.includes('Lyon is known for its cuisine') && !RAW_MARKER.test(r.text), `text: ${r.text}`);
    eq(r.links, ['1', '2', '3', '3'], 'live markers');
    eq(r.notes, 3, 'footnotes');
  });

  await t('<CitedAnswer>: an answer replaced mid-stream (not growth) starts again', async () => {
    const r = await page.evaluate(async (DATA) => {
      const wait = (ms) => new Promise((ok) => setTimeout(ok, ms));
      const set = (text, streaming) => window.chat.setMessages([{ id: 'c', text, data: DATA, streaming }]);
      set('Paris is the capital of France [', true);
      await wait(40);
      set('Lyon is known for its cuisine [3', true);
      await wait(40);
      const replaced = document.querySelector('#msg-c .cite-answer__body').textContent;
      set('Lyon is known for its cuisine [3].', true);
      await wait(30);
      set('Lyon is known for its cuisine [3].', false);
      await wait(40);
      const out = {
        replaced,
        final: document.querySelector('#msg-c .cite-answer__body').textContent.trim(),
        raw: window.rawSeen['#msg-c'],
      };
      window.chat.setMessages([]);
      await wait(30);
      return out;
    }, DATA);
    eq(r.raw, [], 'texts with a raw marker shown');
    assert(r.replaced.includes('Lyon is known') && !r.replaced.includes('Paris'), `after the replacement: ${r.replaced}`);
    eq(r.final, 'Lyon is known for its cuisine1.', 'final text');
  });

  await t('<CitedAnswer>: a regenerated longer answer starts again in the same view (none destroyed), then grows', async () => {
    const r = await page.evaluate(async (DATA) => {
      const wait = (ms) => new Promise((ok) => setTimeout(ok, ms));
      const set = (text, streaming) => window.chat.setMessages([{ id: 'r', text, data: DATA, streaming }]);
      const body = () => document.querySelector('#msg-r .cite-answer__body').textContent;
      set('Paris is the capital of France [1]. The Eiffel', true);
      await wait(40);
      const root = document.querySelector('#msg-r .cite-root');
      const destroyed = window.stats.destroyed;
      set('Paris is the capital of France [1]. The Eiffel Tower was completed in 1889 [2', true);
      await wait(20);
      const regen = 'Lyon is known for its cuisine [3]. It lies where the Rhone meets the Saone, south of Paris [1].';
      set(regen, true);
      await wait(40);
      const regenerated = body();
      set(`${regen} More`, true);
      await wait(20);
      set(`${regen} More`, false);
      await wait(40);
      const out = {
        sameRoot: document.querySelector('#msg-r .cite-root') === root,
        destroyed: window.stats.destroyed - destroyed,
        regenerated,
        final: body().trim(),
        links: [...document.querySelectorAll('#msg-r .cite-answer__body .cite-marker__link')].map((a) => a.textContent),
      };
      window.chat.setMessages([]);
      await wait(30);
      return out;
    }, DATA);
    eq(r.destroyed, 0, 'views destroyed by the regeneration (the module starts again in the same view)');
    assert(r.sameRoot, 'the regenerated answer was drawn in a new root');
    assert(r.regenerated.startsWith('Lyon is known') && !r.regenerated.includes('Paris is the capital'), `after the regeneration: ${r.regenerated}`);
    eq(r.final, 'Lyon is known for its cuisine1. It lies where the Rhone meets the Saone, south of Paris2. More', 'final text');
    eq(r.links, ['1', '2'], 'markers');
  });

  await t('<CitedAnswer>: a UI message stream grown in `data` with format ai-sdk streams as sse does, ending as the final message', async () => {
    const dir = join(ROOT, 'tests/recorded/ai-sdk');
    // Mounted in the middle of the stream, right after a text delta that ends in a half
    // marker (`[1`, the recording splits `[1][2]`): held back, as for sse.
    const stream = readFileSync(join(dir, 'perplexity-citations.stream.txt'), 'utf8');
    const message = JSON.parse(readFileSync(join(dir, 'perplexity-citations.message.json'), 'utf8'));
    const cut = stream.indexOf('\n\n', stream.indexOf('"delta":"[1"')) + 2;
    assert(cut > 2, 'the recording has a delta `[1`');
    const r = await page.evaluate(
      async ({ stream, message, cut }) => {
        const wait = (ms) => new Promise((ok) => setTimeout(ok, ms));
        const set = (data, streaming) =>
          window.chat.setMessages([{ id: 'u', text: null, data, format: 'ai-sdk', streaming }]);
        set(stream.slice(0, cut), true);
        await wait(20);
        const shown = [document.querySelector('#msg-u .cite-answer__body')?.textContent ?? ''];
        let root = document.querySelector('#msg-u .cite-root');
        let rebuilt = false;
        for (let end = cut; end < stream.length; ) {
          end = Math.min(stream.length, end + 7);
          set(stream.slice(0, end), true);
          await wait(0);
          shown.push(document.querySelector('#msg-u .cite-answer__body')?.textContent ?? '');
          const now = document.querySelector('#msg-u .cite-root');
          if (root === null) root = now;
          else if (now !== root) rebuilt = true;
        }
        set(stream, false);
        await wait(50);
        const body = (id) => ({
          text: document.querySelector(`${id} .cite-answer__body`).textContent,
          links: [...document.querySelectorAll(`${id} .cite-answer__body .cite-marker__link`)].map((a) => a.textContent),
          notes: [...document.querySelectorAll(`${id} .cite-footnotes__list > li`)].map((li) => li.textContent),
        });
        const streamed = body('#msg-u');
        window.chat.setMessages([{ id: 'w', text: null, data: message, streaming: false }]);
        await wait(50);
        const whole = body('#msg-w');
        window.chat.setMessages([]);
        await wait(30);
        return { shown, rebuilt, streamed, whole };
      },
      { stream, message, cut },
    );
    for (const [i, text] of r.shown.entries()) {
      assert(!RAW_MARKER.test(text), `render ${i}: a raw marker shows: ${JSON.stringify(text)}`);
    }
    assert(r.shown[0].length > 0, 'the text before the half marker did not show at the mount');
    assert(!r.rebuilt, 'the view was mounted again while the stream grew (not appended)');
    assert(r.whole.links.length > 0, `no marker in the one-shot mount: ${JSON.stringify(r.whole)}`);
    eq(r.streamed, r.whole, 'the streamed answer equals a one-shot render of the final message');
  });

  await t('<CitedAnswer>: a keyed reorder keeps the view and its open card; so does a theme switch', async () => {
    await page.evaluate(
      ({ ANSWER, DATA }) => {
        window.chat.setMessages([
          { id: 'a', text: ANSWER, data: DATA, streaming: false },
          { id: 'b', text: 'Lyon is known for its cuisine [3].', data: DATA, streaming: false },
        ]);
      },
      { ANSWER, DATA },
    );
    await page.waitForSelector('#msg-b .cite-marker__link', { timeout: 5000 });
    await page.evaluate(() => (window.rootA = document.querySelector('#msg-a .cite-root')));
    await page.mouse.move(5, 5);
    await page.hover('#msg-a .cite-answer__body .cite-marker__link >> nth=1');
    await page.waitForSelector('#msg-a .cite-card[data-state="open"]', { timeout: 3000 });
    const r = await page.evaluate(
      async ({ ANSWER, DATA }) => {
        const wait = (ms) => new Promise((ok) => setTimeout(ok, ms));
        // Newest first: React moves the first message's node below the second.
        window.chat.setMessages([
          { id: 'b', text: 'Lyon is known for its cuisine [3].', data: DATA, streaming: false },
          { id: 'a', text: ANSWER, data: DATA, streaming: false },
        ]);
        await wait(150);
        const order = [...document.querySelectorAll('#chat .msg')].map((m) => m.id);
        const reordered = {
          order,
          sameRoot: document.querySelector('#msg-a .cite-root') === window.rootA,
          open: !!document.querySelector('#msg-a .cite-card[data-state="open"]'),
        };
        window.chat.setTheme('dark');
        await wait(150);
        return {
          reordered,
          themed: {
            dark: document.querySelector('#msg-a .cite-root').classList.contains('cite-theme-dark'),
            open: !!document.querySelector('#msg-a .cite-card[data-state="open"]'),
            sameRoot: document.querySelector('#msg-a .cite-root') === window.rootA,
          },
        };
      },
      { ANSWER, DATA },
    );
    eq(r.reordered, { order: ['msg-b', 'msg-a'], sameRoot: true, open: true }, 'after the reorder');
    eq(r.themed, { dark: true, open: true, sameRoot: true }, 'after the theme switch');
    await page.mouse.move(5, 5);
  });

  await t('<CitedAnswer>: click events reach onCitationClick', async () => {
    await page.click('#msg-b .cite-answer__body .cite-marker__link');
    await page.waitForTimeout(50);
    eq(await page.evaluate(() => window.clicks), [{ id: 'b', citation: 0, sourceId: '3', number: 1 }], 'clicks');
  });

  await t('<CitedAnswer>: unmount destroys the views; window listeners back to their count', async () => {
    const r = await page.evaluate(async () => {
      const before = window.stats.destroyed;
      window.chat.setMessages([{ id: 'b', text: 'Lyon is known for its cuisine [3].', data: null, streaming: false }]);
      await new Promise((ok) => setTimeout(ok, 50));
      const one = { gone: !document.getElementById('msg-a'), destroyed: window.stats.destroyed - before };
      window.chat.setMessages([]);
      await new Promise((ok) => setTimeout(ok, 50));
      return {
        one,
        destroyed: window.stats.destroyed - before,
        roots: document.querySelectorAll('#chat .cite-root').length,
        listeners: window.stats.windowListeners(),
      };
    });
    eq(r.one, { gone: true, destroyed: 1 }, 'after removing one message');
    eq(r.destroyed, 2, 'views destroyed after removing both');
    eq(r.roots, 0, 'roots left');
    eq(r.listeners, baseline.listeners, 'window listeners (the count before the chat had views)');
  });

  await t('<cited-answer> server-rendered and hydrated: shows its answer, then streams', async () => {
    const r = await page.evaluate(async () => {
      const wait = (ms) => new Promise((ok) => setTimeout(ok, ms));
      await window.hydration.start('Paris is the capital of France [1]. The tower');
      await wait(50);
      const el = document.getElementById('hydrated-el');
      const first = el.querySelector('.cite-answer__body')?.textContent ?? '';
      window.hydration.render('Paris is the capital of France [1]. The tower was completed in 1889 [2', true);
      await wait(50);
      const growing = el.querySelector('.cite-answer__body')?.textContent ?? '';
      window.hydration.render('Paris is the capital of France [1]. The tower was completed in 1889 [2].', false);
      await wait(50);
      return {
        server: /answer="Paris is the capital/.test(window.hydration.serverHtml),
        first,
        growing,
        final: el.querySelector('.cite-answer__body')?.textContent ?? '',
        links: el.querySelectorAll('.cite-answer__body .cite-marker__link').length,
        errors: window.hydration.errors,
      };
    });
    assert(r.server, 'the server HTML has no answer attribute');
    eq(r.errors, [], 'hydration errors');
    eq(r.first.trim(), 'Paris is the capital of France1. The tower', 'after hydration');
    assert(!RAW_MARKER.test(r.growing) && r.growing.includes('completed in 1889'), `while growing: ${r.growing}`);
    eq(r.final.trim(), 'Paris is the capital of France1. The tower was completed in 18892.', 'final text');
    eq(r.links, 2, 'markers');
  });

  await t('useCitekit: a first mount that threw (a bad option) mounts once the options are fixed; a new element under its ref gets the view, the old one is destroyed', async () => {
    const r = await page.evaluate(async () => {
      const wait = (ms) => new Promise((ok) => setTimeout(ok, ms));
      const text = (id) => document.querySelector(`#${id} .cite-answer__body`)?.textContent.trim() ?? null;
      window.startProbe({ numbering: 'last' });
      await wait(60);
      const bad = text('probe-a');
      window.probe.set({ options: { numbering: 'given' } });
      await wait(60);
      const fixed = text('probe-a');
      const first = window.probe.getView();
      window.probe.set({ which: 'b' });
      await wait(60);
      const moved = { b: text('probe-b'), oldMounted: first.mounted, same: window.probe.getView() === first };
      window.probe.set({ answer: 'Lyon is in France [1].' });
      await wait(60);
      return { bad, fixed, moved, updated: text('probe-b') };
    });
    eq(r.bad, null, 'nothing mounted with the bad option');
    eq(r.fixed, 'Paris is the capital of France1.', 'after the options were fixed');
    eq(r.moved, { b: 'Paris is the capital of France1.', oldMounted: false, same: false }, 'after the element was replaced');
    eq(r.updated, 'Lyon is in France1.', 'updates reach the new element');
    // The bad option's one logged error is expected.
    for (let i = errors.length - 1; i >= 0; i--) if (/numbering/.test(errors[i])) errors.splice(i, 1);
  });

  await t('<CitedAnswer> shows its answer as plain text as written while the module loads (aria-busy), then the rendered answer', async () => {
    const slow = await context.newPage();
    let release;
    const gate = new Promise((ok) => {
      release = ok;
    });
    await slow.route('**/*.wasm', async (route) => {
      await gate;
      await route.continue();
    });
    await slow.goto(url);
    // The answer streams in while the module loads: shown as written so far, its first
    // marker included (only the module reads markers).
    await slow.waitForFunction(
      () =>
        (document.querySelector('#example .cite-fallback .cite-answer__body')?.textContent ?? '').startsWith(
          'Rust 1.0 was released on May 15, 2015 [1]',
        ),
      null,
      { timeout: 10000 },
    );
    const loading = await slow.evaluate(() => ({
      busy: document.querySelector('#example > div').getAttribute('aria-busy'),
      asWritten: document.querySelector('#example .cite-answer__body').textContent.startsWith('Rust 1.0 was released on May 15, 2015 [1]'),
    }));
    release();
    await slow.waitForFunction(
      () => document.querySelectorAll('#example .cite-answer__body .cite-marker__link').length === 4,
      null,
      { timeout: 15000 },
    );
    const done = await slow.evaluate(() => ({
      busy: document.querySelector('#example > div').getAttribute('aria-busy'),
      fallback: !!document.querySelector('#example .cite-fallback'),
    }));
    await slow.close();
    eq(loading, { busy: 'true', asWritten: true }, 'while the module loads');
    eq(done, { busy: null, fallback: false }, 'once mounted');
  });

  await t('<CitedAnswer>: a forced dark theme was unreadable on a light page: options {theme: dark} paints its own background, axe color-contrast passes', async () => {
    // The page is the browser's default white; the chat's theme is still dark (set by
    // the theme switch above). Last but one: axe adds a window listener.
    await page.evaluate(
      ({ ANSWER, DATA }) => window.chat.setMessages([{ id: 'a', text: ANSWER, data: DATA, streaming: false }]),
      { ANSWER, DATA },
    );
    await page.waitForSelector('#msg-a .cite-marker__link', { timeout: 5000 });
    await page.addScriptTag({ path: resolveDev('axe-core/axe.min.js') });
    const r = await page.evaluate(async () => {
      const root = document.querySelector('#msg-a .cite-root');
      const audit = await window.axe.run(document.getElementById('chat-root'), { runOnly: { type: 'rule', values: ['color-contrast'] } });
      window.chat.setMessages([]);
      return {
        dark: root.classList.contains('cite-theme-dark'),
        background: getComputedStyle(root).backgroundColor,
        violations: audit.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary.replace(/\s+/g, ' ')}`)),
      };
    });
    eq(r.violations.slice(0, 3), [], 'color-contrast violations');
    eq([r.dark, r.background], [true, 'rgb(15, 20, 25)'], 'the dark root and its background');
  });

  await t('no page errors or console errors', async () => {
    const pageErrors = await page.evaluate(() => window.pageErrors);
    eq([...pageErrors, ...errors], [], 'errors');
  });
  await page.close();
}

/** The React app with an HTML page served for the .wasm: the answers still show. */
export async function reactFailureChecks(tally, context, url) {
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await tally.test('react, wasm served as HTML: <CitedAnswer> shows plain text; the error names the fix', async () => {
    await page.goto(url);
    // As written, markers included: only the module reads them.
    const text =
      'Rust 1.0 was released on May 15, 2015 [1]. Its package manager is Cargo [2], ' +
      'and crates.io hosts the packages Cargo installs [2][3].';
    await page.waitForFunction(
      (text) => document.querySelector('#example .cite-fallback .cite-answer__body')?.textContent === text,
      text,
      { timeout: 10000 },
    );
    const all = errors.join('\n');
    assert(/optimizeDeps: \{ exclude: \['cited-answer'\] \}/.test(all), `no Vite fix named: ${all}`);
  });
  await page.close();
}
