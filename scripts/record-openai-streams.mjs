// Records OpenAI's and Perplexity's own event streams and what the real `openai` SDK
// makes of them, for citekit's provider streams (`openai`, `perplexity` appended raw).
//
// For each case the stream body is written in the provider's documented wire format
// (server-sent events) and handed, cut into network chunks of uneven sizes (one cut
// inside a multi-byte UTF-8 character), to the real `openai` npm SDK through its
// `fetch` option; no network is used. The SDK's final object is what an app holds
// once the stream ends:
// - OpenAI Responses: `client.responses.stream(...)`, then `finalResponse()`;
// - OpenAI Chat Completions: `client.chat.completions.stream(...)`, then
//   `finalChatCompletion()`;
// - Perplexity: the same `chat.completions.stream` with `baseURL:
//   'https://api.perplexity.ai'`, as Perplexity documents its OpenAI compatibility.
//
// Each case writes, under tests/recorded/<provider>/:
// - <case>.stream.txt: the stream body, byte for byte;
// - <case>.final.json: the SDK's final object.
//
// Where each event's shape comes from is said at each builder below and in
// tests/recorded/openai/README.md. Run by hand: node scripts/record-openai-streams.mjs

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { deltas, rangeOf, streamingFetch } from './lib/wire.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// ------------------------------------------------------------------ OpenAI Responses
// Wire format: `event: <type>` and `data: <json>` per event, each with a
// `sequence_number` (OpenAI's API reference, "Streaming events" of the Responses API).
// Event and field shapes follow the recorded stream in vercel/ai
// packages/openai/src/responses/__fixtures__/openai-web-search-tool.1.chunks.txt
// (`response.created`, `response.output_item.added`, `response.content_part.added`,
// `response.output_text.delta` with `logprobs` and `obfuscation`,
// `response.output_text.annotation.added` with `annotation_index` after the text it
// covers, `response.output_text.done`, `response.content_part.done`,
// `response.output_item.done`, `response.completed` with the whole response); the
// `file_citation` `{file_id, filename, index}` of openai-file-search-tool.1.chunks.txt
// and the `container_file_citation` `{container_id, file_id, filename, start_index,
// end_index}` of openai-code-interpreter-tool.1.chunks.txt in the same folder.

function response(id, model, status, output, usage) {
  return {
    id, object: 'response', created_at: 1764964102, status, background: false, error: null,
    incomplete_details: null, instructions: null, max_output_tokens: null, max_tool_calls: null, model, output,
    parallel_tool_calls: true, previous_response_id: null, reasoning: { effort: 'low', summary: null },
    service_tier: 'default', store: true, temperature: 1, text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto', tools: [{ type: 'web_search' }], top_p: 1, truncation: 'disabled', usage, user: null, metadata: {},
  };
}

