// Touch checks of the packed package on the plain page, in a phone-like context
// (hasTouch, isMobile, 390x844): real taps through playwright's `tap()`, which Chromium
// turns into the event order of a finger (pointerdown, focus, click). A tap opens a
// marker's card, a second tap on the same marker closes it, a tap outside closes it,
// and a tap on another marker moves the card there.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CHROMIUM_ARGS, ROOT, assert, eq } from './lib.mjs';

const require = createRequire(join(ROOT, 'package.json'));
const OPEN = '#touch-host .cite-card[data-state="open"]:not([hidden])';

/** Runs the touch checks on `url` (the plain page), counting into `tally`. */
export async function touchChecks(tally, url, label) {
  const { chromium } = require('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const t = (name, fn) => tally.test(`${label}: ${name}`, fn);
  try {
    const context = await browser.newContext({
      hasTouch: true,
      isMobile: true,
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
    });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });

    await t('touch page loads and mounts an answer', async () => {
      const res = await page.goto(url);
      assert(res.ok(), `HTTP ${res.status()}`);
      await page.waitForFunction(() => window.citekitReady === true, null, { timeout: 15000 });
      await page.evaluate(() => {
        const host = document.createElement('div');
        host.id = 'touch-host';
        document.querySelector('main').prepend(host);
        window.touchEvents = [];
        for (const name of ['pointerdown', 'focusin', 'click']) {
          host.addEventListener(name, (e) => window.touchEvents.push(name === 'pointerdown' ? `${name}:${e.pointerType}` : name));
        }
        window.touchView = window.citekit.mount(host, { answer: window.sample.ANSWER, data: window.sample.DATA });
      });
      await page.waitForSelector('#touch-host .cite-marker__link');
    });

    const marker = (n) => `#touch-host .cite-answer__body .cite-marker__link >> nth=${n}`;
    const cardTitle = () => page.$eval('#touch-host .cite-card', (c) => c.querySelector('.cite-card__title')?.textContent ?? '');
    const isOpen = async () => !!(await page.$(OPEN));
    // Past the hover open delay and a frame: a card that is going to close has closed.
    const settle = () => page.waitForTimeout(300);

    await t('a tap opens the card (the focus of the same tap does not toggle it shut)', async () => {
      await page.tap(marker(0));
      await settle();
      const order = await page.evaluate(() => window.touchEvents.join(' '));
      // The order a phone gives: the focus comes between pointerdown and click.
      assert(/pointerdown:touch focusin click/.test(order), `event order of a tap: ${order}`);
      assert(await isOpen(), 'the card is not open after one tap');
      eq(await cardTitle(), 'Paris - Wikipedia', 'card title');
      eq(
        await page.evaluate(() => document.activeElement?.textContent),
        '1',
        'the tapped marker has focus',
      );
    });

    await t('a second tap on the same marker closes the card', async () => {
      await page.tap(marker(0));
      await settle();
      assert(!(await isOpen()), 'the card is still open after the second tap');
    });

    await t('a third tap opens it again', async () => {
      await page.tap(marker(0));
      await settle();
      assert(await isOpen(), 'the card did not reopen');
    });

    await t('a tap on another marker moves the card there', async () => {
      await page.tap(marker(1));
      await settle();
      assert(await isOpen(), 'no card after tapping the second marker');
      eq(await cardTitle(), 'Eiffel Tower history', 'card title');
      // Inside the layout viewport (the plain page has no viewport meta tag, so a phone
      // lays it out 980px wide and shows it scaled down).
      const box = await page.$eval('#touch-host .cite-card', (c) => {
        const r = c.getBoundingClientRect();
        return { left: r.left, right: r.right, width: window.innerWidth };
      });
      assert(box.left >= 0 && box.right <= box.width + 0.5, `card sticks out of the page: ${JSON.stringify(box)}`);
    });

    await t('a tap outside closes the card', async () => {
      await page.tap('h1');
      await settle();
      assert(!(await isOpen()), 'the card is still open after a tap outside');
    });

    await t('a tap never follows the marker link', async () => {
      await page.tap(marker(2));
      await settle();
      eq(new URL(page.url()).hash, '', 'location hash after taps');
      assert(await isOpen(), 'the card did not open');
    });

    await t('with the panel below the answer, a tap shows the card at the marker and selects the source without scrolling away', async () => {
      await page.evaluate(() => {
        window.touchView.update({ panel: true });
        document.body.style.minHeight = '3000px';
        window.scrollTo(0, 0);
      });
      await settle();
      await page.tap(marker(1));
      await settle();
      const r = await page.evaluate(() => ({
        y: window.scrollY,
        selected: document.querySelector('#touch-host .cite-source.cite-selected')?.dataset.source ?? null,
      }));
      assert(await isOpen(), 'card not open after the tap');
      eq(r.y, 0, 'page scrolled by the tap');
      assert(r.selected !== null, 'no source selected');
      await page.tap('main', { position: { x: 5, y: 5 } });
      await settle();
      await page.evaluate(() => {
        window.touchView.update({ panel: false });
        document.body.style.minHeight = '';
      });
    });

    await t('no page or console errors during the taps', async () => {
      await page.evaluate(() => window.touchView.destroy());
      eq(errors, [], 'errors');
    });
    await context.close();
  } finally {
    await browser.close();
  }
}
