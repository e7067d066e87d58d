// What a host page or framework needs of <cited-answer> (run on the plain page and on
// the Vite build by browser-checks.mjs): text appended before init() resolved, an
// `answer` property that grows, a move that keeps the view and its open card, theme
// changes that keep it too, a transparent root, and server-rendered markup.
import { assert, eq } from './lib.mjs';

const tick = (page, ms = 30) => page.waitForTimeout(ms);

/** Visible text that is a raw or half-typed marker: `[1]`, `[2`, a trailing `[`. */
export const RAW_MARKER = /\[\d|\[\s*$|【|\[\[/;

export async function hostChecks(t, page) {
  await t('<cited-answer>: text appended before init() resolved is mounted as a stream', async () => {
    await page.waitForSelector('#early-el .cite-root', { timeout: 5000 });
    await tick(page);
    const before = await page.evaluate(() => ({
      readyAtAppend: window.earlyReadyAtAppend,
      text: document.querySelector('#early-el .cite-answer__body').textContent,
    }));
    eq(before.readyAtAppend, false, 'init() had not resolved when the text was appended');
    assert(before.text.includes('completed in 1889'), `text: ${before.text}`);
    assert(!RAW_MARKER.test(before.text), `a held-back marker shows as text: ${JSON.stringify(before.text)}`);
    await page.evaluate(() => {
      const el = document.getElementById('early-el');
      el.append(']. Done.');
      el.finish();
    });
    await tick(page);
    const after = await page.evaluate(() => ({
      text: document.querySelector('#early-el .cite-answer__body').textContent,
      links: [...document.querySelectorAll('#early-el .cite-answer__body .cite-marker__link')].map((a) => a.textContent),
    }));
    eq(after.links, ['1'], 'markers after finish()');
    assert(after.text.includes('Done.') && !RAW_MARKER.test(after.text), `text: ${after.text}`);
  });

  await t('<cited-answer>: before init() resolved, a growing answer property streams and an appended event stream is the data', async () => {
    await page.waitForSelector('#early-events-el .cite-root', { timeout: 5000 });
    await page.waitForSelector('#early-grow-el .cite-root', { timeout: 5000 });
    await tick(page);
    const r = await page.evaluate(() => {
      const body = (id) => document.querySelector(`#${id} .cite-answer__body`).textContent;
      const grown = document.getElementById('early-grow-el');
      return {
        readyAtAppend: window.earlyReadyAtAppend,
        // As the element kept them before the module loaded, and once mounted.
        before: window.earlyEvents,
        after: { answer: document.getElementById('early-events-el').answer, data: document.getElementById('early-events-el').data },
        events: body('early-events-el'),
        grown: body('early-grow-el'),
        grownStreams: grown.view.mounted,
      };
    });
    eq(r.readyAtAppend, false, 'init() had not resolved');
    eq(r.before.answer, null, 'the answer of the ai-sdk element before the module loaded (the stream is its data)');
    assert(typeof r.before.data === 'string' && r.before.data.startsWith('data: {"type":"start"'), `its data: ${r.before.data}`);
    eq(r.after.answer, null, 'its answer once mounted');
    eq(r.events.trim(), 'Lyon is known for its cuisine.', 'the ai-sdk element shows the stream\'s text');
    assert(r.grown.includes('completed in 1889') && !RAW_MARKER.test(r.grown), `grown before load: ${JSON.stringify(r.grown)}`);
    // Still a stream: the half marker shows once it completes.
    const done = await page.evaluate(async () => {
      const el = document.getElementById('early-grow-el');
      el.answer += '].';
      await new Promise((ok) => setTimeout(ok, 30));
      el.finish();
      await new Promise((ok) => setTimeout(ok, 30));
      return [...el.querySelectorAll('.cite-answer__body .cite-marker__link')].map((a) => a.textContent);
    });
    eq(done, ['1', '2'], 'markers of the grown answer');
  });

  await t('<cited-answer>: a regenerated longer answer starts again in the same view, its `on` listeners kept', async () => {
    const r = await page.evaluate(async () => {
      const wait = (ms) => new Promise((ok) => setTimeout(ok, ms));
      const el = document.createElement('cited-answer');
      el.id = 'regen-el';
      el.setAttribute('streaming', '');
      el.data = window.sample.DATA;
      el.answer = '';
      document.querySelector('main').append(el);
      for (let i = 0; i < 100 && !el.view; i++) await wait(10);
      const view = el.view;
      const clicks = [];
      view.on('citation-click', (e) => clicks.push(e.detail.sourceId));
      el.answer = 'Paris is the capital of France [1]. The Eiffel';
      await wait(0);
      el.answer = 'Paris is the capital of France [1]. The Eiffel Tower was completed in 1889 [2';
      await wait(0);
      // Regenerated: longer, and not growth of what streamed.
      el.answer = 'Lyon is known for its cuisine [3]. It lies where the Rhone meets the Saone, south of Paris [1].';
      await wait(0);
      const regenerated = el.querySelector('.cite-answer__body').textContent;
      el.answer += ' More';
      await wait(0);
      el.removeAttribute('streaming');
      await wait(30);
      el.querySelector('.cite-answer__body .cite-marker__link').click();
      await wait(30);
      const out = {
        sameView: el.view === view,
        regenerated,
        text: el.querySelector('.cite-answer__body').textContent,
        links: [...el.querySelectorAll('.cite-answer__body .cite-marker__link')].map((a) => a.textContent),
        clicks,
      };
      el.remove();
      return out;
    });
    assert(r.sameView, 'the regenerated answer mounted a new view (the `on` listeners of the old one are gone)');
    assert(!r.regenerated.includes('Paris is the capital'), `the old answer's text stayed: ${r.regenerated}`);
    assert(r.regenerated.startsWith('Lyon is known for its cuisine'), `after the regeneration: ${r.regenerated}`);
    eq(r.text.trim(), 'Lyon is known for its cuisine1. It lies where the Rhone meets the Saone, south of Paris2. More', 'final text');
    eq(r.links, ['1', '2'], 'markers');
    eq(r.clicks, ['3'], 'citation-click heard by the listener added with view.on before the regeneration');
  });

  await t('<cited-answer>: an answer that grows is appended; removing `streaming` finishes', async () => {
    const r = await page.evaluate(async () => {
      const el = document.createElement('cited-answer');
      el.id = 'grow-el';
      el.setAttribute('streaming', '');
      el.data = window.sample.DATA;
      el.answer = '';
      document.querySelector('main').append(el);
      const wait = (ms) => new Promise((ok) => setTimeout(ok, ms));
      for (let i = 0; i < 100 && !el.view; i++) await wait(10);
      const view = el.view;
      const full = window.sample.ANSWER;
      const seen = [];
      // What a framework does on every render: set the whole answer so far.
      for (let end = 3; end < full.length + 3; end += 3 + (end % 5)) {
        el.answer = full.slice(0, end);
        await wait(0);
        seen.push(el.querySelector('.cite-answer__body').textContent);
      }
      const sameView = el.view === view;
      el.removeAttribute('streaming');
      await wait(30);
      return {
        seen,
        sameView,
        text: el.querySelector('.cite-answer__body').textContent,
        links: el.querySelectorAll('.cite-answer__body .cite-marker__link').length,
      };
    });
    const raw = r.seen.filter((s) => /\[\d|\[\s*$/.test(s));
    eq(raw, [], 'texts shown while the answer grew that hold a raw marker');
    assert(r.sameView, 'the growing answer re-created the view instead of appending');
    assert(r.text.includes('Lyon is known for its cuisine'), `final text: ${r.text}`);
    eq(r.links, 4, 'live markers once streaming was turned off');
    // A value that is not growth replaces the answer.
    const replaced = await page.evaluate(async () => {
      const el = document.getElementById('grow-el');
      el.answer = 'Only Lyon [3].';
      await new Promise((ok) => setTimeout(ok, 30));
      const text = el.querySelector('.cite-answer__body').textContent.trim();
      el.remove();
      return text;
    });
    eq(replaced, 'Only Lyon1.', 'a replaced answer');
  });

  await t('<cited-answer>: a move keeps its view and its open card', async () => {
    await page.evaluate(() => {
      const box = document.createElement('div');
      box.id = 'move-box';
      const el = document.createElement('cited-answer');
      el.id = 'move-el';
      el.answer = window.sample.ANSWER;
      el.data = window.sample.DATA;
      box.append(el);
      document.querySelector('main').prepend(box);
    });
    await page.waitForSelector('#move-el .cite-marker__link', { timeout: 5000 });
    await page.mouse.move(5, 5);
    await page.hover('#move-el .cite-answer__body .cite-marker__link >> nth=1');
    await page.waitForSelector('#move-el .cite-card[data-state="open"]', { timeout: 3000 });
    const moved = await page.evaluate(async () => {
      const el = document.getElementById('move-el');
      window.movedView = el.view;
      const card = el.querySelector('.cite-card[data-state="open"]');
      // appendChild of a child that is already there: removed and put back in one
      // task (the same place, so the pointer stays over the marker).
      el.parentNode.appendChild(el);
      await new Promise((ok) => setTimeout(ok, 150));
      return {
        same: el.view === window.movedView,
        mounted: el.view?.mounted ?? false,
        open: el.querySelector('.cite-card[data-state="open"]') === card,
      };
    });
    eq(moved, { same: true, mounted: true, open: true }, 'after a move (the same view, the same open card)');
    await page.mouse.move(5, 5);
    const removed = await page.evaluate(async () => {
      const el = document.getElementById('move-el');
      el.parentNode.remove();
      await new Promise((ok) => setTimeout(ok, 30));
      return { view: el.view, html: el.innerHTML };
    });
    eq(removed, { view: null, html: '' }, 'after a removal (no move back)');
  });

  await t('<cited-answer>: a theme change (attribute or options) keeps an open card', async () => {
    await page.evaluate(() => {
      const el = document.createElement('cited-answer');
      el.id = 'theme-el';
      el.answer = window.sample.ANSWER;
      el.data = window.sample.DATA;
      document.querySelector('main').prepend(el);
    });
    await page.waitForSelector('#theme-el .cite-marker__link', { timeout: 5000 });
    await page.mouse.move(5, 5);
    await page.hover('#theme-el .cite-answer__body .cite-marker__link >> nth=1');
    await page.waitForSelector('#theme-el .cite-card[data-state="open"]', { timeout: 3000 });
    const themed = await page.evaluate(async () => {
      const el = document.getElementById('theme-el');
      const card = el.querySelector('.cite-card[data-state="open"]');
      // Closed and opened again in between would not be "kept": record every state.
      const states = [];
      new MutationObserver(() => states.push(card.dataset.state)).observe(card, {
        attributes: true,
        attributeFilter: ['data-state'],
      });
      el.setAttribute('theme', 'dark');
      await new Promise((ok) => setTimeout(ok, 150));
      const a = {
        dark: el.querySelector('.cite-root').classList.contains('cite-theme-dark'),
        open: el.querySelector('.cite-card[data-state="open"]') === card,
      };
      el.options = { theme: 'light' };
      await new Promise((ok) => setTimeout(ok, 150));
      return {
        attribute: a,
        property: {
          dark: el.querySelector('.cite-root').classList.contains('cite-theme-dark'),
          open: el.querySelector('.cite-card[data-state="open"]') === card,
        },
        states,
      };
    });
    eq(
      themed,
      { attribute: { dark: true, open: true }, property: { dark: false, open: true }, states: [] },
      'card after theme changes',
    );
    await page.mouse.move(5, 5);
    await page.evaluate(() => document.getElementById('theme-el').remove());
  });

  await t('the root is transparent with theme auto; a forced theme paints its own background; --cite-bg wins', async () => {
    await page.evaluate(() => {
      for (const [id, theme] of [['bg-auto', null], ['bg-dark', 'dark']]) {
        const el = document.createElement('cited-answer');
        el.id = id;
        if (theme) el.setAttribute('theme', theme);
        el.answer = window.sample.ANSWER;
        el.data = window.sample.DATA;
        document.querySelector('main').append(el);
      }
    });
    await page.waitForSelector('#bg-dark .cite-root', { timeout: 5000 });
    const r = await page.evaluate(() => {
      const bg = (el) => getComputedStyle(el.querySelector('.cite-root')).backgroundColor;
      const auto = document.getElementById('bg-auto');
      const dark = document.getElementById('bg-dark');
      const out = { auto: bg(auto), dark: bg(dark) };
      for (const [key, value] of [['set', 'rgb(1, 2, 3)'], ['transparent', 'transparent']]) {
        dark.style.setProperty('--cite-bg', value);
        out[key] = bg(dark);
      }
      auto.remove();
      dark.remove();
      return out;
    });
    eq(
      r,
      { auto: 'rgba(0, 0, 0, 0)', dark: 'rgb(15, 20, 25)', set: 'rgb(1, 2, 3)', transparent: 'rgba(0, 0, 0, 0)' },
      'root background',
    );
  });

  await t('<cited-answer> server-rendered: answer attribute and a child JSON script', async () => {
    await page.waitForSelector('#ssr-el .cite-marker__link', { timeout: 5000 });
    const r = await page.evaluate(() => {
      const el = document.getElementById('ssr-el');
      return {
        text: el.querySelector('.cite-answer__body').textContent.trim(),
        links: [...el.querySelectorAll('.cite-answer__body .cite-marker__link')].map((a) => a.textContent),
        script: !!el.querySelector(':scope > script[type="application/json"]'),
        answer: el.answer,
      };
    });
    eq(
      r,
      {
        text: 'Lyon is known for its cuisine1. Paris too2.',
        links: ['1', '2'],
        script: true,
        answer: 'Lyon is known for its cuisine [1]. Paris too [2].',
      },
      'server-rendered element',
    );
  });
}

/**
 * The test page where the .wasm URL gets an HTML page (a dev server's fallback):
 * answers show as plain text as written (markers too: only the module reads them, and
 * npm/core.js keeps no copy of its grammar), and the logged error names the cause.
 */
export async function failureChecks(tally, context, url, label = 'wasm served as HTML') {
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  const t = (name, fn) => tally.test(`${label}: ${name}`, fn);
  await t('answers show as plain text as written, markers included (the JS has no copy of the marker grammar)', async () => {
    await page.goto(url);
    await page.waitForSelector('#static-el .cite-fallback', { timeout: 10000 });
    await page.waitForSelector('#ssr-el .cite-fallback', { timeout: 5000 });
    await page.waitForSelector('#early-events-el .cite-fallback', { state: 'attached', timeout: 5000 });
    const r = await page.evaluate(() => ({
      static: document.querySelector('#static-el .cite-answer__body').textContent,
      ssr: document.querySelector('#ssr-el .cite-answer__body').textContent,
      early: document.querySelector('#early-el .cite-answer__body').textContent,
      grown: document.querySelector('#early-grow-el .cite-answer__body').textContent,
      events: document.querySelector('#early-events-el .cite-answer__body').textContent,
    }));
    eq(
      r,
      {
        static:
          'Paris is the capital of France [1]. The Eiffel Tower was completed in 1889 [2][3].\n\n' +
          'Lyon is known for its cuisine [3].',
        ssr: 'Lyon is known for its cuisine [1]. Paris too [2].',
        early: 'The Eiffel Tower was completed in 1889 [2',
        grown: 'Paris is the capital of France [1]. The Eiffel Tower was completed in 1889 [2',
        // An event stream is not shown as text.
        events: '',
      },
      'fallback texts',
    );
  });
  await t('the error names the cause and the Vite fix', async () => {
    const all = errors.join('\n');
    assert(/expected magic word/.test(all), `the original error is missing: ${all}`);
    assert(/optimizeDeps: \{ exclude: \['cited-answer'\] \}/.test(all), `no Vite fix named: ${all}`);
    assert(/did not send citekit_wasm_bg\.wasm/.test(all), `no likely cause named: ${all}`);
  });
  await page.close();
}
