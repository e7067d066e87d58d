// OpenAI's and Perplexity's own streams, the chat streams of Azure On Your Data, xAI
// and Mistral (chat and Conversations), and the streams of LlamaIndex and LangChain
// apps, through the package (run on the plain page and on the Vite build by
// browser-checks.mjs): a recorded stream (tests/recorded/openai/, made with the real
// `openai` SDK; tests/fixtures/<format>/recorded.json, made with the platform's SDK by
// scripts/record-rag-platforms.mjs) appended raw to a mounted view a few characters at
// a time (cutting UTF-16 surrogate pairs and CRLF line ends), every render on the way
// watched, ending as a one-shot mount of the final object the app holds.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RAW_MARKER } from './host-checks.mjs';
import { ROOT, assert, eq } from './lib.mjs';

const recorded = (provider, name) => {
  if (!existsSync(join(ROOT, 'tests/recorded', provider))) {
    // A platform's recording: the stream case named `name` and the final object it is of.
    const cases = JSON.parse(readFileSync(join(ROOT, 'tests/fixtures', provider, 'recorded.json'), 'utf8')).cases;
    const stream = cases.find((c) => c.description === name);
    return { stream: stream.data, last: cases.find((c) => c.description === stream.stream_of).data };
  }
  return {
    stream: readFileSync(join(ROOT, 'tests/recorded', provider, `${name}.stream.txt`), 'utf8'),
    last: JSON.parse(readFileSync(join(ROOT, 'tests/recorded', provider, `${name}.final.json`), 'utf8')),
  };
};

/// In the page: the answer's prose (code taken out) and its live markers, as shown.
const SHOWN = `(el) => {
  const body = el.querySelector('.cite-answer__body');
  if (!body) return { prose: '', text: '', links: 0 };
  const copy = body.cloneNode(true);
  for (const c of copy.querySelectorAll('pre, code')) c.remove();
  return {
    prose: copy.textContent,
    text: body.textContent,
    links: body.querySelectorAll('.cite-marker__link').length,
  };
}`;

/// The Mistral chat answer's reference chunks: `[0]`, then `[1, 0]` (a marker each
/// source).
const MISTRAL_CHAT_MARKERS = 3;

export async function providerStreamChecks(t, page) {
  // [provider, recording, format given, markers at the end, whether a citation shows
  // before the text is complete (the chat stream's annotations come with its last text),
  // markers still held back at the end of the text before finish() (0 when left out)]
  const cases = [
    ['openai', 'responses-web-search', 'openai', 3, true],
    ['openai', 'responses-file-citations', 'openai', 3, true],
    ['openai', 'chat-web-search', 'sse', 3, false],
    ['perplexity', 'chat-citations', 'perplexity', 5, true],
    // Detected from the first choice chunk's `context`.
    ['azure', 'AzureOpenAI chat.completions.create stream (On Your Data) chunks forwarded as SSE', 'sse', 4, true],
    ['xai', 'openai chat.completions.create stream from xAI (Live Search) chunks forwarded as SSE', 'xai', 2, true],
    ['mistral', '@mistralai/mistralai chat.stream events forwarded as SSE', 'mistral', MISTRAL_CHAT_MARKERS, true],
    // Detected from its `message.output.delta` events.
    ['mistral', '@mistralai/mistralai beta.conversations.startStream events forwarded as SSE', 'sse', 2, true],
  ];
  await streamChecks(t, page, cases);
}

/// The streams of LlamaIndex and LangChain apps (read by the full module: run once it is
/// on the page, so that the checks before it see the first module alone).
export async function platformStreamChecks(t, page) {
  await streamChecks(t, page, [
    // LlamaIndex Server's stream starts as any AI SDK stream may: named.
    // Its text ends in a marker, which may still grow into a group ([a][b]) until
    // finish(): one link fewer before it (LlamaIndex Server sends no `finish` chunk).
    ['llamaindex', 'a LlamaIndex Server chat stream for @llamaindex/chat-ui', 'llamaindex', 4, true, 1],
    ['langchain', 'ChatOpenAI.stream() chunks forwarded as SSE (JSON.stringify(chunk))', 'sse', 2, true],
    ['langchain', 'LangGraph messages-tuple stream of the same chunks', 'langchain', 2, true],
  ]);
}

