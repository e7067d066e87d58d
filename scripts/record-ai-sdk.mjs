// Records what the real Vercel AI SDK hands an app, for citekit's `ai-sdk` format.
//
// For each case, `streamText` from `ai` runs with a real provider package
// (@ai-sdk/openai, @ai-sdk/anthropic, @ai-sdk/google, @ai-sdk/perplexity) whose
// `fetch` answers with a provider response written in that provider's streaming
// wire format (server-sent events), cut into network chunks at odd places (one
// cut falls inside a multi-byte UTF-8 character). No network is used.
//
// Each case writes, under tests/recorded/ai-sdk/:
// - <case>.stream.txt: the body of `result.toUIMessageStreamResponse()` (the UI
//   message stream a route handler sends to `useChat`, header
//   `x-vercel-ai-ui-message-stream: v1`), byte for byte;
// - <case>.message.json: the final UIMessage `useChat` holds, read back from that
//   stream text with `readUIMessageStream` (and checked against the `onFinish`
//   `responseMessage` of the route handler).
//
// Run by hand (not part of npm test): node scripts/record-ai-sdk.mjs
// The provider responses' shapes and where they come from are in
// tests/recorded/ai-sdk/README.md.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { streamText, createUIMessageStream, createUIMessageStreamResponse, readUIMessageStream, parseJsonEventStream, uiMessageChunkSchema, stepCountIs, tool } from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createPerplexity } from '@ai-sdk/perplexity';
import { z } from 'zod';
import { anthropicStream, geminiStream, recordingFetch } from './lib/wire.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'tests/recorded/ai-sdk');

// The SDK draws its ids (sources, messages) from Math.random; a seeded generator
// keeps a re-recording byte-identical when nothing else changed.
let seed = 0x2f6b_1d37;
Math.random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const utf16Len = (s) => s.length;

// ---------------------------------------------------------------- OpenAI Responses
// Wire format: `event: <type>` + `data: <json>` per event, as the Responses API
// streams (https://platform.openai.com/docs/api-reference/responses-streaming);
// event and field shapes follow vercel/ai
// packages/openai/src/responses/__fixtures__/openai-web-search-tool.1.chunks.txt.

function openaiEvents(events) {
  return events.map((e, i) => `event: ${e.type}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`).join('');
}

function openaiResponse(id, model) {
  return {
    id, object: 'response', created_at: 1764964102, status: 'in_progress', background: false, error: null,
    incomplete_details: null, instructions: null, max_output_tokens: null, model, output: [],
    parallel_tool_calls: true, previous_response_id: null, reasoning: { effort: 'low', summary: 'auto' },
    service_tier: 'auto', store: true, temperature: 1, text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto', tools: [], top_p: 1, truncation: 'disabled', usage: null, user: null, metadata: {},
  };
}

