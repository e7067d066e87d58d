// The browser checks run against both test pages (the plain page and the Vite build):
// `mount` (markers, hover card, panel, events, update, setOptions, streaming, destroy)
// and <cited-answer> (attributes, properties, append/finish, removal), what hosts need
// of it (host-checks.mjs: growing answers, moves, server-rendered markup, themes), and
// that no partial marker shows while any format's data streams (partial-markers.mjs).
import { uiStreamChecks } from './ui-stream-checks.mjs';
import { providerStreamChecks } from './anthropic-gemini-stream-checks.mjs';
import { providerStreamChecks as openaiStreamChecks, platformStreamChecks } from './provider-stream-checks.mjs';
import { hostChecks } from './host-checks.mjs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, assert, eq, resolveDev } from './lib.mjs';
import { partialMarkerChecks } from './partial-markers.mjs';

const tick = (page, ms = 30) => page.waitForTimeout(ms);

/** Runs every check on `url` in a new page of `context`, counting into `tally`. */
export async function browserChecks(tally, context, url, label) {
  const page = await context.newPage();
  const consoleErrors = [];
  const consoleWarnings = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
    if (m.type() === 'warning') consoleWarnings.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  if (process.env.CITEKIT_NPM_DEBUG) {
    page.on('console', (m) => console.log(`       [console.${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => console.log(`       [pageerror] ${e.stack}`));
  }
  const t = (name, fn) => tally.test(`${label}: ${name}`, fn);

  await t('page loads and init() resolves', async () => {
    const res = await page.goto(url);
    assert(res.ok(), `HTTP ${res.status()}`);
    await page.waitForFunction(() => window.citekitReady === true, null, { timeout: 15000 });
  });

  await t('mount renders markers, footnotes and the panel', async () => {
    await page.evaluate(() => {
      const { mount } = window.citekit;
      const host = document.getElementById('host');
      window.clicks = [];
      window.hostEvents = [];
      window.view = mount(host, { answer: window.sample.ANSWER, data: window.sample.DATA, panel: true });
      window.unsubscribe = window.view.on('citation-click', (e) => window.clicks.push(e.detail));
      host.addEventListener('citation-click', (e) => window.hostEvents.push(e.detail));
    });
    await tick(page);
    const r = await page.evaluate(() => {
      const host = document.getElementById('host');
      return {
        links: [...host.querySelectorAll('.cite-answer__body .cite-marker__link')].map((a) => a.textContent),
        footnotes: host.querySelectorAll('.cite-footnotes .cite-footnote').length,
        panel: [...host.querySelectorAll('.cite-panel .cite-source__title')].map((s) => s.textContent),
        text: host.querySelector('.cite-answer__body').textContent,
        css: !!document.getElementById('citekit-css'),
      };
    });
    eq(r.links, ['1', '2', '3', '3'], 'marker links');
    eq(r.footnotes, 3, 'footnotes');
    eq(r.panel, ['Paris - Wikipedia', 'Eiffel Tower history', 'Lyon travel guide', 'Uncited source'], 'panel sources');
    assert(r.text.includes('Paris is the capital of France'), `answer text: ${r.text}`);
    assert(!r.text.includes('[1]'), 'literal [1] left in the text');
    assert(r.css, 'the stylesheet was not injected');
  });

  await t('named character references are read by the browser (the first module has no entity table)', async () => {
    const r = await page.evaluate(() => {
      const el = document.createElement('div');
      document.body.append(el);
      const answer =
        '&copy; 2024 &amp; &notit; &ampx; &Aacute;&#35; &CounterClockwiseContourIntegral; &bogus;\n\n' +
        '[ok](https://x.test/?a=1&amp;b=2 "&quot;T&quot;") [bad](javascript&colon;alert(1)) `&copy;` [^&nbsp;]';
      const view = window.citekit.mount(el, { answer, data: null });
      const body = el.querySelector('.cite-answer__body');
      const links = [...body.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('title')]);
      const out = { text: body.querySelector('p').textContent, links, code: body.querySelector('code').textContent };
      view.destroy();
      el.remove();
      return out;
    });
    eq(r.text, '\u00a9 2024 & &notit; &ampx; \u00c1# \u2233 &bogus;', 'text with references');
    eq(r.links[0], ['ok', 'https://x.test/?a=1&b=2', '"T"'], 'a link with references in its destination and title');
    assert(!r.links.some(([, href]) => href && href.startsWith('javascript')), `a javascript: link was drawn: ${JSON.stringify(r.links)}`);
    eq(r.code, '&copy;', 'code span stays literal');
  });

  await t('case folding, Unicode punctuation and letters come from the browser (the first module has no Unicode tables)', async () => {
    const r = await page.evaluate(() => {
      const { mount, parse } = window.citekit;
      const el = document.createElement('div');
      document.body.append(el);
      // A reference label matched by case folding (ß, ẞ and SS fold alike); emphasis
      // that Unicode punctuation keeps from opening (“ after a letter is not left-
      // flanking) and one it lets close (*«x»* after a space).
      const answer = '[Straße] and [ΣΑΣ] and foo*\u201cbar\u201d* and *\u00abyes\u00bb*.\n\n[STRASSE]: https://x.test/s\n[σας]: https://x.test/g';
      const view = mount(el, { answer, data: null });
      const body = el.querySelector('.cite-answer__body');
      const out = {
        links: [...body.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]),
        ems: [...body.querySelectorAll('em')].map((e) => e.textContent),
      };
      view.destroy();
      el.remove();
      return out;
    });
    eq(r.links, [['Straße', 'https://x.test/s'], ['ΣΑΣ', 'https://x.test/g']], 'labels matched by case folding');
    eq(r.ems, ['\u00abyes\u00bb'], 'emphasis by Unicode punctuation');
  });

  await t('a long answer shows its first screenful at mount, the rest after the first frame or at once on an event', async () => {
    const r = await page.evaluate(async () => {
      const { mount } = window.citekit;
      let answer = '';
      for (let i = 0; i < 120; i++) answer += `Paragraph ${i} states a fact about the city that a source supports [${1 + (i % 12)}].\n\n`;
      const data = {};
      for (let n = 1; n <= 12; n++) data[n] = { title: `Source ${n}`, source: `https://example.com/${n}`, text: `Excerpt ${n}` };
      const count = (el) => ({
        blocks: el.querySelectorAll('.cite-answer__body > .cite-block').length,
        markers: el.querySelectorAll('.cite-answer__body .cite-marker__link').length,
        notes: el.querySelectorAll('.cite-footnote').length,
        panel: el.querySelectorAll('.cite-source').length,
      });
      const a = document.createElement('div');
      document.body.append(a);
      const va = mount(a, { answer, data, panel: true, footnotes: true });
      const atMount = count(a);
      await new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0)));
      await new Promise((res) => setTimeout(res, 0));
      const afterFrame = count(a);
      const b = document.createElement('div');
      document.body.append(b);
      const vb = mount(b, { answer, data, panel: true, footnotes: true });
      b.querySelector('.cite-answer__body').dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
      const afterEvent = count(b);
      const c = document.createElement('div');
      document.body.append(c);
      const vc = mount(c, { answer, data, panel: true, footnotes: true });
      vc.update({ answer: answer + 'One more [1].' });
      const afterUpdate = count(c);
      const strip = (el) => el.innerHTML.replace(/cite\d+/g, 'cite');
      const same = strip(a) === strip(b);
      for (const v of [va, vb, vc]) v.destroy();
      a.remove(); b.remove(); c.remove();
      return { atMount, afterFrame, afterEvent, afterUpdate, same };
    });
    eq(r.afterFrame, { blocks: 120, markers: 120, notes: 12, panel: 12 }, 'after the first frame');
    eq(r.afterEvent, r.afterFrame, 'after an event before the frame');
    eq(r.afterUpdate, { blocks: 121, markers: 121, notes: 12, panel: 12 }, 'after an update before the frame');
    assert(r.atMount.blocks > 0 && r.atMount.blocks < 120 && r.atMount.notes === 0 && r.atMount.panel === 8,
      `at mount: ${JSON.stringify(r.atMount)}`);
    assert(r.same, 'the answer completed after the frame differs from the one completed by an event');
  });

  await t('hovering a marker opens its card with the source title', async () => {
    await page.hover('#host .cite-answer__body .cite-marker__link >> nth=1');
    await page.waitForSelector('#host .cite-card[data-state="open"]', { timeout: 3000 });
    const card = await page.evaluate(() => {
      const c = document.querySelector('#host .cite-card');
      const r = c.getBoundingClientRect();
      return { text: c.textContent, position: getComputedStyle(c).position, w: r.width, h: r.height };
    });
    assert(card.text.includes('Eiffel Tower history'), `card text: ${card.text}`);
    assert(card.text.includes('toureiffel.paris'), `card domain: ${card.text}`);
    eq(card.position, 'fixed', 'card position (citekit.css applied)');
    assert(card.w > 0 && card.h > 0, 'card has no size');
    await page.mouse.move(5, 5);
    await page.waitForSelector('#host .cite-card[data-state="closed"]', { state: 'attached', timeout: 3000 });
  });

  await t('a scroll of the page closes the open card (it would stay behind its marker)', async () => {
    await page.hover('#host .cite-answer__body .cite-marker__link >> nth=1');
    await page.waitForSelector('#host .cite-card[data-state="open"]', { timeout: 3000 });
    await page.evaluate(() => {
      document.body.style.minHeight = '3000px';
      window.scrollBy(0, 40);
    });
    await page.waitForSelector('#host .cite-card[data-state="closed"]', { state: 'attached', timeout: 3000 });
    await page.evaluate(() => {
      window.scrollTo(0, 0);
      document.body.style.minHeight = '';
    });
    await page.mouse.move(5, 5);
  });

  await t('page-wide listeners once per page: 200 answers add 4 listeners to the window and a shadow root holding 20 gets one; a card in the last answer still closes on a scroll and on Escape; destroying them leaves no listener of theirs', async () => {
    // The listeners on an object, as the DevTools protocol lists them.
    const listenersOn = async (expression) => {
      const cdp = await page.context().newCDPSession(page);
      try {
        const { result } = await cdp.send('Runtime.evaluate', { expression });
        const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId });
        return listeners.length;
      } finally {
        await cdp.detach();
      }
    };
    const before = await listenersOn('window');
    await page.evaluate(() => {
      const { mount } = window.citekit;
      const many = document.createElement('div');
      many.id = 'many';
      document.body.append(many);
      window.manyViews = [];
      for (let i = 0; i < 200; i++) {
        const el = document.createElement('div');
        many.append(el);
        window.manyViews.push(mount(el, {
          answer: `Answer ${i} states a fact [1].`,
          data: { 1: { title: `Source ${i}`, source: `https://example.com/${i}` } },
        }));
      }
      const hostEl = document.createElement('div');
      document.body.append(hostEl);
      const sr = hostEl.attachShadow({ mode: 'open' });
      window.manyShadow = { hostEl, sr };
      for (let i = 0; i < 20; i++) {
        const el = document.createElement('div');
        sr.append(el);
        window.manyViews.push(mount(el, { answer: `Shadowed ${i} [1].`, data: { 1: { title: 'S', source: 'https://example.com/s' } } }));
      }
    });
    try {
      const mounted = await listenersOn('window');
      const onRoot = await listenersOn('window.manyShadow.sr');
      assert(mounted - before <= 4, `220 answers added ${mounted - before} listeners to the window`);
      eq(onRoot, 1, 'listeners on a shadow root holding 20 answers');
      const last = '#many > div:last-child .cite-marker__link';
      const lastCard = '#many > div:last-child .cite-card';
      await page.hover(last);
      await page.waitForSelector(`${lastCard}[data-state="open"]`, { timeout: 3000 });
      await page.evaluate(() => {
        document.body.style.minHeight = `${document.body.scrollHeight + 2000}px`;
        window.scrollBy(0, 40);
      });
      await page.waitForSelector(`${lastCard}[data-state="closed"]`, { state: 'attached', timeout: 3000 });
      await page.mouse.move(5, 5);
      await page.hover(last);
      await page.waitForSelector(`${lastCard}[data-state="open"]`, { timeout: 3000 });
      await page.keyboard.press('Escape');
      await page.waitForSelector(`${lastCard}[data-state="closed"]`, { state: 'attached', timeout: 3000 });
      // An answer destroyed with its card open is left alone by the page's listeners.
      await page.mouse.move(5, 5);
      await page.hover(last);
      await page.waitForSelector(`${lastCard}[data-state="open"]`, { timeout: 3000 });
      const errorsBefore = consoleErrors.length;
      await page.evaluate(async () => {
        window.manyViews[199].destroy();
        window.scrollBy(0, 30);
        document.body.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
        document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
        await new Promise((r) => setTimeout(r, 50));
      });
      eq(consoleErrors.slice(errorsBefore), [], 'errors after events on the page once the answer with the open card is destroyed');
    } finally {
      await page.evaluate(() => {
        for (const v of window.manyViews) v.destroy();
        document.getElementById('many').remove();
        window.manyShadow.hostEl.remove();
        document.body.style.minHeight = '';
        window.scrollTo(0, 0);
      });
    }
    await page.mouse.move(5, 5);
    const after = await listenersOn('window');
    assert(after - before <= 4, `${after - before} listeners more on the window once the 220 answers are destroyed`);
  });

  await t('inside a shadow root (open and closed): styled there, the card opens at its marker, a press on the marker keeps it, one outside or a scroll inside the root closes it, footnote links are followed', async () => {
    for (const mode of ['open', 'closed']) {
      await page.evaluate((mode) => {
        const hostEl = document.createElement('div');
        document.body.prepend(hostEl);
        const sr = hostEl.attachShadow({ mode });
        const scroller = document.createElement('div');
        scroller.style.cssText = 'height:260px;overflow:auto';
        const inner = document.createElement('div');
        const pad = document.createElement('div');
        pad.style.height = '1200px';
        scroller.append(inner, pad);
        sr.append(scroller);
        const view = window.citekit.mount(inner, { answer: 'Paris is the capital of France [1].', data: window.sample.DATA });
        window.shadow = { hostEl, sr, scroller, view };
      }, mode);
      const at = await page.evaluate(() => {
        const sr = window.shadow.sr;
        const r = sr.querySelector('.cite-answer__body .cite-marker__link').getBoundingClientRect();
        return {
          x: r.x + r.width / 2, y: r.y + r.height / 2, bottom: r.bottom,
          bg: getComputedStyle(sr.querySelector('.cite-marker__link')).backgroundColor,
          hidden: getComputedStyle(sr.querySelector('.cite-visually-hidden')).position,
          styles: sr.querySelectorAll('style#citekit-css').length,
        };
      });
      eq(at.styles, 1, `${mode}: the stylesheet in the shadow root`);
      assert(at.bg !== 'rgba(0, 0, 0, 0)', `${mode}: marker unstyled (background ${at.bg})`);
      eq(at.hidden, 'absolute', `${mode}: visually hidden text styled away`);
      const cardState = () => page.evaluate(() => window.shadow.sr.querySelector('.cite-card').getAttribute('data-state'));
      const waitState = async (want, what) => {
        for (let i = 0; i < 60 && (await cardState()) !== want; i++) await page.waitForTimeout(50);
        eq(await cardState(), want, `${mode}: ${what}`);
      };
      await page.mouse.move(at.x, at.y);
      await waitState('open', 'hover opens the card');
      const top = await page.evaluate(() => window.shadow.sr.querySelector('.cite-card').getBoundingClientRect().top);
      assert(top >= at.bottom - 1 && top < at.bottom + 40, `${mode}: card at ${top}, marker bottom ${at.bottom}`);
      await page.mouse.down();
      await page.waitForTimeout(50);
      eq(await cardState(), 'open', `${mode}: a press on the marker keeps the card`);
      await page.mouse.move(at.x + 400, at.y + 400);
      await page.mouse.up();
      await page.evaluate(() => document.body.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true })));
      await waitState('closed', 'a press outside closes the card');
      await page.mouse.move(at.x, at.y);
      await waitState('open', 'hover opens the card again');
      await page.evaluate(() => { window.shadow.scroller.scrollTop = 30; });
      await waitState('closed', 'a scroll inside the shadow root closes the card');
      await page.evaluate(() => { window.shadow.scroller.scrollTop = 0; });
      const follow = await page.evaluate(() => {
        const sr = window.shadow.sr;
        const before = location.hash;
        sr.querySelector('.cite-answer__body .cite-marker__link').click();
        const toNote = sr.activeElement && sr.activeElement.id;
        sr.querySelector('.cite-footnote__back').click();
        const back = sr.activeElement && sr.activeElement.id;
        return { toNote, back, hash: location.hash === before };
      });
      assert(/-fn-1$/.test(follow.toNote || ''), `${mode}: the marker link leads to its footnote (focus on ${follow.toNote})`);
      assert(/-ref-0-0$/.test(follow.back || ''), `${mode}: the back-link leads to its marker (focus on ${follow.back})`);
      assert(follow.hash, `${mode}: the page's hash is left alone`);
      await page.mouse.move(5, 5);
      await page.evaluate(() => { window.shadow.view.destroy(); window.shadow.hostEl.remove(); });
    }
  });

  await t('the copy button copies the answer with its citations: by a selection (http pages have no Clipboard API, frames without clipboard-write are refused by it), else by the Clipboard API; with neither it says so on the console', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
    await page.evaluate(() => {
      const el = document.createElement('div');
      el.id = 'copyhost';
      document.body.prepend(el);
      window.copyView = window.citekit.mount(el, { answer: 'Paris is the capital of France [1].', data: window.sample.DATA, copyButton: true });
      window.realExec = document.execCommand;
    });
    for (const how of ['selection', 'api', 'neither']) {
      await page.evaluate(async (how) => {
        await navigator.clipboard.writeText('before');
        if (how !== 'selection') document.execCommand = () => false;
        if (how === 'neither') Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
      }, how);
      const warnings = consoleWarnings.length;
      await page.click('#copyhost .cite-copy');
      if (how === 'neither') {
        await page.waitForTimeout(100);
        eq(await page.getAttribute('#copyhost .cite-copy', 'data-state'), 'idle', 'nothing copied: the button stays');
        assert(consoleWarnings.slice(warnings).some((w) => w.includes('could not be copied')), 'a console warning');
      } else {
        await page.waitForSelector('#copyhost .cite-copy[data-state="copied"]', { timeout: 3000 });
      }
      const copied = await page.evaluate(async () => {
        delete navigator.clipboard;
        document.execCommand = window.realExec;
        return navigator.clipboard.readText();
      });
      if (how === 'neither') {
        eq(copied, 'before', 'clipboard untouched');
      } else {
        assert(copied.includes('Paris is the capital of France') && copied.includes('https://'), `${how}: copied ${JSON.stringify(copied)}`);
        await page.waitForSelector('#copyhost .cite-copy[data-state="idle"]', { timeout: 3000 });
      }
    }
    await page.evaluate(() => { window.copyView.destroy(); document.getElementById('copyhost').remove(); });
  });

  await t('the panel goes beside the answer in a wide element and below it in a narrow one (a chat column), whatever the window', async () => {
    const r = await page.evaluate(() => {
      const out = {};
      for (const w of [560, 1000]) {
        const el = document.createElement('div');
        el.style.width = w + 'px';
        document.body.prepend(el);
        const v = window.citekit.mount(el, { answer: 'Paris is the capital of France [1].', data: window.sample.DATA, panel: true });
        const a = el.querySelector('.cite-answer').getBoundingClientRect();
        const p = el.querySelector('.cite-panel').getBoundingClientRect();
        out[w] = { below: p.top >= a.bottom, beside: p.left >= a.right, answerWidth: Math.round(a.width), panelWidth: Math.round(p.width) };
        v.destroy();
        el.remove();
      }
      return { ...out, viewport: window.innerWidth };
    });
    assert(r.viewport >= 1000, `viewport ${r.viewport}`);
    assert(r[560].below && r[560].answerWidth === 560 && r[560].panelWidth === 560, `560 px: ${JSON.stringify(r[560])}`);
    assert(r[1000].beside && r[1000].panelWidth === 300 && r[1000].answerWidth >= 600, `1000 px: ${JSON.stringify(r[1000])}`);
  });

  await t('a forced dark theme was unreadable on a light page: each forced theme passes axe color-contrast on a page of the opposite colour, card closed and open', async () => {
    // Regression: the root was transparent whatever the theme, so the dark theme's
    // light text sat on the page's white (1.18:1). A forced theme paints its own
    // background unless the host sets --cite-bg (then that wins, transparent too).
    if (!(await page.evaluate(() => !!window.axe))) await page.addScriptTag({ path: resolveDev('axe-core/axe.min.js') });
    await page.evaluate(() => {
      const section = (id, style) => {
        const s = document.createElement('section');
        s.id = id;
        s.setAttribute('style', style);
        document.body.prepend(s);
        return s;
      };
      const { mount } = window.citekit;
      const opts = (theme) => ({ answer: window.sample.ANSWER, data: window.sample.DATA, panel: true, theme });
      // A dark theme on the page's default white, by mount; a light theme on a dark page,
      // by the custom element's attribute.
      window.themeViews = [mount(section('th-dark-on-white', ''), opts('dark'))];
      const el = document.createElement('cited-answer');
      el.setAttribute('theme', 'light');
      el.setAttribute('panel', '');
      el.answer = window.sample.ANSWER;
      el.data = window.sample.DATA;
      section('th-light-on-dark', 'background: #0d1117; color: #e6edf3; color-scheme: dark').append(el);
      // Pages that set --cite-bg: a colour of their own, and transparent on a page of the
      // theme's colour.
      window.themeViews.push(
        mount(section('th-dark-bg-set', 'background: #22272e; --cite-bg: #22272e'), opts('dark')),
        mount(section('th-dark-transparent', 'background: #0d1117; --cite-bg: transparent'), opts('dark')),
        mount(section('th-auto', ''), opts('auto')),
      );
    });
    await page.waitForSelector('#th-light-on-dark .cite-marker__link', { timeout: 5000 });
    const ids = ['th-dark-on-white', 'th-light-on-dark', 'th-dark-bg-set', 'th-dark-transparent'];
    const contrast = (id) =>
      page.evaluate(async (id) => {
        const r = await window.axe.run(document.getElementById(id), { runOnly: { type: 'rule', values: ['color-contrast'] } });
        return r.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary.replace(/\s+/g, ' ')}`));
      }, id);
    for (const id of ids) {
      eq(await contrast(id), [], `${id}, card closed: color-contrast violations`);
      await page.hover(`#${id} .cite-answer__body .cite-marker__link >> nth=0`);
      await page.waitForSelector(`#${id} .cite-card[data-state="open"]`, { timeout: 3000 });
      await page.waitForTimeout(200);
      eq(await contrast(id), [], `${id}, card open: color-contrast violations`);
      await page.mouse.move(5, 5);
      await page.waitForSelector(`#${id} .cite-card[data-state="closed"]`, { state: 'attached', timeout: 3000 });
    }
    const bg = await page.evaluate(() =>
      Object.fromEntries(['th-dark-on-white', 'th-light-on-dark', 'th-dark-bg-set', 'th-dark-transparent', 'th-auto'].map((id) => [id, getComputedStyle(document.querySelector(`#${id} .cite-root`)).backgroundColor])),
    );
    eq(
      bg,
      {
        'th-dark-on-white': 'rgb(15, 20, 25)',
        'th-light-on-dark': 'rgb(255, 255, 255)',
        'th-dark-bg-set': 'rgb(34, 39, 46)',
        'th-dark-transparent': 'rgba(0, 0, 0, 0)',
        'th-auto': 'rgba(0, 0, 0, 0)',
      },
      'root backgrounds',
    );
    await page.evaluate(() => {
      for (const v of window.themeViews) v.destroy();
      for (const id of ['th-dark-on-white', 'th-light-on-dark', 'th-dark-bg-set', 'th-dark-transparent', 'th-auto']) document.getElementById(id).remove();
    });
  });

  await t('a click on a marker left its panel entry out of sight: click and Enter bring it into view, expanded, scrolling the panel and not the page (14 sources, a window 520 pixels high)', async () => {
    // Regression: the page scrolled about 1,800 px (the answer left the screen) and the
    // entry, measured before it was laid out expanded, still ended below the fold.
    const size = page.viewportSize();
    await page.setViewportSize({ width: 1200, height: 520 });
    try {
      await page.evaluate(() => {
        let answer = 'A survey of the city.';
        const data = {};
        for (let n = 1; n <= 14; n++) {
          answer += ` Fact ${n} holds [${n}].`;
          data[n] = {
            title: `Source number ${n} on the history of the city`,
            source: `https://s${n}.example.com/page`,
            text: `Excerpt ${n}: a passage long enough to take two lines in the panel, as a real snippet does.`,
            score: 0.5,
          };
        }
        const el = document.createElement('div');
        el.id = 'scroll-host';
        el.style.width = '1100px';
        document.body.prepend(el);
        window.scrollView = window.citekit.mount(el, { answer, data, panel: true });
        window.scrollTo(0, 0);
      });
      const beside = () =>
        page.evaluate(() => {
          const a = document.querySelector('#scroll-host .cite-answer').getBoundingClientRect();
          const p = document.querySelector('#scroll-host .cite-panel').getBoundingClientRect();
          return p.left >= a.right;
        });
      await page.waitForTimeout(100);
      assert(await beside(), 'the panel is not beside the answer');
      // Where the page and the panel have stopped scrolling (smooth scrolls take a while).
      const settled = () =>
        page.evaluate(async () => {
          const panel = document.querySelector('#scroll-host .cite-panel');
          const at = () => `${window.scrollY},${panel.scrollTop}`;
          let last = at();
          for (let still = 0, i = 0; still < 4 && i < 40; i++) {
            await new Promise((r) => setTimeout(r, 50));
            still = at() === last ? still + 1 : 0;
            last = at();
          }
        });
      const where = (n) =>
        page.evaluate((n) => {
          const panel = document.querySelector('#scroll-host .cite-panel');
          const entry = document.querySelector(`#scroll-host .cite-source[data-source="${n}"]`);
          const p = panel.getBoundingClientRect();
          const e = entry.getBoundingClientRect();
          const top = Math.max(p.top + panel.clientTop, 0);
          const bottom = Math.min(p.top + panel.clientTop + panel.clientHeight, window.innerHeight);
          return {
            scrollY: window.scrollY,
            expanded: entry.dataset.state,
            inPanel: e.top >= top - 1 && e.bottom <= bottom + 1,
            inWindow: e.top >= -1 && e.bottom <= window.innerHeight + 1,
            box: [Math.round(e.top), Math.round(e.bottom), Math.round(top), Math.round(bottom)],
          };
        }, n);
      const marker = (n) => `#scroll-host .cite-answer__body .cite-marker__link >> nth=${n - 1}`;

      await page.click(marker(14));
      await settled();
      let r = await where(14);
      eq([r.scrollY, r.expanded], [0, 'expanded'], `the page's scroll and the entry after a click (${JSON.stringify(r)})`);
      assert(r.inPanel && r.inWindow, `entry 14 out of sight after a click: ${JSON.stringify(r)}`);

      await page.focus(marker(1));
      await page.keyboard.press('Enter');
      await settled();
      r = await where(1);
      eq([r.scrollY, r.expanded], [0, 'expanded'], `the page's scroll and the entry after Enter (${JSON.stringify(r)})`);
      assert(r.inPanel && r.inWindow, `entry 1 out of sight after Enter: ${JSON.stringify(r)}`);
      await page.keyboard.press('Escape');

      // Below the answer (a narrow column) the page scrolls to the entry instead.
      await page.evaluate(() => (document.getElementById('scroll-host').style.width = '500px'));
      await page.waitForTimeout(100);
      assert(!(await beside()), 'the panel is not below the answer');
      await page.click(marker(14));
      await settled();
      r = await where(14);
      eq(r.expanded, 'expanded', 'entry 14 below the answer');
      assert(r.inWindow, `entry 14 below the answer out of sight: ${JSON.stringify(r)}`);
    } finally {
      await page.evaluate(() => {
        window.scrollView?.destroy();
        document.getElementById('scroll-host')?.remove();
        window.scrollTo(0, 0);
      });
      await page.setViewportSize(size);
    }
  });

  await t('a new window size (a phone turned) closes the open card (it would stay where its marker was)', async () => {
    await page.hover('#host .cite-answer__body .cite-marker__link >> nth=1');
    await page.waitForSelector('#host .cite-card[data-state="open"]', { timeout: 3000 });
    const size = page.viewportSize();
    await page.setViewportSize({ width: size.width - 200, height: size.height });
    await page.waitForSelector('#host .cite-card[data-state="closed"]', { state: 'attached', timeout: 3000 });
    await page.setViewportSize(size);
    await page.mouse.move(5, 5);
  });

  await t('appends around late data in one task raise no error (a footnotes frame is never dropped while pending)', async () => {
    const before = consoleErrors.length;
    await page.evaluate(() => {
      const { mount } = window.citekit;
      const el = document.createElement('div');
      document.body.append(el);
      const v = mount(el, { answer: '', data: null });
      v.append('Hello [1] more');
      v.update({ data: { 1: { title: 'x', source: 'https://x.example' } } });
      v.append(' x');
      window.lateDataView = [v, el];
    });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const r = await page.evaluate(() => {
      const [v, el] = window.lateDataView;
      const out = { markers: el.querySelectorAll('.cite-marker__link').length, notes: el.querySelectorAll('.cite-footnote').length };
      v.destroy();
      el.remove();
      return out;
    });
    eq([r, consoleErrors.slice(before)], [{ markers: 1, notes: 1 }, []], 'after the frames');
  });

  await t('data that cannot be read is reported on the console once (mount never throws on it)', async () => {
    const warnings = [];
    const onConsole = (m) => {
      if (m.type() === 'warning' && m.text().startsWith('citekit: the citation data')) warnings.push(m.text());
    };
    page.on('console', onConsole);
    const text = await page.evaluate(() => {
      const { mount } = window.citekit;
      const el = document.createElement('div');
      document.body.append(el);
      const v = mount(el, { answer: 'Paris is the capital of France [1].', data: [{ nope: true }] });
      v.update({ answer: 'Paris is the capital of France [1]. Again.' });
      const out = el.querySelector('.cite-answer__body').textContent;
      v.destroy();
      el.remove();
      return out;
    });
    await tick(page);
    page.off('console', onConsole);
    assert(text.includes('Paris is the capital of France'), `answer text: ${text}`);
    eq(warnings.length, 1, `warnings: ${JSON.stringify(warnings)}`);
  });

  await t('one card on the page: a card opened in another answer closes the first', async () => {
    await page.evaluate(() => {
      const el = document.createElement('div');
      el.id = 'second-answer';
      document.getElementById('host').after(el);
      window.secondView = window.citekit.mount(el, { answer: 'Lyon is a city in France [1].', data: { 1: { title: 'Lyon', source: 'https://lyon.example' } } });
    });
    await page.focus('#host .cite-answer__body .cite-marker__link >> nth=0');
    await page.waitForSelector('#host .cite-card[data-state="open"]', { timeout: 3000 });
    await page.hover('#second-answer .cite-marker__link');
    await page.waitForSelector('#second-answer .cite-card[data-state="open"]', { timeout: 3000 });
    const open = await page.evaluate(() => document.querySelectorAll('.cite-card[data-state="open"]').length);
    eq(open, 1, 'cards open');
    await page.evaluate(() => {
      window.secondView.destroy();
      document.getElementById('second-answer').remove();
      document.activeElement?.blur();
    });
    await page.mouse.move(5, 5);
    await tick(page, 300);
  });

  await t('keyboard: Enter moves focus into the card; Tab past its last control returns to the marker, the next Tab to the next marker', async () => {
    const marker = '#host .cite-answer__body .cite-marker__link >> nth=1';
    await page.focus(marker);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.closest('#host .cite-card'), null, { timeout: 3000 });
    let where = null;
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      where = await page.evaluate(() => {
        const a = document.activeElement;
        if (a?.closest('#host .cite-card')) return null;
        const links = [...document.querySelectorAll('#host .cite-answer__body .cite-marker__link')];
        return { marker: links.indexOf(a) };
      });
      if (where) break;
    }
    // Back on its marker (whose focus shows the card again, as any marker's focus does).
    eq(where, { marker: 1 }, 'focus after leaving the card');
    await page.keyboard.press('Tab');
    const next = await page.evaluate(() => [...document.querySelectorAll('#host .cite-answer__body .cite-marker__link')].indexOf(document.activeElement));
    eq(next, 2, 'the next Tab goes on to the next marker');
    await page.evaluate(() => document.activeElement?.blur());
    await page.mouse.move(5, 5);
    await tick(page, 300);
  });

  await t('a right-to-left paragraph reads right to left on a left-to-right page, its marker at its end', async () => {
    const r = await page.evaluate(() => {
      const el = document.createElement('div');
      document.body.append(el);
      const v = window.citekit.mount(el, {
        answer: 'باريس هي عاصمة فرنسا [1].\n\nParis is the capital of France [1].',
        data: { 1: { title: 'Paris', source: 'https://paris.example' } },
      });
      const blocks = [...el.querySelectorAll('.cite-answer__body > .cite-block')];
      const out = blocks.map((b) => {
        const words = [...b.querySelector('p').childNodes].find((n) => n.nodeType === 3 && n.data.trim().length > 3);
        const range = document.createRange();
        range.selectNodeContents(words);
        const text = range.getBoundingClientRect();
        const marker = b.querySelector('.cite-marker').getBoundingClientRect();
        return { dir: getComputedStyle(b).direction, markerLeftOfText: marker.left < text.left };
      });
      v.destroy();
      el.remove();
      return out;
    });
    eq(r, [{ dir: 'rtl', markerLeftOfText: true }, { dir: 'ltr', markerLeftOfText: false }], 'blocks');
  });

  await t('citation-click fires with the right detail; source-select follows', async () => {
    await page.evaluate(() => (window.documentEvents.length = 0));
    await page.click('#host .cite-answer__body .cite-marker__link >> nth=2');
    await tick(page, 60);
    const r = await page.evaluate(() => ({
      clicks: window.clicks,
      host: window.hostEvents,
      doc: window.documentEvents,
      selected: document.querySelector('#host .cite-source.cite-selected')?.dataset.source ?? null,
      // The selected entry's details are made on selection: its link is there.
      link: document.querySelector('#host .cite-source.cite-selected .cite-source__details:not([hidden]) a.cite-source__link')?.getAttribute('href') ?? null,
    }));
    eq(r.clicks, [{ citation: 1, sourceId: '3', number: 3 }], 'view.on detail');
    eq(r.host, r.clicks, 'DOM listener on the element');
    eq(r.doc[0], { name: 'citation-click', detail: { citation: 1, sourceId: '3', number: 3 } }, 'event at the document');
    assert(
      r.doc.some((e) => e.name === 'source-select' && e.detail.number === 3 && e.detail.sourceId === '3'),
      `source-select: ${JSON.stringify(r.doc)}`,
    );
    eq(r.selected, '3', 'selected panel entry');
    assert(r.link && r.link.startsWith('https://'), `the selected entry's link: ${r.link}`);
  });

  await t('the function returned by on() unsubscribes', async () => {
    await page.evaluate(() => window.unsubscribe());
    await page.click('#host .cite-answer__body .cite-marker__link >> nth=0');
    await tick(page);
    const r = await page.evaluate(() => ({ clicks: window.clicks.length, host: window.hostEvents.length }));
    eq(r, { clicks: 1, host: 2 }, 'listeners after unsubscribe');
  });

  await t('setOptions and update change the rendering in place', async () => {
    await page.evaluate(() => window.view.setOptions({ markerStyle: 'domain', panel: true }));
    await tick(page);
    const domain = await page.evaluate(() =>
      document.querySelector('#host .cite-answer__body .cite-marker__link').textContent,
    );
    assert(domain.includes('wikipedia.org'), `domain marker: ${domain}`);
    await page.evaluate(() => window.view.update({ panel: false, theme: 'dark' }));
    await tick(page);
    const r = await page.evaluate(() => ({
      panel: !!document.querySelector('#host .cite-panel'),
      dark: document.querySelector('#host .cite-root').classList.contains('cite-theme-dark'),
      marker: document.querySelector('#host .cite-answer__body .cite-marker__link').textContent,
    }));
    eq(r.panel, false, 'panel after update({panel:false})');
    eq(r.dark, true, 'dark theme');
    assert(r.marker.includes('wikipedia.org'), 'update() kept the other options');
  });

  await t('update() with a new answer or data and an option in one call applies both; an option the model depends on (showCitations, numbering) takes effect alone; new data under the same ids redraws the lists', async () => {
    const r = await page.evaluate(async () => {
      const el = document.createElement('div');
      document.body.append(el);
      const D = { 1: { title: 'One', source: 'https://one.org' }, 3: { title: 'Three', source: 'https://three.org' } };
      const v = window.citekit.mount(el, { answer: 'X [3] Y [1].', data: D, panel: true });
      const body = () => el.querySelector('.cite-answer__body').textContent.trim();
      const links = () => [...el.querySelectorAll('.cite-answer__body .cite-marker__link')].map((a) => a.textContent);
      const frame = () => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
      const out = {};
      v.update({ answer: 'New [1].', theme: 'dark' });
      out.answerAndTheme = [body(), el.querySelector('.cite-root').classList.contains('cite-theme-dark')];
      v.update({ data: { 1: { title: 'Uno', source: 'https://uno.org' } }, theme: 'light' });
      await frame();
      out.dataAndTheme = [...el.querySelectorAll('.cite-panel .cite-source__title')].map((x) => x.textContent);
      v.update({ answer: 'X [3] Y [1].', data: D });
      v.update({ showCitations: false });
      out.noCitations = body();
      v.update({ showCitations: true });
      out.firstCited = links();
      v.setOptions({ numbering: 'given' });
      out.given = links();
      v.update({ data: { 1: { title: 'One again', source: 'https://one.org', text: 'A new snippet.' }, 3: { title: 'Three again', source: 'https://three.org' } } });
      await frame();
      out.panel = [...el.querySelectorAll('.cite-panel .cite-source__title')].map((x) => x.textContent);
      out.snippet = el.querySelector('.cite-panel .cite-source__snippet')?.textContent ?? '';
      out.notes = [...el.querySelectorAll('.cite-footnotes .cite-footnote')].map((x) => x.textContent.includes('again'));
      // A chat clearing the answer before it regenerates it; a shorter answer.
      v.update({ answer: 'A one [1].\n\nB two [3].' });
      v.update({ answer: 'A one [1].' });
      out.shorter = body();
      v.update({ answer: '' });
      out.cleared = [body(), el.querySelectorAll('.cite-answer__body > *').length];
      v.destroy();
      el.remove();
      return out;
    });
    eq(r.answerAndTheme, ['New1.', true], 'update({answer, theme})');
    eq(r.dataAndTheme, ['Uno'], 'update({data, theme})');
    eq(r.noCitations, 'X Y.', 'update({showCitations: false})');
    eq(r.firstCited, ['1', '2'], 'numbered by first citation');
    eq(r.given, ['3', '1'], 'setOptions({numbering: "given"})');
    eq(r.panel, ['One again', 'Three again'], 'panel titles after new data under the same ids');
    eq(r.snippet, 'A new snippet.', 'panel snippet after new data under the same ids');
    eq(r.notes, [true, true], 'footnotes after new data under the same ids');
    eq(r.shorter, 'A one1.', 'update({answer}) to a prefix of the text shown');
    eq(r.cleared, ['', 0], "update({answer: ''})");
  });

  await t('Escape closes the card wherever the focus is (a hovered card has none); from inside the card one Escape closes it and gives its marker the focus without opening it again', async () => {
    const marker = '#host .cite-answer__body .cite-marker__link >> nth=1';
    await page.evaluate(() => document.activeElement?.blur());
    await page.hover(marker);
    await page.waitForSelector('#host .cite-card[data-state="open"]', { timeout: 3000 });
    await page.keyboard.press('Escape');
    await page.waitForSelector('#host .cite-card[data-state="closed"]', { state: 'attached', timeout: 3000 });
    await page.mouse.move(5, 5);
    await tick(page, 300);
    await page.focus(marker);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.closest('#host .cite-card'), null, { timeout: 3000 });
    await page.keyboard.press('Escape');
    await tick(page, 250);
    const r = await page.evaluate(() => ({
      state: document.querySelector('#host .cite-card').dataset.state,
      focus: [...document.querySelectorAll('#host .cite-answer__body .cite-marker__link')].indexOf(document.activeElement),
    }));
    eq(r, { state: 'closed', focus: 1 }, 'after Escape in the card');
    // Its next focus opens it again.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    await page.waitForSelector('#host .cite-card[data-state="open"]', { timeout: 3000 });
    await page.evaluate(() => document.activeElement?.blur());
    await tick(page, 300);
  });

  await t('right to left: the footnotes list keeps its numbers inside the answer (inline-start padding)', async () => {
    const r = await page.evaluate(() => {
      const el = document.createElement('div');
      el.dir = 'rtl';
      el.style.width = '400px';
      document.body.append(el);
      const v = window.citekit.mount(el, { answer: 'مرحبا بالعالم هذا نص [1][2]. نص آخر [2].', data: window.sample.DATA });
      const ol = el.querySelector('.cite-footnotes__list');
      const cs = getComputedStyle(ol);
      const out = { right: parseFloat(cs.paddingRight) > 0, left: cs.paddingLeft, overflow: el.scrollWidth > el.clientWidth };
      v.destroy();
      el.remove();
      return out;
    });
    eq(r, { right: true, left: '0px', overflow: false }, 'footnotes list padding and overflow');
  });

  await t('bad options throw a clear Error; bad data does not', async () => {
    const r = await page.evaluate(() => {
      const out = {};
      try {
        window.view.update({ numbering: 'sideways' });
      } catch (e) {
        out.message = e.message;
      }
      const host = document.createElement('div');
      document.body.append(host);
      const cyc = {};
      cyc.self = cyc;
      const v = window.citekit.mount(host, { answer: 'Text stays [1].', data: '{not json', format: 'citation_map' });
      const v2 = window.citekit.mount(document.body.appendChild(document.createElement('div')), {
        answer: 'Cyclic data.',
        data: cyc,
      });
      out.ok = v.mounted && v2.mounted;
      return new Promise((ok) =>
        setTimeout(() => {
          out.text = host.textContent;
          v.destroy();
          v2.destroy();
          ok(out);
        }, 30),
      );
    });
    assert(/citekit: invalid option `numbering`/.test(r.message ?? ''), `message: ${r.message}`);
    assert(r.ok, 'mount with bad data threw');
    assert(r.text.includes('Text stays'), `answer text shown: ${r.text}`);
  });

  await t('destroy unmounts, empties the element and is idempotent', async () => {
    const r = await page.evaluate(() => {
      const host = document.getElementById('host');
      window.view.destroy();
      window.view.destroy();
      window.view.update({ answer: 'ignored' });
      window.view.append('ignored');
      return { html: host.innerHTML, mounted: window.view.mounted };
    });
    eq(r, { html: '', mounted: false }, 'after destroy');
  });

  await t('destroy while a hover card is about to open (timer pending) is clean', async () => {
    await page.evaluate(() => {
      window.hoverView = window.citekit.mount(document.getElementById('host'), {
        answer: window.sample.ANSWER,
        data: window.sample.DATA,
      });
    });
    await tick(page);
    await page.mouse.move(5, 5);
    await page.hover('#host .cite-answer__body .cite-marker__link >> nth=0');
    await page.evaluate(() => window.hoverView.destroy());
    await tick(page, 400);
    await page.mouse.move(5, 5);
    const errs = await page.evaluate(() => window.pageErrors.length);
    eq([errs, consoleErrors.length], [0, 0], 'errors after destroy with a pending timer');
  });

  await t('destroy() inside a citation-click handler is clean', async () => {
    await page.evaluate(() => {
      const v = window.citekit.mount(document.getElementById('host'), {
        answer: window.sample.ANSWER,
        data: window.sample.DATA,
        panel: true,
      });
      window.destroyedInHandler = false;
      v.on('citation-click', () => {
        v.destroy();
        window.destroyedInHandler = true;
      });
    });
    await tick(page);
    await page.click('#host .cite-answer__body .cite-marker__link >> nth=0');
    await tick(page, 300);
    const r = await page.evaluate(() => ({
      done: window.destroyedInHandler,
      html: document.getElementById('host').innerHTML,
      errors: window.pageErrors.length,
    }));
    eq([r, consoleErrors.length], [{ done: true, html: '', errors: 0 }, 0], 'after destroy in a handler');
    await page.mouse.move(5, 5);
  });

  await t('late data keeps the answer so far (update({data}))', async () => {
    await page.evaluate(() => {
      window.late = window.citekit.mount(document.getElementById('host'), { answer: '' });
      window.late.append('Paris is the capital of France [');
      window.late.append('1]. More text');
    });
    await tick(page);
    const before = await page.evaluate(() => ({
      text: document.querySelector('#host .cite-answer__body').textContent,
      pending: document.querySelectorAll('#host .cite-marker--pending').length,
    }));
    assert(before.text.includes('Paris is the capital of France'), `before data: ${before.text}`);
    assert(!before.text.includes('[1'), `literal marker while streaming: ${before.text}`);
    eq(before.pending, 1, 'pending markers before the sources arrive');
    await page.evaluate(() => window.late.update({ data: window.sample.DATA }));
    await tick(page);
    const r = await page.evaluate(() => {
      window.late.finish();
      const host = document.getElementById('host');
      return {
        text: host.querySelector('.cite-answer__body').textContent,
        links: host.querySelectorAll('.cite-answer__body .cite-marker__link').length,
      };
    });
    assert(r.text.includes('More text') && r.text.includes('Paris is the capital'), `text: ${r.text}`);
    eq(r.links, 1, 'live marker after late data');
    await page.evaluate(() => window.late.destroy());
  });

  await t('a stream started with empty data ({}, [], {sources: []}) shows pending markers, then the data turns them live', async () => {
    const r = await page.evaluate(() => {
      const out = [];
      // An array of the first module's formats: an AI SDK message's parts.
      const parts = [{ type: 'source-url', sourceId: 'a', url: 'https://a.example/', title: 'Alpha' }];
      for (const [name, start] of [['{}', {}], ['[]', []], ['{sources:[]}', { sources: [] }]]) {
        for (const late of [window.sample.DATA, parts]) {
          const v = window.citekit.mount(document.getElementById('host'), { answer: '', data: start });
          v.append('Hello [');
          v.append('1] world.');
          const host = document.getElementById('host');
          const text = host.querySelector('.cite-answer__body').textContent;
          const pending = host.querySelectorAll('.cite-marker--pending').length;
          v.update({ data: late });
          const live = host.querySelectorAll('.cite-answer__body .cite-marker__link').length;
          v.finish();
          const done = host.querySelectorAll('.cite-answer__body .cite-marker__link').length;
          out.push({ name, text, pending, live, done });
          v.destroy();
        }
      }
      return out;
    });
    for (const x of r) {
      assert(!x.text.includes('[1'), `${x.name}: literal marker while streaming: ${x.text}`);
      eq(x.pending, 1, `${x.name}: pending marker before the data`);
      eq(x.live, 1, `${x.name}: live marker once the data came`);
      eq(x.done, 1, `${x.name}: live marker after finish()`);
    }
  });

  await t('update({data}) and finish() keep the nodes already shown and an open card', async () => {
    await page.evaluate(() => {
      const text = 'Paris is the capital of France [1].\n\nThe Eiffel Tower [2][3] and [9].\n\nLast [1]';
      window.settle = window.citekit.mount(document.getElementById('host'), { answer: '' });
      for (let i = 0; i < text.length; i += 3) window.settle.append(text.slice(i, i + 3));
    });
    await tick(page);
    await page.evaluate(() => {
      const body = document.querySelector('#host .cite-answer__body');
      const blocks = [...body.querySelectorAll(':scope > .cite-block')].slice(0, -1);
      window.held = blocks.flatMap((b) => [b, ...[...b.querySelectorAll('*')].filter((e) => !e.closest('.cite-marker--pending') || e.matches('.cite-marker'))]);
      window.settle.update({ data: { 1: window.sample.DATA[1] } });
    });
    await tick(page);
    // A card open on the first marker, read while the rest of the sources arrive.
    await page.focus('#host .cite-answer__body .cite-marker__link >> nth=0');
    await page.waitForSelector('#host .cite-card[data-state="open"]', { timeout: 3000 });
    const r = await page.evaluate(() => {
      const body = document.querySelector('#host .cite-answer__body');
      const pending = body.querySelectorAll('.cite-marker--pending').length;
      window.settle.update({ data: window.sample.DATA });
      return { pending };
    });
    await tick(page);
    const after = await page.evaluate(() => {
      const body = document.querySelector('#host .cite-answer__body');
      const gone = (list) => list.filter((e) => !body.contains(e)).map((e) => e.outerHTML);
      const card = () => document.querySelector('#host .cite-card').getAttribute('data-state');
      const r = { update: gone(window.held), cardAfterUpdate: card() };
      // [9] never gets a source: finishing drops its marker and its span's start.
      const nine = body.querySelector('.cite-marker--pending');
      const nineAnchor = nine && body.querySelector(`i.cite-s[data-s="${nine.dataset.cite}"]`);
      window.settle.finish();
      return new Promise((resolve) =>
        setTimeout(() => {
          const held = window.held.filter((e) => e !== nine && e !== nineAnchor);
          resolve({ ...r, finish: gone(held), cardAfterFinish: card(), nineGone: !!nine && !body.contains(nine) });
        }, 30),
      );
    });
    eq(r.pending, 2, 'pending markers before the rest of the sources');
    eq(after.update, [], 'nodes replaced by update({data})');
    eq(after.cardAfterUpdate, 'open', 'card after update({data})');
    eq(after.finish, [], 'nodes replaced by finish()');
    eq(after.cardAfterFinish, 'open', 'card after finish()');
    assert(after.nineGone, 'the marker whose source never came is removed');
    await page.evaluate(() => window.settle.destroy());
  });

  await t('streamed in small chunks, answer, footnotes and panel always match a one-shot render of the text so far', async () => {
    const r = await page.evaluate(async () => {
      const { mount } = window.citekit;
      // Paragraphs that grow word by word, entities, emphasis, a list, a table, code
      // with bracket literals, emoji and CJK: the text-only fast path and the node
      // morph both run, and footnotes and panel grow entry by entry.
      const text =
        '# Report on **cities** & <towns>\n\nParis is the capital of France [1]. It has 2.1 million people [2][3] — \u{1F5FC} and 巴黎 [1].\n\n' +
        '- Lyon [2] is *second* & old\n- Marseille [4]: a port [1][2]\n\n| city | cite |\n|---|---|\n| Nice | [3] |\n\n' +
        '```js\nconst a = arr[1] + m[2][3];\n```\n\nInline `x[4]` stays code; this [4] does not. Text with &amp; and a <b>tag</b> [5].\n\nLast words [1]';
      const data = {
        1: { title: 'One', source: 'https://one.example/a' },
        2: { title: 'Two & <b>', source: 'https://two.example/' },
        3: { title: 'Three', source: 'https://three.example/' },
        4: { title: 'Four', source: 'https://four.example/' },
        5: { title: 'Five', source: 'https://five.example/' },
      };
      const a = document.createElement('div');
      const b = document.createElement('div');
      document.body.append(a, b);
      const shown = (host) => {
        const root = host.querySelector('.cite-root');
        const html = root.innerHTML.split(root.id).join('ID');
        return html.replace(/ style="[^"]*"/g, '');
      };
      const out = { mismatches: [], checks: 0 };
      for (const size of [1, 3, 7]) {
        const view = mount(a, { answer: '', data, panel: true });
        for (let i = 0; i < text.length; i += size) {
          view.append(text.slice(i, i + size));
          const end = Math.min(text.length, i + size);
          if (end % 11 < size || end === text.length) {
            // The answer changes at once; footnotes and panel by the next frame.
            await new Promise((ok) => requestAnimationFrame(() => ok()));
            const once = mount(b, { answer: '', data, panel: true });
            once.append(text.slice(0, end));
            await new Promise((ok) => requestAnimationFrame(() => ok()));
            out.checks++;
            if (shown(a) !== shown(b) && out.mismatches.length < 3) {
              out.mismatches.push({ size, end, streamed: shown(a).slice(0, 3000), once: shown(b).slice(0, 3000) });
            }
            once.destroy();
          }
        }
        view.finish();
        const once = mount(b, { answer: text, data, panel: true });
        out.checks++;
        if (shown(a) !== shown(b) && out.mismatches.length < 3) {
          out.mismatches.push({ size, end: 'finished', streamed: shown(a), once: shown(b) });
        }
        once.destroy();
        view.destroy();
      }
      a.remove();
      b.remove();
      return out;
    });
    assert(r.checks > 60, `compared ${r.checks} times`);
    eq(r.mismatches, [], 'streamed view against a one-shot render');
  });

  await t('data the stream refuses: the answer still grows by append and by update({answer})', async () => {
    const r = await page.evaluate(() => {
      const el = document.createElement('div');
      document.body.append(el);
      const view = window.citekit.mount(el, { answer: '', data: '{"not json' });
      view.append('Paris is the capital');
      const appended = el.querySelector('.cite-answer__body').textContent;
      view.update({ answer: 'Paris is the capital of France [1].' });
      const updated = el.querySelector('.cite-answer__body').textContent;
      // Data that can be read, late: the stream starts again with it, the marker lives.
      view.update({ data: { 1: { title: 'Paris', source: 'https://paris.example/' } } });
      const live = el.querySelectorAll('.cite-answer__body .cite-marker__link').length;
      view.finish();
      const finished = el.querySelector('.cite-answer__body').textContent;
      view.destroy();
      el.remove();
      return { appended, updated, live, finished };
    });
    assert(r.appended.includes('Paris is the capital'), `after append: ${r.appended}`);
    assert(r.updated.includes('of France'), `after update({answer}): ${r.updated}`);
    eq(r.live, 1, 'markers once readable data came');
    assert(r.finished.includes('of France'), `after finish: ${r.finished}`);
  });

  await t('sse: mount({answer:null, data:"", format:"sse"}) and append raw stream text', async () => {
    await page.evaluate(() => {
      const v = window.citekit.mount(document.getElementById('host'), { answer: null, data: '', format: 'sse' });
      const s = window.sample.SSE;
      // Cut anywhere, including inside an event and inside a JSON string.
      for (let i = 0; i < s.length; i += 17) v.append(s.slice(i, i + 17));
      v.finish();
      window.sseView = v;
    });
    await tick(page);
    const r = await page.evaluate(() => {
      const host = document.getElementById('host');
      return {
        text: host.querySelector('.cite-answer__body').textContent,
        links: host.querySelectorAll('.cite-answer__body .cite-marker__link').length,
        notes: host.querySelector('.cite-footnotes')?.textContent ?? '',
      };
    });
    assert(r.text.includes('Rust was first released in 2015'), `text: ${r.text}`);
    eq(r.links, 1, 'sse markers');
    assert(r.notes.includes('Rust 1.0 announcement'), `footnotes: ${r.notes}`);
    await page.evaluate(() => window.sseView.destroy());
  });

  await t('append keeps a surrogate pair split across chunks', async () => {
    const text = await page.evaluate(() => {
      const v = window.citekit.mount(document.getElementById('host'), { answer: '' });
      v.append('smile \ud83d');
      v.append('\ude00 done');
      v.finish();
      return new Promise((ok) =>
        setTimeout(() => {
          const t = document.querySelector('#host .cite-answer__body').textContent;
          v.destroy();
          ok(t);
        }, 30),
      );
    });
    assert(text.includes('smile \u{1f600} done'), `text: ${JSON.stringify(text)}`);
  });

  await t('<cited-answer> from HTML: attributes and properties', async () => {
    await page.waitForSelector('#static-el .cite-root', { timeout: 5000 });
    const r = await page.evaluate(() => {
      const el = document.getElementById('static-el');
      const root = el.querySelector('.cite-root');
      return {
        defined: customElements.get('cited-answer') === el.constructor,
        shadow: el.shadowRoot === null,
        dark: root.classList.contains('cite-theme-dark'),
        style: root.dataset.markerStyle,
        panel: el.querySelectorAll('.cite-panel .cite-source').length,
        links: el.querySelectorAll('.cite-answer__body .cite-marker__link').length,
        display: getComputedStyle(el).display,
        view: el.view !== null && el.view.mounted,
      };
    });
    eq(
      r,
      { defined: true, shadow: true, dark: true, style: 'grouped', panel: 4, links: 3, display: 'block', view: true },
      'element state',
    );
  });

  await t('<cited-answer>: properties set before the upgrade are kept', async () => {
    await page.waitForSelector('#pre-el .cite-marker__link', { timeout: 5000 });
    const r = await page.evaluate(() => {
      const el = document.getElementById('pre-el');
      return {
        text: el.querySelector('.cite-answer__body').textContent.trim(),
        notes: !!el.querySelector('.cite-footnotes'),
        own: Object.prototype.hasOwnProperty.call(el, 'answer'),
        answer: el.answer,
      };
    });
    eq(r, { text: 'Set before the upgrade1.', notes: false, own: false, answer: 'Set before the upgrade [1].' }, 'pre-upgrade element');
  });

  await t('<cited-answer>: attribute and options changes re-render', async () => {
    await page.evaluate(() => {
      const el = document.getElementById('static-el');
      el.setAttribute('panel', 'false');
      el.setAttribute('footnotes', 'false');
      el.setAttribute('marker-style', 'number');
    });
    await tick(page);
    const a = await page.evaluate(() => {
      const el = document.getElementById('static-el');
      return {
        panel: !!el.querySelector('.cite-panel'),
        notes: !!el.querySelector('.cite-footnotes'),
        links: el.querySelectorAll('.cite-answer__body .cite-marker__link').length,
      };
    });
    eq(a, { panel: false, notes: false, links: 4 }, 'after attribute changes');
    await page.evaluate(() => {
      const el = document.getElementById('static-el');
      el.options = { theme: 'light', footnotes: true };
      el.answer = 'Only Lyon [3].';
    });
    await tick(page);
    const b = await page.evaluate(() => {
      const el = document.getElementById('static-el');
      const root = el.querySelector('.cite-root');
      return {
        light: root.classList.contains('cite-theme-light'),
        notes: el.querySelectorAll('.cite-footnotes .cite-footnote').length,
        text: el.querySelector('.cite-answer__body').textContent,
      };
    });
    eq({ light: b.light, notes: b.notes }, { light: true, notes: 1 }, 'after options/answer properties');
    eq(b.text.trim(), 'Only Lyon1.', 'answer text with its marker (renumbered first-cited)');
  });

  await t('<cited-answer>: click events bubble out of the element', async () => {
    await page.evaluate(() => {
      window.elEvents = [];
      document.getElementById('static-el').addEventListener('citation-click', (e) =>
        window.elEvents.push({ detail: e.detail, composed: e.composed, bubbles: e.bubbles }),
      );
    });
    await page.click('#static-el .cite-answer__body .cite-marker__link');
    await tick(page);
    const r = await page.evaluate(() => window.elEvents);
    eq(r, [{ detail: { citation: 0, sourceId: '3', number: 1 }, composed: true, bubbles: true }], 'element events');
  });

  await t('<cited-answer>: append()/finish() stream, removal cleans up, re-adding remounts', async () => {
    await page.evaluate(() => {
      const el = document.createElement('cited-answer');
      el.id = 'stream-el';
      el.data = window.sample.DATA;
      el.answer = '';
      document.body.append(el);
      el.append('The Eiffel Tower was completed in 1889 [');
      el.append('2]');
      el.append('.');
      el.finish();
    });
    await page.waitForSelector('#stream-el .cite-marker__link', { timeout: 5000 });
    const streamed = await page.evaluate(() => document.querySelector('#stream-el .cite-answer__body').textContent);
    assert(streamed.includes('The Eiffel Tower was completed in 1889'), `streamed: ${streamed}`);
    const r = await page.evaluate(async () => {
      const el = document.getElementById('stream-el');
      const held = el.view;
      el.remove();
      // The view is destroyed once the task that removed the element is over (a move
      // puts it back before then).
      await new Promise((ok) => setTimeout(ok, 20));
      const after = { html: el.innerHTML, view: el.view };
      // A view the page still holds answers after it (not freed under the page).
      let heldOk;
      try {
        held.update({ answer: 'x' });
        held.destroy();
        heldOk = held.mounted;
      } catch (e) {
        heldOk = String(e);
      }
      document.body.append(el);
      await new Promise((ok) => setTimeout(ok, 50));
      const again = el.querySelector('.cite-answer__body')?.textContent ?? '';
      el.remove();
      return { after: { html: after.html, view: after.view }, again, heldOk };
    });
    eq(r.after, { html: '', view: null }, 'after removal');
    eq(r.heldOk, false, 'a held view after removal: mounted false, its calls do nothing');
    assert(r.again.includes('completed in 1889'), `remounted: ${r.again}`);
  });

  await t('<cited-answer format="sse">: append raw stream text', async () => {
    await page.evaluate(() => {
      const el = document.createElement('cited-answer');
      el.id = 'sse-el';
      el.setAttribute('format', 'sse');
      document.body.append(el);
      const s = window.sample.SSE;
      for (let i = 0; i < s.length; i += 23) el.append(s.slice(i, i + 23));
      el.finish();
    });
    await page.waitForSelector('#sse-el .cite-marker__link', { timeout: 5000 });
    const text = await page.evaluate(() => document.querySelector('#sse-el .cite-answer__body').textContent);
    assert(text.includes('Rust was first released in 2015'), `text: ${text}`);
  });

  await hostChecks(t, page);
  await uiStreamChecks(t, page);
  await providerStreamChecks(t, page);
  await openaiStreamChecks(t, page);

  // Posthoc data and canonical HTML, JSON and YAML answers are in the full module
  // (citekit_full): not fetched until such data comes; the providers' formats are in
  // the first. (The Vite build renames the files: `citekit_full_bg-<hash>.wasm`.)
  const wasmFetched = () =>
    page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => e.name.split('/').pop())
        .filter((n) => n.endsWith('.wasm')),
    );

  await t('provider data: read by the first module (markers at once, the full module not fetched)', async () => {
    const r = await page.evaluate(() => {
      const { mount, parse } = window.citekit;
      const el = document.createElement('div');
      document.querySelector('main').append(el);
      const view = mount(el, { answer: null, data: window.sample.OPENAI });
      const out = {
        links: el.querySelectorAll('.cite-answer__body .cite-marker__link').length,
        busy: el.hasAttribute('aria-busy'),
        format: parse(null, window.sample.OPENAI).format,
      };
      view.destroy();
      el.remove();
      return out;
    });
    eq(r, { links: 1, busy: false, format: 'openai' }, 'openai data in the first module');
    const fetched = await wasmFetched();
    assert(!fetched.some((n) => n.startsWith('citekit_full_bg')), `full module fetched for provider data: ${fetched}`);
  });

  await t('posthoc data: init() fetched only the first module; mount() fetches the second and moves the view with the calls made meanwhile', async () => {
    const before = await wasmFetched();
    assert(before.some((n) => n.startsWith('citekit_wasm_bg')), `first module not fetched: ${before}`);
    assert(!before.some((n) => n.startsWith('citekit_full_bg')), `second module fetched early: ${before}`);
    await page.evaluate(() => {
      const { mount } = window.citekit;
      const el = document.createElement('div');
      el.id = 'provider-host';
      document.querySelector('main').append(el);
      window.providerClicks = [];
      // Every call before the second module is in is made again there.
      window.pview = mount(el, { answer: null, data: window.sample.POSTHOC });
      window.pview.on('citation-click', (e) => window.providerClicks.push(e.detail));
      window.pview.update({ panel: true });
      window.pview.setOptions({ theme: 'dark', panel: true });
      // A handle freed while it waits: the answer still moves (and stays mounted).
      const freed = document.createElement('div');
      freed.id = 'provider-freed';
      document.querySelector('main').append(freed);
      mount(freed, { answer: null, data: window.sample.POSTHOC }).free();
      // Until the second module is in: the data's text without citations, marked busy.
      window.providerWaiting = {
        text: el.querySelector('.cite-answer__body')?.textContent ?? '',
        busy: el.getAttribute('aria-busy'),
        links: el.querySelectorAll('.cite-marker__link').length,
      };
    });
    const waiting = await page.evaluate(() => window.providerWaiting);
    assert(waiting.text.startsWith('Rust 1.0 shipped in May 2015.'), `text while loading: ${JSON.stringify(waiting)}`);
    eq(waiting.busy, 'true', 'aria-busy while loading');
    eq(waiting.links, 0, 'no markers while loading');
    await page.waitForFunction(
      () => document.querySelector('#provider-host .cite-marker__link') && document.querySelector('#provider-freed .cite-marker__link'),
      null,
      { timeout: 10000 },
    );
    const r = await page.evaluate(() => {
      const el = document.getElementById('provider-host');
      return {
        roots: el.querySelectorAll('.cite-root').length,
        links: el.querySelectorAll('.cite-answer__body .cite-marker__link').length,
        panel: [...el.querySelectorAll('.cite-panel .cite-source__title')].map((s) => s.textContent),
        // The claim's marker (its number) stands after "2015": the text without it.
        text: (() => {
          const body = el.querySelector('.cite-answer__body').cloneNode(true);
          for (const m of body.querySelectorAll('.cite-marker')) m.remove();
          return body.textContent;
        })(),
        dark: el.querySelector('.cite-root').classList.contains('cite-theme-dark'),
        mounted: window.pview.mounted,
      };
    });
    eq(r.roots, 1, 'one answer in the element');
    eq(r.links, 1, 'marker links');
    eq(r.panel, ['Announcing Rust 1.0'], 'panel (from the update made before the move)');
    assert(r.text.startsWith('Rust 1.0 shipped in May 2015.'), `text: ${r.text}`);
    eq(r.dark, true, 'dark theme (from setOptions before the move)');
    eq(r.mounted, true, 'mounted');
    eq(await page.evaluate(() => document.getElementById('provider-host').hasAttribute('aria-busy')), false, 'aria-busy removed');
    const after = await wasmFetched();
    eq(after.filter((n) => n.startsWith('citekit_full_bg')).length, 1, `second module fetched once: ${after}`);
    await page.click('#provider-host .cite-answer__body .cite-marker__link');
    await tick(page);
    const clicks = await page.evaluate(() => window.providerClicks);
    eq(clicks.length, 1, 'a listener added before the move still hears clicks');
  });

  await t('posthoc data: parse() and renderToString() use the second module once it is in; answers of both modules share the page without id clashes', async () => {
    const r = await page.evaluate(() => {
      const { parse, renderToString, mount } = window.citekit;
      const m = parse(null, window.sample.POSTHOC);
      const html = renderToString(null, window.sample.POSTHOC);
      // A new answer (second module) beside those mounted before (first module).
      const el = document.createElement('div');
      document.querySelector('main').append(el);
      const v = mount(el, { answer: window.sample.ANSWER, data: window.sample.DATA, panel: true });
      const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
      const dupes = ids.filter((id, i) => ids.indexOf(id) !== i);
      const links = el.querySelectorAll('.cite-marker__link').length;
      v.destroy();
      el.remove();
      window.pview.destroy();
      document.getElementById('provider-freed').remove();
      return {
        format: m.format,
        titles: m.sources.map((s) => s.title),
        html: html.includes('Announcing Rust 1.0'),
        dupes,
        links,
        empty: document.getElementById('provider-host').childElementCount,
      };
    });
    eq(r.format, 'posthoc', 'format');
    eq(r.titles, ['Announcing Rust 1.0'], 'sources');
    assert(r.html, 'renderToString shows the source');
    eq(r.dupes, [], 'ids used twice');
    eq(r.links, 4, 'markers of the new answer');
    eq(r.empty, 0, 'destroy empties the moved view');
  });

  await t('azure data (a RAG platform, read by the full module): on a fresh page the plain init() fetched the first module only; mount() shows the text without [doc1] raw, then moves to the full module with markers and sources', async () => {
    const data = JSON.parse(readFileSync(join(ROOT, 'tests', 'fixtures', 'azure', 'on_your_data.json'), 'utf8')).data;
    const fresh = await context.newPage();
    try {
      await fresh.goto(url);
      await fresh.waitForFunction(() => window.citekitReady === true, null, { timeout: 15000 });
      const waiting = await fresh.evaluate((data) => {
        const el = document.createElement('div');
        el.id = 'azure-host';
        document.querySelector('main').append(el);
        window.aview = window.citekit.mount(el, { answer: null, data, panel: true });
        return {
          text: el.querySelector('.cite-answer__body')?.textContent ?? '',
          busy: el.getAttribute('aria-busy'),
          links: el.querySelectorAll('.cite-marker__link').length,
          wasm: performance.getEntriesByType('resource').map((e) => e.name.split('/').pop()).filter((n) => n.endsWith('.wasm')),
        };
      }, data);
      assert(waiting.wasm.some((n) => n.startsWith('citekit_wasm_bg')), `first module: ${waiting.wasm}`);
      assert(!waiting.wasm.some((n) => n.startsWith('citekit_full_bg')), `full module fetched by init(): ${waiting.wasm}`);
      assert(waiting.text.startsWith('Die Zugspitze ist mit 2.962 m der höchste Berg Deutschlands.'), `text while loading: ${waiting.text}`);
      assert(!waiting.text.includes('[doc'), `[docN] raw while loading: ${waiting.text}`);
      eq(waiting.busy, 'true', 'aria-busy while loading');
      await fresh.waitForFunction(() => document.querySelector('#azure-host .cite-marker__link'), null, { timeout: 10000 });
      const r = await fresh.evaluate(() => {
        const el = document.getElementById('azure-host');
        const body = el.querySelector('.cite-answer__body').cloneNode(true);
        for (const m of body.querySelectorAll('.cite-marker')) m.remove();
        return {
          links: el.querySelectorAll('.cite-answer__body .cite-marker__link').length,
          markers: [...el.querySelectorAll('.cite-answer__body .cite-marker')].map((m) => m.textContent),
          panel: [...el.querySelectorAll('.cite-panel .cite-source__title')].map((s) => s.textContent),
          text: body.textContent,
          busy: el.hasAttribute('aria-busy'),
          wasm: performance.getEntriesByType('resource').map((e) => e.name.split('/').pop()).filter((n) => n.endsWith('.wasm')),
        };
      });
      eq(r.links, 4, 'marker links ([doc1], [doc2][doc1], [doc3])');
      eq(r.markers, ['1', '2, 1', '3'], 'markers');
      eq(r.panel, ['Zugspitze', 'Seilbahn Zugspitze', 'stationen.md'], 'panel');
      assert(!r.text.includes('[doc'), `[docN] raw: ${r.text}`);
      eq(r.busy, false, 'aria-busy removed');
      eq(r.wasm.filter((n) => n.startsWith('citekit_full_bg')).length, 1, `full module fetched once: ${r.wasm}`);
    } finally {
      await fresh.close();
    }
  });

  for (const [folder, index, text] of [
    ['azure', 1, 'Der Kölner Dom ist 157 m hoch'],
    ['mistral', 3, 'Le prix Nobel de la paix 2024'],
  ]) {
    await t(`a ${folder} stream appended as format sse on a fresh page: the first module tells it from its events and the view moves to the full module, which reads it`, async () => {
      const recorded = JSON.parse(readFileSync(join(ROOT, 'tests', 'fixtures', folder, 'recorded.json'), 'utf8')).cases;
      const stream = recorded[index].data;
      const fresh = await context.newPage();
      try {
        await fresh.goto(url);
        await fresh.waitForFunction(() => window.citekitReady === true, null, { timeout: 15000 });
        await fresh.evaluate((stream) => {
          const el = document.createElement('div');
          el.id = 'platform-stream-host';
          document.querySelector('main').append(el);
          const view = window.citekit.mount(el, { answer: null, data: '', format: 'sse' });
          for (let i = 0; i < stream.length; i += 13) view.append(stream.slice(i, i + 13));
          view.finish();
        }, stream);
        await fresh.waitForFunction(() => document.querySelector('#platform-stream-host .cite-marker__link'), null, { timeout: 10000 });
        const r = await fresh.evaluate(() => {
          const el = document.getElementById('platform-stream-host');
          return {
            text: el.querySelector('.cite-answer__body').textContent,
            busy: el.hasAttribute('aria-busy'),
            wasm: performance.getEntriesByType('resource').map((e) => e.name.split('/').pop()).filter((n) => n.endsWith('.wasm')),
          };
        });
        assert(r.text.startsWith(text), `text: ${r.text}`);
        assert(!r.text.includes('data:') && !r.text.includes('[doc'), `raw stream text: ${r.text}`);
        eq(r.busy, false, 'aria-busy removed');
        eq(r.wasm.filter((n) => n.startsWith('citekit_full_bg')).length, 1, `full module fetched once: ${r.wasm}`);
      } finally {
        await fresh.close();
      }
    });
  }

  await t('scintilla data (read by the second module): identifier links only at word edges', async () => {
    const r = await page.evaluate(() => {
      // Not after a letter beyond ASCII (éMKT-1); after a space or a non-letter (« MKT-1).
      const model = window.citekit.parse('Voir MKT-1 et éMKT-1 et «MKT-1» [1].', [
        { urls: ['https://j.example/1'], titles: ['MKT-1'], identifiers: { 'MKT-1': 'https://j.example/1' } },
      ], { format: 'scintilla' });
      return (model.links ?? []).map((l) => model.text.slice(l.start, l.end) + '@' + l.start);
    });
    eq(r, ['MKT-1@5', 'MKT-1@25'], 'identifier links at word edges');
  });

  await t('a canonical HTML answer (read by the second module) renders through the allow-list, markers in place', async () => {
    const r = await page.evaluate(async () => {
      const { mount } = window.citekit;
      const el = document.createElement('div');
      document.querySelector('main').append(el);
      const data = {
        ok: true,
        format: 'html',
        content: '<p>Paris is <b>big</b><sup class="cite" data-sids="1">[S:1]</sup>.</p><script>window.pwned = 1</script><p onclick="x()">Two</p>',
        sources_used: [{ sid: 1, title: 'Paris', url: 'https://p.example/' }],
      };
      const view = mount(el, { answer: null, data });
      for (let i = 0; i < 200 && !el.querySelector('.cite-marker__link'); i++) await new Promise((res) => setTimeout(res, 10));
      const body = el.querySelector('.cite-answer__body');
      const out = {
        bold: body.querySelector('b')?.textContent,
        links: [...body.querySelectorAll('.cite-marker__link')].map((a) => a.textContent),
        text: body.textContent,
        onclick: !!body.querySelector('[onclick]'),
        pwned: !!window.pwned,
      };
      view.destroy();
      el.remove();
      return out;
    });
    eq(r.bold, 'big', 'kept element');
    eq(r.links, ['1'], 'marker');
    assert(r.text.includes('Paris is big') && r.text.includes('Two') && !r.text.includes('[S:1]'), `text: ${r.text}`);
    assert(!r.onclick && !r.pwned, 'markup from the answer was kept');
  });

  await platformStreamChecks(t, page);

  // On a page of its own: it needs the first module alone at the start.
  await partialMarkerChecks(t, context, url);

  await t('no page errors or console errors', async () => {
    const errs = await page.evaluate(() => window.pageErrors);
    eq([...errs, ...consoleErrors], [], 'errors');
  });

  await page.close();
}