/// A Responses stream: `items` before the message (done as a whole: reasoning, tool
/// calls), then each message of `messages` `{text, annotations: [{at: [s, e] | index,
/// ...annotation}]}` streamed in deltas, its annotations after the text they cover.
function responsesStream({ id, model, items, messages, keepAlive }) {
  const events = [];
  const push = (e) => events.push(e);
  push({ type: 'response.created', response: response(id, model, 'in_progress', [], null) });
  push({ type: 'response.in_progress', response: response(id, model, 'in_progress', [], null) });
  const output = [];
  for (const item of items) {
    const index = output.length;
    push({ type: 'response.output_item.added', output_index: index, item: { ...item, status: 'in_progress' } });
    if (item.type === 'web_search_call') {
      for (const t of ['in_progress', 'searching', 'completed']) push({ type: `response.web_search_call.${t}`, output_index: index, item_id: item.id });
    }
    push({ type: 'response.output_item.done', output_index: index, item });
    output.push(item);
  }
  for (const [m, message] of messages.entries()) {
    const index = output.length;
    const itemId = `msg_${id.slice(5)}${m}`;
    push({ type: 'response.output_item.added', output_index: index, item: { id: itemId, type: 'message', status: 'in_progress', content: [], role: 'assistant' } });
    push({ type: 'response.content_part.added', item_id: itemId, output_index: index, content_index: 0, part: { type: 'output_text', annotations: [], logprobs: [], text: '' } });
    const annotations = message.annotations.map(({ at, ...a }) => (Array.isArray(at) ? { ...a, start_index: at[0], end_index: at[1] } : { ...a, index: at }));
    const reach = (a) => a.end_index ?? a.index;
    let streamed = 0;
    let next = 0;
    for (const d of deltas(message.text)) {
      push({ type: 'response.output_text.delta', item_id: itemId, output_index: index, content_index: 0, delta: d, logprobs: [], obfuscation: 'Qx' });
      streamed += d.length;
      while (next < annotations.length && reach(annotations[next]) <= streamed) {
        push({ type: 'response.output_text.annotation.added', item_id: itemId, output_index: index, content_index: 0, annotation_index: next, annotation: annotations[next] });
        next += 1;
      }
    }
    push({ type: 'response.output_text.done', item_id: itemId, output_index: index, content_index: 0, text: message.text, logprobs: [] });
    const part = { type: 'output_text', annotations, logprobs: [], text: message.text };
    push({ type: 'response.content_part.done', item_id: itemId, output_index: index, content_index: 0, part });
    const item = { id: itemId, type: 'message', status: 'completed', content: [part], role: 'assistant' };
    push({ type: 'response.output_item.done', output_index: index, item });
    output.push(item);
  }
  const usage = { input_tokens: 812, input_tokens_details: { cached_tokens: 0 }, output_tokens: 214, output_tokens_details: { reasoning_tokens: 64 }, total_tokens: 1026 };
  push({ type: 'response.completed', response: response(id, model, 'completed', output, usage) });
  return events
    .map((e, i) => {
      const text = `event: ${e.type}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`;
      // A proxy's keep-alive comment now and then (SSE comments are ignored).
      return keepAlive && i % 9 === 4 ? `: keep-alive\n\n${text}` : text;
    })
    .join('');
}

const webText =
  'Le café à Zürich coûte plus, 東京も 🎉. ' +
  'Swiss prices rose 0.2% ([swissinfo.ch](https://www.swissinfo.ch/eng/prices/?utm_source=openai)). ' +
  'Tokyo’s CPI was 3.0% ([nikkei.com](https://asia.nikkei.com/tokyo-cpi?utm_source=openai)).\n\n' +
  'Zürich stays dearest ([swissinfo.ch](https://www.swissinfo.ch/eng/prices/?utm_source=openai)).\n\n' +
  '```python\nprint(p[1])  # [1] is an index\n```\n\nMonth on month.';

const swissinfo = { type: 'url_citation', title: 'Swiss inflation eases to 0.2%', url: 'https://www.swissinfo.ch/eng/prices/?utm_source=openai' };
const nikkei = { type: 'url_citation', title: 'Tokyo CPI rises 3.0% — 東京', url: 'https://asia.nikkei.com/tokyo-cpi?utm_source=openai' };
const swissLink = '([swissinfo.ch](https://www.swissinfo.ch/eng/prices/?utm_source=openai))';
const nikkeiLink = '([nikkei.com](https://asia.nikkei.com/tokyo-cpi?utm_source=openai))';

const fileText =
  'Die Prüfung ergab 🔍, 問題は三つ. ' +
  'It renews unless cancelled 90 days ahead. ' +
  'Penalties are capped at 5%. ' +
  'The dice mean was 7.02 (roll2dice_summary.csv).';

const fileCitation = (filename, fileId, sentence) => ({ type: 'file_citation', file_id: fileId, filename, at: fileText.indexOf(sentence) + sentence.length });

const cases = [];

cases.push({
  provider: 'openai',
  name: 'responses-web-search',
  kind: 'responses',
  body: responsesStream({
    id: 'resp_0aa96ac817fdc57e00693337060a4081',
    model: 'gpt-5-mini-2025-08-07',
    keepAlive: true,
    items: [
      { id: 'rs_0aa96ac817fdc57e0069333706f57481', type: 'reasoning', summary: [] },
      {
        id: 'ws_0aa96ac817fdc57e006933370e71cc81', type: 'web_search_call', status: 'completed',
        action: { type: 'search', query: 'Zürich Tokyo inflation November 2025', sources: [{ type: 'url', url: 'https://www.swissinfo.ch/eng/business/swiss-inflation-november/' }, { type: 'url', url: 'https://asia.nikkei.com/economy/tokyo-core-cpi-november' }] },
      },
    ],
    messages: [
      {
        text: webText,
        annotations: [
          { ...swissinfo, at: rangeOf(webText, swissLink, 0) },
          { ...nikkei, at: rangeOf(webText, nikkeiLink) },
          { ...swissinfo, at: rangeOf(webText, swissLink, 1) },
        ],
      },
    ],
  }),
});