/// A Responses stream: optional reasoning summary, optional web search call, then
/// one message whose text streams in `deltas`, with `url_citation` annotations
/// placed on the given phrases (start/end in UTF-16 code units of the part).
function openaiStream({ respId, reasoning, webSearch, functionCall, deltas, cites, model = 'gpt-5-mini-2025-08-07' }) {
  const events = [];
  const resp = openaiResponse(respId, model);
  events.push({ type: 'response.created', response: resp });
  events.push({ type: 'response.in_progress', response: resp });
  const output = [];
  let index = 0;
  if (reasoning) {
    const id = `rs_${respId.slice(5)}01`;
    events.push({ type: 'response.output_item.added', output_index: index, item: { id, type: 'reasoning', summary: [] } });
    events.push({ type: 'response.reasoning_summary_part.added', item_id: id, output_index: index, summary_index: 0, part: { type: 'summary_text', text: '' } });
    for (const d of reasoning) {
      events.push({ type: 'response.reasoning_summary_text.delta', item_id: id, output_index: index, summary_index: 0, delta: d, obfuscation: 'x' });
    }
    const text = reasoning.join('');
    events.push({ type: 'response.reasoning_summary_text.done', item_id: id, output_index: index, summary_index: 0, text });
    events.push({ type: 'response.reasoning_summary_part.done', item_id: id, output_index: index, summary_index: 0, part: { type: 'summary_text', text } });
    const item = { id, type: 'reasoning', summary: [{ type: 'summary_text', text }] };
    events.push({ type: 'response.output_item.done', output_index: index, item });
    output.push(item);
    index += 1;
  }
  if (webSearch) {
    const id = `ws_${respId.slice(5)}02`;
    events.push({ type: 'response.output_item.added', output_index: index, item: { id, type: 'web_search_call', status: 'in_progress' } });
    events.push({ type: 'response.web_search_call.in_progress', output_index: index, item_id: id });
    events.push({ type: 'response.web_search_call.searching', output_index: index, item_id: id });
    events.push({ type: 'response.web_search_call.completed', output_index: index, item_id: id });
    const item = { id, type: 'web_search_call', status: 'completed', action: { type: 'search', query: webSearch } };
    events.push({ type: 'response.output_item.done', output_index: index, item });
    output.push(item);
    index += 1;
  }
  if (functionCall) {
    const id = `fc_${respId.slice(5)}03`;
    const args = JSON.stringify(functionCall.args);
    const added = { id, type: 'function_call', status: 'in_progress', arguments: '', call_id: functionCall.callId, name: functionCall.name };
    events.push({ type: 'response.output_item.added', output_index: index, item: added });
    const mid = Math.floor(args.length / 2);
    for (const d of [args.slice(0, mid), args.slice(mid)]) {
      events.push({ type: 'response.function_call_arguments.delta', item_id: id, output_index: index, delta: d, obfuscation: 'x' });
    }
    events.push({ type: 'response.function_call_arguments.done', item_id: id, output_index: index, arguments: args });
    const item = { ...added, status: 'completed', arguments: args };
    events.push({ type: 'response.output_item.done', output_index: index, item });
    output.push(item);
    index += 1;
  }
  if (deltas) {
    const id = `msg_${respId.slice(5)}04`;
    events.push({ type: 'response.output_item.added', output_index: index, item: { id, type: 'message', status: 'in_progress', content: [], role: 'assistant' } });
    events.push({ type: 'response.content_part.added', item_id: id, output_index: index, content_index: 0, part: { type: 'output_text', annotations: [], logprobs: [], text: '' } });
    const text = deltas.join('');
    const annotations = (cites ?? []).map(({ phrase, nth = 0, url, title }) => {
      let at = -1;
      for (let k = 0; k <= nth; k += 1) at = text.indexOf(phrase, at + 1);
      if (at < 0) throw new Error(`phrase not in text: ${phrase}`);
      // OpenAI puts a url_citation over the cited span; offsets are UTF-16 code
      // units of the output_text (JavaScript string indices).
      return { type: 'url_citation', start_index: utf16Len(text.slice(0, at)), end_index: utf16Len(text.slice(0, at + phrase.length)), title, url };
    });
    // Annotations arrive once the text they cover has streamed.
    let streamed = '';
    let pending = [...annotations];
    let annotationIndex = 0;
    for (const d of deltas) {
      events.push({ type: 'response.output_text.delta', item_id: id, output_index: index, content_index: 0, delta: d, logprobs: [], obfuscation: 'x' });
      streamed += d;
      const ready = pending.filter((a) => a.end_index <= utf16Len(streamed));
      pending = pending.filter((a) => a.end_index > utf16Len(streamed));
      for (const annotation of ready) {
        events.push({ type: 'response.output_text.annotation.added', item_id: id, output_index: index, content_index: 0, annotation_index: annotationIndex, annotation });
        annotationIndex += 1;
      }
    }
    events.push({ type: 'response.output_text.done', item_id: id, output_index: index, content_index: 0, text, logprobs: [] });
    const part = { type: 'output_text', annotations, logprobs: [], text };
    events.push({ type: 'response.content_part.done', item_id: id, output_index: index, content_index: 0, part });
    const item = { id, type: 'message', status: 'completed', content: [part], role: 'assistant' };
    events.push({ type: 'response.output_item.done', output_index: index, item });
    output.push(item);
  }
  events.push({
    type: 'response.completed',
    response: {
      ...resp, status: 'completed', output,
      usage: { input_tokens: 812, input_tokens_details: { cached_tokens: 0 }, output_tokens: 402, output_tokens_details: { reasoning_tokens: 128 }, total_tokens: 1214 },
    },
  });
  return openaiEvents(events);
}

