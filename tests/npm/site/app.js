// The test app shared by the plain page (site/index.html) and the Vite app
// (vite-app/main.js): puts the package on `window` for the browser checks of
// tests/npm/browser-checks.mjs, feeds the <cited-answer> of the page, loads the module.
export const ANSWER =
  'Paris is the capital of France [1]. The Eiffel Tower was completed in 1889 [2][3].\n\n' +
  'Lyon is known for its cuisine [3].';

export const DATA = {
  1: {
    title: 'Paris - Wikipedia',
    source: 'https://en.wikipedia.org/wiki/Paris',
    text: 'Paris is the capital and largest city of France.',
  },
  2: {
    title: 'Eiffel Tower history',
    source: 'https://www.toureiffel.paris/en/the-monument/history',
    text: 'The tower was completed in March 1889.',
  },
  3: {
    title: 'Lyon travel guide',
    source: 'https://www.lonelyplanet.com/france/lyon',
    text: 'Lyon is the gastronomic capital of France.',
  },
  4: {
    title: 'Uncited source',
    source: 'https://example.org/uncited',
    text: 'Never cited.',
  },
};

/** An sse stream (format `sse`): tokens, a source, the citation map, done. */
export const SSE = [
  'data: {"type": "metadata", "session_id": "s1"}\n\n',
  'data: {"type": "token", "content": "Rust was first released "}\n\n',
  'data: {"type": "token", "content": "in 2015 [1]."}\n\n',
  'data: {"type": "citations", "data": {"1": {"title": "Rust 1.0 announcement", ',
  '"source": "https://blog.rust-lang.org/2015/05/15/Rust-1.0.html", "text": "Rust 1.0 is here."}}}\n\n',
  'data: [DONE]\n\n',
].join('');

/** A Vercel AI SDK UI message stream (format `ai-sdk`), its text in one part. */
export const UI_STREAM = [
  'data: {"type":"start","messageId":"msg-early"}\n\n',
  'data: {"type":"text-start","id":"0"}\n\n',
  'data: {"type":"text-delta","id":"0","delta":"Lyon is known for its cuisine."}\n\n',
].join('');

/** An OpenAI Responses output (format `openai`: in citekit's first module). */
export const OPENAI = {
  output: [
    {
      type: 'message',
      role: 'assistant',
      content: [
        {
          type: 'output_text',
          text: 'Rust 1.0 shipped in May 2015. It promised stability.',
          annotations: [
            {
              type: 'url_citation',
              start_index: 0,
              end_index: 29,
              url: 'https://blog.rust-lang.org/2015/05/15/Rust-1.0.html',
              title: 'Announcing Rust 1.0',
            },
          ],
        },
      ],
    },
  ],
};

/** A fast LLM's claims over its answer (format `posthoc`: in citekit's full module). */
export const POSTHOC = {
  response: 'Rust 1.0 shipped in May 2015. It promised stability.',
  sources: [{ title: 'Announcing Rust 1.0', url: 'https://blog.rust-lang.org/2015/05/15/Rust-1.0.html' }],
  citations: [{ claim: 'Rust 1.0 shipped in May 2015', sourceIndex: 1 }],
};

export async function start(citekit) {
  window.citekit = citekit;
  window.sample = { ANSWER, DATA, SSE, OPENAI, POSTHOC };
  window.pageErrors = [];
  window.addEventListener('error', (e) => window.pageErrors.push(String(e.message)));
  window.addEventListener('unhandledrejection', (e) => window.pageErrors.push(String(e.reason)));
  // Events from every answer reach the document (they bubble and are composed).
  window.documentEvents = [];
  for (const name of ['citation-click', 'source-select']) {
    document.addEventListener(name, (e) => window.documentEvents.push({ name, detail: e.detail }));
  }
  // The <cited-answer> of the page gets its inputs as properties; it waits for init.
  const el = document.getElementById('static-el');
  el.answer = ANSWER;
  el.data = DATA;
  // Text appended before init() resolves: mounted as a stream once it has.
  const early = document.createElement('cited-answer');
  early.id = 'early-el';
  early.data = DATA;
  document.querySelector('main').append(early);
  early.append('The Eiffel Tower was completed in 1889 [2');
  window.earlyReadyAtAppend = citekit.isReady();
  // An answer property growing before init() resolves (a framework sets the whole text
  // on every render): the module appends what grew once it has loaded.
  const grown = document.createElement('cited-answer');
  grown.id = 'early-grow-el';
  grown.data = DATA;
  document.querySelector('main').append(grown);
  grown.answer = 'Paris is the capital of France [1]. The Eiffel';
  grown.answer = 'Paris is the capital of France [1]. The Eiffel Tower was completed in 1889 [2';
  // A UI message stream appended before init() resolves to an `ai-sdk` element with no
  // data: an event stream (the registry's rule), kept as the data, not the answer.
  const events = document.createElement('cited-answer');
  events.id = 'early-events-el';
  events.setAttribute('format', 'ai-sdk');
  document.querySelector('main').append(events);
  events.append(UI_STREAM);
  window.earlyEvents = { answer: events.answer, data: events.data };
  await citekit.init();
  window.citekitReady = true;
}
