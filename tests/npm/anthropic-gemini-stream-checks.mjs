// Providers' own event streams through the package (run on the plain page and on the
// Vite build by browser-checks.mjs): the Anthropic Messages stream and Gemini's
// alt=sse stream recorded with the real SDKs (tests/recorded/provider-streams/)
// appended raw to a mounted view a few characters at a time (also between the two
// halves of a surrogate pair), every render watched: no raw marker or event syntax in
// the prose, the text shown always the start of the final text, markers before the
// end, blocks already shown kept as the same nodes; the end equals a one-shot
// mount of the final object the SDK made.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RAW_MARKER } from './host-checks.mjs';
import { ROOT, assert, eq } from './lib.mjs';

const recorded = (name) => ({
  stream: readFileSync(join(ROOT, 'tests/recorded/provider-streams', `${name}.stream.txt`), 'utf8'),
  final: JSON.parse(readFileSync(join(ROOT, 'tests/recorded/provider-streams', `${name}.final.json`), 'utf8')),
});

/** `v` with every object's keys in sorted order. */
const sortedKeys = (v) => (Array.isArray(v)
  ? v.map(sortedKeys)
  : v && typeof v === 'object'
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortedKeys(v[k])]))
    : v);

export async function providerStreamChecks(t, page) {
  // Regression: parse(null, stream) with no format read an Anthropic or Gemini stream as
  // sse (the raw events as the answer) while it detected OpenAI's.
  await t('parse: a whole recorded Anthropic or Gemini stream with no format is detected and equals parse of its final object', async () => {
    for (const [name, format] of [['anthropic-web-search', 'anthropic'], ['gemini-grounding', 'gemini']]) {
      const { stream, final } = recorded(name);
      const r = await page.evaluate(async ({ stream, final }) => {
        const { parse, mount } = window.citekit;
        // A mount with the stream as data and no format shows what one of the final
        // object shows.
        const shown = async (data) => {
          const el = document.createElement('div');
          document.body.append(el);
          const view = mount(el, { answer: null, data });
          await new Promise((res) => setTimeout(res, 30));
          const text = el.querySelector('.cite-answer__body')?.textContent ?? '';
          view.destroy();
          el.remove();
          return text;
        };
        return {
          ofStream: parse(null, stream),
          ofFinal: parse(null, final),
          shown: await shown(stream),
          shownFinal: await shown(final),
        };
      }, { stream, final });
      eq(r.ofStream.format, format, `${name}: detected format`);
      // The kept metadata's keys come in the stream's order: compared as a set.
      eq(sortedKeys(r.ofStream), sortedKeys(r.ofFinal), `${name}: parse of the stream equals parse of the final object`);
      assert(r.shownFinal.length > 0 && !/event:|data:/.test(r.shown), `${name}: mount with no format shows ${JSON.stringify(r.shown.slice(0, 120))}`);
      eq(r.shown, r.shownFinal, `${name}: a mount of the stream with no format shows what a mount of the final object shows`);
    }
  });
  for (const [name, format, code] of [['anthropic-web-search', 'anthropic', 'tickets['], ['gemini-grounding', 'sse', 'sommets[']]) {
    await t(`mount: the ${name} provider stream appended raw as format ${format}, every render watched, ends as a mount of its final object`, async () => {
      const { stream, final } = recorded(name);
      const r = await page.evaluate(async ({ stream, final, format }) => {
        const { mount } = window.citekit;
        // The text a reader sees, the markers' numbers left out.
        const withoutMarkers = (body) => {
          const c = body.cloneNode(true);
          for (const m of c.querySelectorAll('sup, .cite-marker')) m.remove();
          return c.textContent;
        };
        const el = document.createElement('div');
        document.body.append(el);
        const view = mount(el, { answer: null, data: '', format });
        const renders = [];
        let firstPara = null;
        let firstParaText = '';
        for (let i = 0; i < stream.length; i += 5) {
          view.append(stream.slice(i, i + 5));
          await new Promise((res) => setTimeout(res, 0));
          const body = el.querySelector('.cite-answer__body');
          const blocks = body ? [...body.querySelectorAll(':scope > .cite-block')] : [];
          // The first block, once a later block follows it, is complete: it must stay
          // the same node to the end (markers may come into it in place).
          if (!firstPara && blocks.length > 1) {
            firstPara = blocks[0];
            firstParaText = withoutMarkers(firstPara);
          }
          renders.push({
            text: body?.textContent ?? '',
            plain: body ? withoutMarkers(body) : '',
            links: body ? body.querySelectorAll('.cite-marker__link').length : 0,
          });
        }
        view.finish();
        await new Promise((res) => setTimeout(res, 30));
        const shown = (e) => ({
          text: e.querySelector('.cite-answer__body').textContent,
          plain: withoutMarkers(e.querySelector('.cite-answer__body')),
          links: [...e.querySelectorAll('.cite-answer__body .cite-marker__link')].map((a) => [a.textContent, a.getAttribute('href').replace(/^#cite\d+-/, '#')]),
          notes: [...e.querySelectorAll('.cite-footnotes__list > li')].map((li) => li.textContent),
          panel: e.querySelectorAll('.cite-panel__item, .cite-sources__item, [class*="cite-panel"] li').length,
        });
        const streamed = shown(el);
        const kept = firstPara !== null && firstPara.isConnected && withoutMarkers(firstPara) === firstParaText
          && el.querySelector('.cite-answer__body > .cite-block') === firstPara;
        const el2 = document.createElement('div');
        document.body.append(el2);
        const once = mount(el2, { answer: null, data: final });
        await new Promise((res) => setTimeout(res, 30));
        const whole = shown(el2);
        view.destroy();
        once.destroy();
        el.remove();
        el2.remove();
        return { renders, streamed, whole, kept, sawFirst: firstPara !== null };
      }, { stream, final, format });
      let markersBeforeEnd = false;
      for (const [i, { text, plain, links }] of r.renders.entries()) {
        const prose = text.split(code)[0];
        assert(!RAW_MARKER.test(prose), `render ${i}: a raw marker shows: ${JSON.stringify(text)}`);
        assert(!/event:|data:|"type"|candidates/.test(text), `render ${i}: raw event syntax shows: ${JSON.stringify(text)}`);
        assert(r.whole.plain.startsWith(plain.trimEnd()), `render ${i}: ${JSON.stringify(plain)} is not the start of the final text`);
        if (links > 0 && i + 1 < r.renders.length) markersBeforeEnd = true;
      }
      assert(r.renders.some((x) => x.text.length > 0), 'the answer never showed while streaming');
      if (format === 'anthropic') assert(markersBeforeEnd, 'no marker showed before the stream ended');
      assert(r.sawFirst && r.kept, 'the first block was rebuilt while streaming');
      assert(r.whole.links.length >= 3, `markers in the one-shot mount: ${JSON.stringify(r.whole)}`);
      eq(r.streamed, r.whole, 'the streamed answer equals the one-shot mount of the final object');
    });
  }
}
