// The Vercel AI SDK format through the package (run on the plain page and on the Vite
// build by browser-checks.mjs): `parse` of a recorded UIMessage and of its parts, and
// the recorded UI message stream appended raw to a mounted view, cut every few
// characters, ending as a one-shot mount of the final message. The recordings come
// from the real SDK (tests/recorded/ai-sdk/README.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RAW_MARKER } from './host-checks.mjs';
import { ROOT, assert, eq } from './lib.mjs';

const recorded = (name) => ({
  stream: readFileSync(join(ROOT, 'tests/recorded/ai-sdk', `${name}.stream.txt`), 'utf8'),
  message: JSON.parse(readFileSync(join(ROOT, 'tests/recorded/ai-sdk', `${name}.message.json`), 'utf8')),
});

export async function uiStreamChecks(t, page) {
  await t('parse: a UIMessage and its parts are the ai-sdk format (sources kept, markers placed)', async () => {
    const { message } = recorded('perplexity-edge-cases');
    const r = await page.evaluate((message) => {
      const { parse } = window.citekit;
      const whole = parse(null, message);
      const parts = parse(null, message.parts);
      const messages = parse(null, [{ id: 'u', role: 'user', parts: [{ type: 'text', text: 'Q?' }] }, message]);
      return [whole, parts, messages].map((a) => ({
        format: a.format,
        sources: a.sources.length,
        cited: a.citations.map((c) => a.text.slice(c.start, c.end)),
        unsafe: a.diagnostics.filter((d) => d.code === 'unsafe-url').length,
      }));
    }, message);
    for (const x of r) {
      eq(x.format, 'ai-sdk', 'format');
      eq(x.sources, 3, 'sources');
      eq(x.unsafe, 1, 'unsafe-url diagnostics');
      eq(x.cited, [
        'En Rust, une `String` est encodée en UTF‑8 : « héllo » ou 日本語 🦀 prennent plusieurs octets par caractère',
        'Voir aussi ce lien',
        'et la documentation',
      ], 'cited spans (UTF-16 offsets)');
    }
  });

  for (const [name, format] of [['perplexity-edge-cases', 'ai-sdk'], ['openai-web-search', 'sse']]) {
    await t(`mount: the ${name} UI message stream appended raw as format ${format} ends as a mount of its final message`, async () => {
      const { stream, message } = recorded(name);
      const r = await page.evaluate(async ({ stream, message, format }) => {
        const { mount } = window.citekit;
        const el = document.createElement('div');
        document.body.append(el);
        const view = mount(el, { answer: null, data: '', format });
        const shown = [];
        for (let i = 0; i < stream.length; i += 7) {
          view.append(stream.slice(i, i + 7));
          await new Promise((res) => setTimeout(res, 0));
          shown.push(el.querySelector('.cite-answer__body')?.textContent ?? '');
        }
        view.finish();
        await new Promise((res) => setTimeout(res, 30));
        const body = (e) => ({
          text: e.querySelector('.cite-answer__body').textContent,
          links: [...e.querySelectorAll('.cite-answer__body .cite-marker__link')].map((a) => a.textContent),
          notes: e.querySelectorAll('.cite-footnotes__list > li').length,
        });
        const streamed = body(el);
        const el2 = document.createElement('div');
        document.body.append(el2);
        const once = mount(el2, { answer: null, data: message });
        await new Promise((res) => setTimeout(res, 30));
        const whole = body(el2);
        view.destroy();
        once.destroy();
        el.remove();
        el2.remove();
        return { shown, streamed, whole };
      }, { stream, message, format });
      for (const [i, text] of r.shown.entries()) {
        const prose = text.split('let v')[0];
        assert(!RAW_MARKER.test(prose), `chunk ${i}: a raw marker shows: ${JSON.stringify(text)}`);
      }
      assert(r.shown.some((s) => s.length > 0), 'the answer never showed while streaming');
      assert(r.whole.links.length > 0, `no marker in the one-shot mount: ${JSON.stringify(r.whole)}`);
      eq(r.streamed, r.whole, 'the streamed answer equals the one-shot mount of the final message');
    });
  }

  await t('<cited-answer format="ai-sdk">: a UI message stream grown in `data` streams as sse does, ending as a mount of its final message', async () => {
    // Mounted in the middle of the stream, right after a text delta that ends in a
    // half marker (`[1`, the recording splits `[1][2]`): held back, as for sse.
    const { stream, message } = recorded('perplexity-citations');
    const cut = stream.indexOf('\n\n', stream.indexOf('"delta":"[1"')) + 2;
    assert(cut > 2, 'the recording has a delta `[1`');
    const r = await page.evaluate(async ({ stream, message, cut }) => {
      const { mount } = window.citekit;
      const el = document.createElement('cited-answer');
      el.setAttribute('format', 'ai-sdk');
      el.streaming = true;
      el.data = stream.slice(0, cut);
      document.body.append(el);
      await new Promise((res) => setTimeout(res, 0));
      const shown = [el.querySelector('.cite-answer__body')?.textContent ?? ''];
      let root = el.querySelector('.cite-root');
      let rebuilt = false;
      for (let i = cut; i < stream.length; i += 7) {
        el.data = stream.slice(0, i + 7);
        await new Promise((res) => setTimeout(res, 0));
        const body = el.querySelector('.cite-answer__body');
        shown.push(body?.textContent ?? '');
        const now = el.querySelector('.cite-root');
        if (root === null) root = now;
        else if (now !== root) rebuilt = true;
      }
      el.streaming = false;
      await new Promise((res) => setTimeout(res, 30));
      const body = (e) => ({
        text: e.querySelector('.cite-answer__body').textContent,
        links: [...e.querySelectorAll('.cite-answer__body .cite-marker__link')].map((a) => a.textContent),
        notes: [...e.querySelectorAll('.cite-footnotes__list > li')].map((li) => li.textContent),
        panel: [...e.querySelectorAll('.cite-panel .cite-source__title')].map((s) => s.textContent),
      });
      const streamed = body(el);
      const el2 = document.createElement('div');
      document.body.append(el2);
      const once = mount(el2, { answer: null, data: message });
      await new Promise((res) => setTimeout(res, 30));
      const whole = body(el2);
      once.destroy();
      el.remove();
      el2.remove();
      return { shown, streamed, whole, rebuilt };
    }, { stream, message, cut });
    for (const [i, text] of r.shown.entries()) {
      assert(!RAW_MARKER.test(text), `chunk ${i}: a raw marker shows: ${JSON.stringify(text)}`);
    }
    assert(r.shown[0].length > 0, 'the text before the half marker did not show at the mount');
    assert(!r.rebuilt, 'the view was mounted again while the stream grew (not appended)');
    assert(r.whole.links.length > 0, `no marker in the one-shot mount: ${JSON.stringify(r.whole)}`);
    eq(r.streamed, r.whole, 'the streamed answer equals the one-shot mount of the final message');
  });
}
