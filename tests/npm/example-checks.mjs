// Checks of the example pages in examples/js/ (shown on the demo page), served exactly
// as written next to the unpacked package: `./node_modules/cited-answer/index.js` of their
// import maps is the installed tarball. Each page is checked for what it shows (marker
// numbers, a hover card, the panel and footnotes), what its event listeners log, and
// that nothing failed (page errors, console errors, failed requests).
import { assert, eq } from './lib.mjs';

/** The example pages, with what each must render. */
export const EXAMPLES = [
  {
    file: 'mount.html',
    root: '#answer',
    text: 'Rust 1.0 was released on May 15, 2015.',
    markers: ['1', '2', '2', '3'],
    sources: ['Announcing Rust 1.0', 'The Cargo Book', 'crates.io'],
    hover: { nth: 1, title: 'The Cargo Book', domain: 'doc.rust-lang.org' },
    click: {
      nth: 3,
      logs: [
        ['citation-click', { citation: 2, sourceId: '3', number: 3 }],
        ['source-select', { sourceId: '3', number: 3 }],
      ],
    },
  },
  {
    file: 'element.html',
    root: 'cited-answer#answer',
    text: 'Photosynthesis turns light into chemical energy.',
    markers: ['1, 2', '2', '3'],
    markerStyle: 'grouped',
    theme: 'cite-theme-light',
    sources: ['Photosynthesis - Wikipedia', 'Chloroplast - Britannica', 'Leaf - Wikipedia'],
    hover: { nth: 2, title: 'Leaf - Wikipedia', domain: 'en.wikipedia.org' },
    click: { nth: 0, logs: [['citation-click', { citation: 0, sourceId: '1', number: 1 }]] },
  },
];

/** Opens each page of EXAMPLES under `baseUrl` in `context`, counting into `tally`. */
export async function exampleChecks(tally, context, baseUrl) {
  for (const ex of EXAMPLES) {
    const page = await context.newPage();
    const problems = [];
    const logs = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e}`));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
    // Chromium asks for /favicon.ico on its own (the pages link none): its 404 is no problem.
    const favicon = (url) => new URL(url).pathname === '/favicon.ico';
    page.on('response', (r) => {
      if (r.status() >= 400 && !favicon(r.url())) problems.push(`HTTP ${r.status()}: ${r.url()}`);
    });
    page.on('console', async (m) => {
      if (m.type() === 'error' && !(m.location().url && favicon(m.location().url))) {
        problems.push(`console error: ${m.text()} (${m.location().url})`);
      }
      if (m.type() === 'log') logs.push(await Promise.all(m.args().map((a) => a.jsonValue())));
    });
    const t = (name, fn) => tally.test(`examples/js/${ex.file}: ${name}`, fn);
    const root = ex.root;
    const links = `${root} .cite-answer__body .cite-marker__link`;

    await t('loads and renders its markers with the right numbers', async () => {
      const res = await page.goto(`${baseUrl}/${ex.file}`);
      assert(res.ok(), `HTTP ${res.status()}`);
      await page.waitForSelector(links, { timeout: 15000 });
      const r = await page.evaluate(
        ({ root, links }) => {
          // The answer text without the markers: the answer with its [n] taken out.
          const body = document.querySelector(`${root} .cite-answer__body`).cloneNode(true);
          for (const m of body.querySelectorAll('.cite-marker')) m.remove();
          return {
            markers: [...document.querySelectorAll(links)].map((a) => a.textContent.trim()),
            text: body.textContent.replace(/\s+/g, ' ').trim(),
            style: document.querySelector(`${root} .cite-root`).dataset.markerStyle,
            classes: [...document.querySelector(`${root} .cite-root`).classList],
            css: !!document.getElementById('citekit-css'),
          };
        },
        { root, links },
      );
      eq(r.markers, ex.markers, 'marker texts');
      assert(r.text.startsWith(ex.text), `answer text: ${JSON.stringify(r.text)}`);
      assert(!/\[\d/.test(r.text), `a literal marker is left in the text: ${r.text}`);
      if (ex.markerStyle) eq(r.style, ex.markerStyle, 'marker-style attribute');
      if (ex.theme) assert(r.classes.includes(ex.theme), `theme attribute: root classes ${r.classes.join(' ')}`);
      assert(r.css, 'the stylesheet was not injected');
    });

    await t('the panel and the footnotes list the sources', async () => {
      const r = await page.evaluate(
        (root) => ({
          panel: [...document.querySelectorAll(`${root} .cite-panel .cite-source__title`)].map((s) => s.textContent),
          notes: [...document.querySelectorAll(`${root} .cite-footnotes .cite-footnote`)].map((f) => f.textContent),
        }),
        root,
      );
      eq(r.panel, ex.sources, 'panel titles');
      eq(r.notes.length, ex.sources.length, 'footnotes');
      for (const [i, title] of ex.sources.entries()) {
        assert(r.notes[i].includes(title), `footnote ${i + 1}: ${r.notes[i]}`);
      }
    });

    await t('hovering a marker opens its card with the source', async () => {
      await page.hover(`${links} >> nth=${ex.hover.nth}`);
      await page.waitForSelector(`${root} .cite-card[data-state="open"]`, { timeout: 3000 });
      const card = await page.evaluate((root) => {
        const c = document.querySelector(`${root} .cite-card[data-state="open"]`);
        const b = c.getBoundingClientRect();
        return { text: c.textContent, position: getComputedStyle(c).position, w: b.width, h: b.height };
      }, root);
      assert(card.text.includes(ex.hover.title), `card text: ${card.text}`);
      assert(card.text.includes(ex.hover.domain), `card domain: ${card.text}`);
      eq(card.position, 'fixed', 'card position (citekit.css applied)');
      assert(card.w > 0 && card.h > 0, 'card has no size');
      await page.mouse.move(5, 5);
      await page.waitForSelector(`${root} .cite-card[data-state="closed"]`, { state: 'attached', timeout: 3000 });
    });

    await t('clicking a marker reaches the page’s event listeners', async () => {
      logs.length = 0;
      await page.click(`${links} >> nth=${ex.click.nth}`);
      await page.waitForTimeout(100);
      eq(logs, ex.click.logs, 'console.log calls of the listeners');
    });

    await t('no page errors, console errors or failed requests', async () => {
      eq(problems, [], 'problems');
    });
    await page.close();
  }
}