async function streamChecks(t, page, cases) {
  for (const [provider, name, format, markers, early, heldAtEnd = 0] of cases) {
    await t(`mount: the ${provider} ${name} stream appended raw as format ${format}, every render watched, ends as a mount of the SDK's final object`, async () => {
      const { stream, last } = recorded(provider, name);
      // The platforms' formats are the full module's: loaded first, on a page of their
      // own (the checks after these count the modules fetched), as a page showing them
      // does with `loadFormats()`, so that what is watched is the stream's reading (the
      // move from the first module while streaming is browser-checks.mjs's).
      const full = !existsSync(join(ROOT, 'tests/recorded', provider));
      const on = full ? await page.context().newPage() : page;
      if (full) {
        await on.goto(page.url());
        await on.waitForFunction(() => window.citekitReady === true, null, { timeout: 15000 });
      }
      const r = await on.evaluate(async ({ stream, last, format, SHOWN, full }) => {
        const shownOf = eval(SHOWN);
        const { mount, loadFormats } = window.citekit;
        if (full) await loadFormats();
        const el = document.createElement('div');
        document.body.append(el);
        const view = mount(el, { answer: null, data: '', format });
        const renders = [];
        const observer = new MutationObserver(() => renders.push(shownOf(el)));
        observer.observe(el, { subtree: true, childList: true, characterData: true, attributes: true });
        let root = null;
        let rebuilt = false;
        for (let i = 0; i < stream.length; i += 7) {
          view.append(stream.slice(i, i + 7));
          await new Promise((res) => setTimeout(res, 0));
          renders.push(shownOf(el));
          const now = el.querySelector('.cite-answer__body > *');
          if (root === null) root = now;
          else if (root && !root.isConnected) rebuilt = true;
        }
        const beforeFinish = shownOf(el);
        view.finish();
        await new Promise((res) => setTimeout(res, 30));
        observer.disconnect();
        const body = (e) => ({
          text: e.querySelector('.cite-answer__body').textContent,
          links: [...e.querySelectorAll('.cite-answer__body .cite-marker__link')].map((a) => a.textContent),
          notes: [...e.querySelectorAll('.cite-footnotes__list > li')].map((li) => li.textContent),
        });
        const streamed = body(el);
        const el2 = document.createElement('div');
        document.body.append(el2);
        const once = mount(el2, { answer: null, data: last });
        await new Promise((res) => setTimeout(res, 30));
        const whole = body(el2);
        view.destroy();
        once.destroy();
        el.remove();
        el2.remove();
        return { renders, beforeFinish, streamed, whole, rebuilt };
      }, { stream, last, format, SHOWN, full });
      if (full) await on.close();
      assert(r.renders.length > 20, `only ${r.renders.length} renders watched`);
      for (const [i, s] of r.renders.entries()) {
        assert(!RAW_MARKER.test(s.prose), `render ${i}: a raw marker shows: ${JSON.stringify(s.prose)}`);
        for (const raw of ['data:', 'event:', '"type"', 'response.', '[DONE]', '[doc', '[citation', 'citation:', '\ufffd']) {
          assert(!s.text.includes(raw), `render ${i}: ${JSON.stringify(raw)} shows: ${JSON.stringify(s.text)}`);
        }
      }
      assert(r.renders.some((s) => s.text.length > 0 && s.links === 0), 'the text never showed before its first citation');
      if (early) {
        assert(r.renders.some((s) => s.links > 0 && s.text.length < r.whole.text.length), 'no citation showed while the answer streamed');
      }
      eq(r.beforeFinish.links, markers - heldAtEnd, 'citations shown before finish()');
      assert(!r.rebuilt, 'a block already shown was rebuilt');
      eq(r.whole.links.length, markers, 'markers of the one-shot mount');
      eq(r.streamed, r.whole, 'the streamed answer equals the one-shot mount of the final object');
    });
  }
}