// The Anthropic and Gemini streams are built by scripts/lib/wire.mjs (wire formats
// and sources there).

// ---------------------------------------------------------------- Perplexity
// Wire format: OpenAI-style chat completion chunks, `data: <json>` per event; every
// chunk repeats `citations` (urls, in the order the `[n]` markers count) and
// `search_results` (https://docs.perplexity.ai/api-reference/chat-completions-post);
// shape as vercel/ai packages/perplexity/src/__fixtures__/perplexity-citations.chunks.txt.
// @ai-sdk/perplexity turns `citations` into source-url parts (no title) and keeps
// the `[n]` markers in the text.

function perplexityStream({ id, deltas, results, model = 'sonar' }) {
  const citations = results.map((r) => r.url);
  const search_results = results.map((r) => ({ title: r.title, url: r.url, date: r.date ?? null, last_updated: r.date ?? null, snippet: r.snippet ?? '' }));
  const events = deltas.map((d, i) => ({
    id, model, created: 1770768240, usage: { prompt_tokens: 10, completion_tokens: i + 1, total_tokens: 11 + i, search_context_size: 'low' },
    citations, search_results, object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { role: 'assistant', content: d } }],
  }));
  events.push({
    id, model, created: 1770768244,
    usage: { prompt_tokens: 10, completion_tokens: deltas.length, total_tokens: 10 + deltas.length, search_context_size: 'low', citation_tokens: 1874, num_search_queries: 1, cost: { input_tokens_cost: 0, output_tokens_cost: 0, request_cost: 0.005, total_cost: 0.005 } },
    citations, search_results, object: 'chat.completion.done',
    choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: 'stop' }],
  });
  return events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
}

// ---------------------------------------------------------------- cases

const userMessage = (text) => ({ id: 'user-1', role: 'user', parts: [{ type: 'text', text }] });

const cases = [];

{
  const wiki = 'https://en.wikipedia.org/wiki/Zürich';
  const stadt = 'https://www.stadt-zuerich.ch/de/politik-und-verwaltung/statistik-und-daten.html';
  const jp = 'https://ja.wikipedia.org/wiki/チューリッヒ';
  const deltas = [
    'Zürich — a city of cafés and façades — is Switzerland’s largest city, with about 447,000 inhabitants',
    ' in 2024. ',
    'In Japanese it is written チューリッヒ 🇨🇭',
    ', and its lake, the Zürichsee, is 40 km long. ',
    'Zürich also hosts ETH, one of Europe’s top universities.',
  ];
  cases.push({
    name: 'openai-web-search',
    about: 'OpenAI Responses API (gpt-5-mini) with the web_search tool: a reasoning summary, a web_search_call, then text with url_citation annotations (UTF-16 offsets) after accents, CJK and an emoji; the Wikipedia source is cited twice.',
    bodies: [openaiStream({
      respId: 'resp_68b1f0a2c3d4e5f6a7b8c9d0e1f2a3b4',
      reasoning: ['**Searching Zürich facts**\n\nI will look up', ' the population and the lake length.'],
      webSearch: 'Zürich population 2024 lake length',
      deltas,
      cites: [
        { phrase: 'Switzerland’s largest city, with about 447,000 inhabitants in 2024', url: stadt, title: 'Statistik und Daten – Stadt Zürich' },
        { phrase: 'チューリッヒ', url: jp, title: 'チューリッヒ - Wikipedia' },
        { phrase: 'the Zürichsee, is 40 km long', url: wiki, title: 'Zürich - Wikipedia' },
        { phrase: 'Zürich also hosts ETH', url: wiki, title: 'Zürich - Wikipedia' },
      ],
    })],
    run: ({ fetch }) => {
      const openai = createOpenAI({ apiKey: 'sk-recorded', fetch });
      return { model: openai.responses('gpt-5-mini'), tools: { web_search: openai.tools.webSearch({}) } };
    },
    prompt: 'How big is Zürich, and how is it written in Japanese?',
  });
}