cases.push({
  provider: 'openai',
  name: 'responses-file-citations',
  kind: 'responses',
  body: responsesStream({
    id: 'resp_68c2e7054ae481938354ab3e4e77abad',
    model: 'gpt-5-2025-08-07',
    items: [
      { id: 'fs_68c2e7054ae481938354ab3e4e77ab01', type: 'file_search_call', status: 'completed', queries: ['contract renewal penalties'], results: null },
      { id: 'ci_68c2e7054ae481938354ab3e4e77ab02', type: 'code_interpreter_call', status: 'completed', code: 'mean(rolls)', container_id: 'cntr_68c2e6f380d881908a57a82d', outputs: null },
    ],
    messages: [
      {
        text: fileText,
        annotations: [
          fileCitation('contract.pdf', 'file-Ebzhf8H4DPGPr9pUhr7n7v', 'cancelled 90 days ahead.'),
          fileCitation('contract.pdf', 'file-Ebzhf8H4DPGPr9pUhr7n7v', 'capped at 5%.'),
          { type: 'container_file_citation', container_id: 'cntr_68c2e6f380d881908a57a82d', file_id: 'cfile_68c2e7084ab48191a67824aa', filename: 'roll2dice_summary.csv', at: rangeOf(fileText, 'roll2dice_summary.csv') },
        ],
      },
      { text: 'Ask for clauses 🙂.', annotations: [] },
    ],
  }),
});

// ------------------------------------------------------------ OpenAI Chat Completions
// Wire format: `data: <chunk json>` per chunk, ending with `data: [DONE]` (OpenAI's
// API reference, "The chat completion chunk object"; "stream": true). Chunk fields
// follow vercel/ai packages/openai/src/chat/__fixtures__/openai-text.chunks.txt (`id`,
// `object: "chat.completion.chunk"`, `created`, `model`, `service_tier`,
// `system_fingerprint`, `choices[{index, delta: {role, content, refusal}, logprobs,
// finish_reason}]`, `usage: null`, `obfuscation`; a last chunk with empty `choices` and
// the usage). Web search annotations (`gpt-4o-search-preview`) are
// `{type: "url_citation", url_citation: {start_index, end_index, url, title}}` as in
// the completion's `message.annotations` (OpenAI's web search guide); they come here in
// one delta with the last text, which public docs do not confirm.

function chatStream({ id, model, text, annotations, extra = {}, done = true, crlf = false }) {
  const base = { id, object: 'chat.completion.chunk', created: 1770933892, model, ...extra };
  const chunks = [];
  const parts = deltas(text);
  chunks.push({ ...base, service_tier: 'default', system_fingerprint: 'fp_de604bd877', choices: [{ index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null }], usage: null, obfuscation: 'Qup1' });
  for (const [k, d] of parts.entries()) {
    const delta = { content: d };
    if (k === parts.length - 1 && annotations) delta.annotations = annotations;
    chunks.push({ ...base, service_tier: 'default', system_fingerprint: 'fp_de604bd877', choices: [{ index: 0, delta, logprobs: null, finish_reason: null }], usage: null, obfuscation: 'yh' });
  }
  chunks.push({ ...base, service_tier: 'default', system_fingerprint: 'fp_de604bd877', choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }], usage: null, obfuscation: 'zap0' });
  chunks.push({ ...base, service_tier: 'default', system_fingerprint: 'fp_de604bd877', choices: [], usage: { prompt_tokens: 16, completion_tokens: 120, total_tokens: 136 }, obfuscation: 'Zk' });
  const nl = crlf ? '\r\n' : '\n';
  return chunks.map((c) => `data: ${JSON.stringify(c)}${nl}${nl}`).join('') + (done ? `data: [DONE]${nl}${nl}` : '');
}

const chatText =
  'Zürich’s café, 東京も 🎉. Swiss prices rose 0.2% ' + swissLink + '. ' +
  'Tokyo’s CPI was 3.0% ' + nikkeiLink + ', Zürich stays dearest ' + swissLink + '.\n\n' +
  '```js\nconst b = p[1]; // [1] is an index\n```\n';

const chatCite = ({ title, url }, [s, e]) => ({ type: 'url_citation', url_citation: { start_index: s, end_index: e, title, url } });