{
  const callId = 'call_Wq3XyZ1aB2cD3eF4gH5iJ6kL';
  cases.push({
    name: 'openai-reasoning-tool',
    about: 'Two steps with the OpenAI Responses API: step 1 has a reasoning summary and a client function call (tool-getWeather part, executed by the app), step 2 answers with text carrying url_citation annotations. The route handler also writes a data-weather part (createUIMessageStream). The UIMessage has a data part, step-start parts, a reasoning part and a tool part.',
    data: { type: 'data-weather', id: 'weather-lyon', data: { city: 'Lyon', status: 'loaded' } },
    bodies: [
      openaiStream({
        respId: 'resp_0a1b2c3d4e5f60718293a4b5c6d7e8f9',
        reasoning: ['The user asks about the weather in Lyon;', ' I should call getWeather first.'],
        functionCall: { callId, name: 'getWeather', args: { city: 'Lyon' } },
      }),
      openaiStream({
        respId: 'resp_1b2c3d4e5f60718293a4b5c6d7e8f90a',
        deltas: ['It is 18 °C and sunny in Lyon today', '. Lyon sits where the Rhône and the Saône meet.'],
        cites: [
          { phrase: 'It is 18 °C and sunny in Lyon today', url: 'https://meteofrance.com/previsions-meteo-france/lyon/69000', title: 'Météo Lyon - Météo-France' },
          { phrase: 'Lyon sits where the Rhône and the Saône meet', url: 'https://fr.wikipedia.org/wiki/Lyon', title: 'Lyon — Wikipédia' },
        ],
      }),
    ],
    run: ({ fetch }) => {
      const openai = createOpenAI({ apiKey: 'sk-recorded', fetch });
      return {
        model: openai.responses('gpt-5-mini'),
        tools: {
          getWeather: tool({
            description: 'Current weather for a city',
            inputSchema: z.object({ city: z.string() }),
            execute: async ({ city }) => ({ city, temperatureC: 18, sky: 'sunny' }),
          }),
        },
        stopWhen: stepCountIs(2),
      };
    },
    prompt: 'What is the weather in Lyon?',
  });
}

{
  const toolUseId = 'srvtoolu_01Bj5uzzLcYG5hfueSLcDH8k';
  const apple = 'https://www.apple.com/newsroom/2025/09/the-all-new-apple-ginza-opens-this-friday-september-26-in-tokyo/';
  const jp = 'https://www.apple.com/jp/newsroom/2025/09/apple-ginza-reopens/';
  const loc = (url, title, cited_text, k) => ({ type: 'web_search_result_location', cited_text, url, title, encrypted_index: `EpMBCioIBxgCIiQ${k}NjA4` });
  cases.push({
    name: 'anthropic-web-search',
    about: 'Anthropic Messages API (claude-sonnet-4-5) with the web_search_20250305 server tool: server_tool_use, web_search_tool_result, then text blocks, some with citations_delta (web_search_result_location with cited_text); the Apple newsroom page is cited by two blocks; one result is never cited.',
    bodies: [anthropicStream({
      msgId: 'msg_01LHpEgU4KbfgXGVi3UtHQY1',
      blocks: [
        { search: { id: toolUseId, query: 'Apple Ginza reopening September 2025' } },
        { searchResult: { toolUseId, results: [
          { url: apple, title: 'The all-new Apple Ginza opens this Friday, September 26, in Tokyo - Apple', pageAge: 'September 23, 2025' },
          { url: jp, title: 'Apple 銀座がリニューアルオープン - Apple (日本)', pageAge: 'September 23, 2025' },
          { url: 'https://www.macrumors.com/2025/09/26/apple-ginza-reopens/', title: 'Apple Ginza Reopens in Tokyo - MacRumors' },
        ] } },
        { text: ['Based on my search, here is what happened', ':\n\n'] },
        { text: ['Apple reopened Apple Ginza in Tokyo on Friday, September 26', '.'], citations: [loc(apple, 'The all-new Apple Ginza opens this Friday, September 26, in Tokyo - Apple', 'Apple today announced the grand reopening of Apple Ginza on Friday, September 26, located in the vibrant Ginza district.', 0)] },
        { text: [' The store is known in Japanese as 「Apple 銀座」', ' 🍎'] , citations: [loc(jp, 'Apple 銀座がリニューアルオープン - Apple (日本)', 'Apple 銀座は9月26日（金）にリニューアルオープンします。', 1)] },
        { text: ['. '] },
        { text: ['It opened to customers at 10 a.m. JST.'], citations: [loc(apple, 'The all-new Apple Ginza opens this Friday, September 26, in Tokyo - Apple', 'Apple Ginza opens to customers Friday, September 26, at 10 a.m. JST. ', 2)] },
      ],
    })],
    run: ({ fetch }) => {
      const anthropic = createAnthropic({ apiKey: 'sk-ant-recorded', fetch });
      return { model: anthropic('claude-sonnet-4-5'), tools: { web_search: anthropic.tools.webSearch_20250305({ maxUses: 3 }) } };
    },
    prompt: 'When did Apple Ginza reopen?',
  });
}

{
  const docText = 'The grass is green. The sky is blue. Water boils at 100 °C at sea level.';
  const charLoc = (cited, k) => {
    const start = docText.indexOf(cited);
    return { type: 'char_location', cited_text: cited, document_index: 0, document_title: 'Field notes', start_char_index: start, end_char_index: start + cited.length, file_id: null };
  };
  cases.push({
    name: 'anthropic-document-citations',
    about: 'Anthropic Messages API with a plain-text document given with citations enabled: text blocks with citations_delta of type char_location (cited_text, start/end char index into the document); @ai-sdk/anthropic turns them into source-document parts. The document is cited twice.',
    bodies: [anthropicStream({
      msgId: 'msg_01Ab2Cd3Ef4Gh5Ij6Kl7Mn8P',
      blocks: [
        { text: ['According to the notes, '] },
        { text: ['the grass is green'], citations: [charLoc('The grass is green. ')] },
        { text: [' and '] },
        { text: ['the sky is blue'], citations: [charLoc('The sky is blue. ')] },
        { text: ['.'] },
      ],
    })],
    run: ({ fetch }) => {
      const anthropic = createAnthropic({ apiKey: 'sk-ant-recorded', fetch });
      return { model: anthropic('claude-sonnet-4-5') };
    },
    messages: [{
      role: 'user',
      content: [
        { type: 'file', data: Buffer.from(docText).toString('base64'), mediaType: 'text/plain', filename: 'notes.txt', providerOptions: { anthropic: { citations: { enabled: true }, title: 'Field notes' } } },
        { type: 'text', text: 'What colour are the grass and the sky?' },
      ],
    }],
    prompt: 'What colour are the grass and the sky?',
  });
}