cases.push({
  provider: 'openai',
  name: 'chat-web-search',
  kind: 'chat',
  body: chatStream({
    id: 'chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0',
    model: 'gpt-4o-search-preview-2025-03-11',
    text: chatText,
    annotations: [
      chatCite(swissinfo, rangeOf(chatText, swissLink, 0)),
      chatCite(nikkei, rangeOf(chatText, nikkeiLink)),
      chatCite(swissinfo, rangeOf(chatText, swissLink, 1)),
    ],
  }),
});

// -------------------------------------------------------------------------- Perplexity
// Wire format: OpenAI's chat completion chunks (`data: <json>`), with Perplexity's
// `citations` (urls) and `search_results` `[{title, url, date, last_updated,
// snippet}]` on the chunks: on every chunk, as in vercel/ai
// packages/perplexity/src/__fixtures__/perplexity-citations.chunks.txt (whose chunks
// carry `id`, `model: "sonar"`, `created`, `usage`, `citations`, `object:
// "chat.completion.chunk"`, `choices[{index, delta: {role, content}}]`). Whether
// Perplexity ends with `data: [DONE]` is not said in its docs; this stream does not,
// and is written with CRLF line ends (the test reads both line ends anyway).

const pplxText =
  'Le café à Zürich 🎉, 東京も. Swiss prices rose 0.2% [1][2]. ' +
  'Tokyo’s CPI was 3.0% [3]. Zürich stays dearest [1].\n\n' +
  '```py\nprint(p[1])\n```\n\nSee above [2].';
const pplxCitations = ['https://www.swissinfo.ch/eng/prices/', 'https://www.bfs.admin.ch/prices.html', 'https://asia.nikkei.com/tokyo-cpi'];
const pplxResults = [
  { title: 'Swiss inflation eases', url: pplxCitations[0], date: '2025-12-02', last_updated: '2025-12-03', snippet: 'Prices rose 0.2%…' },
  { title: 'Prix – OFS', url: pplxCitations[1], date: null, last_updated: '2025-12-01', snippet: 'Le renchérissement…' },
  { title: 'Tokyo CPI — 東京', url: pplxCitations[2], date: '2025-11-28', last_updated: null, snippet: '東京都区部…' },
];

function perplexityStream() {
  const base = { id: '58cb9740-f356-49e9-b71e-a02a1376c1b9', model: 'sonar', created: 1770768240 };
  const parts = deltas(pplxText);
  const chunks = parts.map((d, k) => ({
    ...base,
    usage: { prompt_tokens: 10, completion_tokens: k + 1, total_tokens: 11 + k },
    citations: pplxCitations,
    search_results: pplxResults,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { role: 'assistant', content: d }, finish_reason: k === parts.length - 1 ? 'stop' : null }],
  }));
  return chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join('');
}

cases.push({ provider: 'perplexity', name: 'chat-citations', kind: 'perplexity', body: perplexityStream() });

// ------------------------------------------------------------------------- recording

async function finalObject(c) {
  const seen = [];
  const client = new OpenAI({
    apiKey: 'test-key',
    baseURL: c.provider === 'perplexity' ? 'https://api.perplexity.ai' : 'https://api.openai.com/v1',
    fetch: streamingFetch(c.body, seen),
    maxRetries: 0,
  });
  const input = 'How did café prices in Zürich and Tokyo change in November 2025?';
  let final;
  if (c.kind === 'responses') {
    const stream = client.responses.stream({ model: 'gpt-5-mini', input, tools: [{ type: 'web_search' }] });
    final = await stream.finalResponse();
  } else {
    const model = c.kind === 'perplexity' ? 'sonar' : 'gpt-4o-search-preview';
    const stream = client.chat.completions.stream({ model, messages: [{ role: 'user', content: input }] });
    final = await stream.finalChatCompletion();
  }
  if (seen.length !== 1) throw new Error(`${c.name}: ${seen.length} requests`);
  return JSON.parse(JSON.stringify(final));
}

for (const c of cases) {
  const final = await finalObject(c);
  const dir = join(root, 'tests/recorded', c.provider);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${c.name}.stream.txt`), c.body);
  writeFileSync(join(dir, `${c.name}.final.json`), `${JSON.stringify(final, null, 2)}\n`);
  console.log(`${c.provider}/${c.name}: ${c.body.length} characters of stream`);
}