{
  const deltas = [
    'Le **Mont Blanc** culmine à 4 805 m',
    ' ; c’est le plus haut sommet des Alpes. ',
    'En japonais : モンブラン 🏔️. ',
    'Son premier sommet fut atteint en 1786 par Balmat et Paccard.',
  ];
  const chunks = [
    { uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQGm1', title: 'wikipedia.org' },
    { uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQHx2', title: 'chamonix.com' },
    { uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQKp3', title: 'britannica.com' },
  ];
  const body = geminiStream({
    promptTokens: 14, tokensPerChunk: 20, responseId: 'bH6LaZW8Fp_3nsEPqtaSwQ4',
    deltas, chunks, queries: ['altitude Mont Blanc', 'première ascension Mont Blanc'],
    supports: [
      { phrase: 'Le **Mont Blanc** culmine à 4 805 m ; c’est le plus haut sommet des Alpes.', chunkIndices: [0, 1], scores: [0.93, 0.88] },
      { phrase: 'Son premier sommet fut atteint en 1786 par Balmat et Paccard.', chunkIndices: [0, 2], scores: [0.97, 0.9] },
    ],
  });
  const google = ({ fetch }) => {
    const g = createGoogleGenerativeAI({ apiKey: 'recorded', fetch });
    return { model: g('gemini-2.5-flash'), tools: { google_search: g.tools.googleSearch({}) } };
  };
  cases.push({
    name: 'gemini-grounding',
    about: 'Gemini (gemini-2.5-flash) with the google_search tool: groundingMetadata (groundingChunks, groundingSupports with UTF-8 byte segments) in the last chunk, after accents, CJK and an emoji. The route handler forwards the step\'s providerMetadata.google into the message metadata (messageMetadata on finish-step), the AI SDK\'s way to give the client data the parts do not carry; the Wikipedia chunk supports two segments.',
    bodies: [body],
    run: google,
    messageMetadata: ({ part }) => (part.type === 'finish-step' && part.providerMetadata?.google ? { google: part.providerMetadata.google } : undefined),
    prompt: 'Quelle est l’altitude du Mont Blanc ?',
  });
  cases.push({
    name: 'gemini-grounding-sources-only',
    about: 'The same Gemini response as gemini-grounding, through a route handler that forwards no metadata (the default): the UIMessage has the source-url parts but no position for them.',
    bodies: [body],
    run: google,
    prompt: 'Quelle est l’altitude du Mont Blanc ?',
  });
}

{
  const results = [
    { url: 'https://www.nasa.gov/humans-in-space/the-international-space-station/', title: 'International Space Station - NASA', date: '2025-06-02', snippet: 'The ISS orbits Earth about every 90 minutes.' },
    { url: 'https://en.wikipedia.org/wiki/International_Space_Station', title: 'International Space Station - Wikipedia', date: '2025-11-20', snippet: 'The ISS is a large space station in low Earth orbit.' },
    { url: 'https://www.esa.int/Science_Exploration/Human_and_Robotic_Exploration/International_Space_Station', title: 'ESA - International Space Station', snippet: 'Europe’s contribution to the ISS.' },
  ];
  cases.push({
    name: 'perplexity-citations',
    about: 'Perplexity (sonar) chat completions: the answer carries [n] markers (also [1][2] adjacent) numbering `citations`; @ai-sdk/perplexity turns each citation url into a source-url part (no title). Source 2 is cited twice.',
    bodies: [perplexityStream({
      id: '58cb9740-f356-49e9-b71e-a02a1376c1b9',
      results,
      deltas: ['The International Space Station orbits Earth', ' about every 90 minutes', '[1', '][2]. It is a joint project', ' of five space agencies', '[2]', ', including ESA[3].'],
    })],
    run: ({ fetch }) => ({ model: createPerplexity({ apiKey: 'pplx-recorded', fetch })('sonar') }),
    prompt: 'How often does the ISS orbit Earth?',
  });
}

{
  const results = [
    { url: 'https://doc.rust-lang.org/book/ch08-02-strings.html', title: 'Storing UTF-8 Encoded Text with Strings - The Rust Programming Language' },
    { url: 'javascript:alert(document.cookie)', title: 'Click me' },
    { url: 'https://ja.wikipedia.org/wiki/UTF-8', title: 'UTF-8 - Wikipedia' },
  ];
  cases.push({
    name: 'perplexity-edge-cases',
    about: 'Perplexity (sonar) edge cases: non-ASCII text (accents, CJK, an emoji) before a marker, a fenced code block holding `[1]` (code, not a citation), a `javascript:` url among the citations (cited by [2]), and source 1 cited twice.',
    bodies: [perplexityStream({
      id: '7f1c2d3e-4a5b-6c7d-8e9f-0a1b2c3d4e5f',
      results,
      deltas: [
        'En Rust, une `String` est encodée en UTF‑8 : « héllo » ou 日本語 ', '🦀 prennent', ' plusieurs octets par caractère[1][3].\n\n',
        'Un tableau s’indexe ainsi :\n\n```rust\nlet v = [1, 2, 3];\nlet x = v[1];\n```\n\n',
        'Voir aussi ce lien[2], et la documentation[1].',
      ],
    })],
    run: ({ fetch }) => ({ model: createPerplexity({ apiKey: 'pplx-recorded', fetch })('sonar') }),
    prompt: 'Comment Rust encode-t-il les chaînes ?',
  });
}

// ---------------------------------------------------------------- recording

async function readStreamText(response) {
  return await response.text();
}

/// Reads the SSE text of a UI message stream back into the final UIMessage, the
/// way `useChat` does (parseJsonEventStream + readUIMessageStream).
async function finalMessage(streamText) {
  const bytes = new TextEncoder().encode(streamText);
  const body = new ReadableStream({ start(c) { c.enqueue(bytes); c.close(); } });
  const chunks = parseJsonEventStream({ stream: body, schema: uiMessageChunkSchema }).pipeThrough(new TransformStream({
    transform(part, controller) {
      if (!part.success) throw part.error;
      controller.enqueue(part.value);
    },
  }));
  let last;
  for await (const message of readUIMessageStream({ stream: chunks, terminateOnError: true })) last = message;
  return last;
}

const versions = Object.fromEntries(['ai', '@ai-sdk/openai', '@ai-sdk/anthropic', '@ai-sdk/google', '@ai-sdk/perplexity', '@ai-sdk/react'].map((name) => [
  name, JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version,
]));

mkdirSync(outDir, { recursive: true });
const only = process.argv.slice(2);
for (const c of cases) {
  if (only.length && !only.includes(c.name)) continue;
  const rec = recordingFetch(c.bodies);
  const settings = c.run(rec);
  const originalMessages = [userMessage(c.prompt)];
  const result = streamText({
    ...settings,
    ...(c.messages ? { messages: c.messages } : { prompt: c.prompt }),
    onError: ({ error }) => { throw error; },
  });
  let finished;
  const uiOptions = { sendSources: true, sendReasoning: true, messageMetadata: c.messageMetadata };
  const onFinish = ({ responseMessage }) => { finished = responseMessage; };
  // A route handler that adds its own data part merges the model's stream into
  // createUIMessageStream, as the AI SDK documents for data parts.
  const response = c.data
    ? createUIMessageStreamResponse({
      stream: createUIMessageStream({
        originalMessages,
        generateId: () => `msg-${c.name}`,
        onFinish,
        execute: ({ writer }) => {
          // The handler sends `start` itself so the data part belongs to the
          // assistant message (a chunk before `start` is dropped by the client).
          writer.write({ type: 'start', messageId: `msg-${c.name}` });
          writer.write(c.data);
          writer.merge(result.toUIMessageStream({ ...uiOptions, sendStart: false }));
        },
      }),
    })
    : result.toUIMessageStreamResponse({ ...uiOptions, originalMessages, generateMessageId: () => `msg-${c.name}`, onFinish });
  if (response.headers.get('x-vercel-ai-ui-message-stream') !== 'v1') throw new Error(`${c.name}: no v1 UI message stream header`);
  const text = await readStreamText(response);
  if (rec.requests.length !== c.bodies.length) throw new Error(`${c.name}: ${rec.requests.length} requests, expected ${c.bodies.length}`);
  if (text.includes('"type":"error"')) throw new Error(`${c.name}: the stream holds an error chunk:\n${text}`);
  const message = await finalMessage(text);
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(message)), JSON.parse(JSON.stringify(finished)))) {
    throw new Error(`${c.name}: readUIMessageStream and onFinish disagree:\n${JSON.stringify(message)}\n${JSON.stringify(finished)}`);
  }
  writeFileSync(join(outDir, `${c.name}.stream.txt`), text);
  writeFileSync(join(outDir, `${c.name}.message.json`), `${JSON.stringify(message, null, 2)}\n`);
  const kinds = message.parts.map((p) => p.type).join(', ');
  console.log(`${c.name}: ${text.length} chars of stream; parts: ${kinds}`);
}
console.log(`recorded with ${Object.entries(versions).map(([k, v]) => `${k}@${v}`).join(', ')}`);
export { cases, versions };
