// Records what the platforms' real SDKs hand an app, for citekit's platform formats
// (docs/formats.md: azure, mistral, xai, langchain). No network is used: each client
// gets a custom fetch that answers with a response written in the platform's
// documented wire format (where each shape comes from is in the case's `shape`), and
// what the SDK returns is what the app holds and hands to citekit.
//
// For each case the script writes the `data` of tests/fixtures/<format>/<case>.json,
// keeping the file's `description`, `shape` and `expected` (written by hand from the
// wire response, never from citekit's output). A new case gets an empty `expected`.
//
// The streams of LlamaIndex and LangChain apps (tests/platform_stream.rs) go into
// tests/fixtures/{llamaindex,langchain}/recorded.json: each case holds the stream as the
// page receives it and, in the case it is a `stream_of`, the object the app ends with.
//
// Run by hand (not part of npm test): node scripts/record-rag-platforms.mjs

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AzureOpenAI, OpenAI } from 'openai';
import { Mistral } from '@mistralai/mistralai';
import { HTTPClient } from '@mistralai/mistralai/lib/http.js';
import { ChatOpenAI } from '@langchain/openai';
import { concat } from '@langchain/core/utils/stream';
import { DefaultChatTransport, readUIMessageStream } from 'ai';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/// A fetch that answers every request with `body` as JSON, and records the request.
function answering(body, seen = []) {
  return async (url, init) => {
    seen.push({ url: String(url?.url ?? url), body: init?.body ?? (url?.body ? await url.clone().text() : undefined) });
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };
}

/// Writes the case's data, keeping what the fixture file already says.
function write(format, name, description, shape, data) {
  const file = join(root, 'tests/fixtures', format, `${name}.json`);
  const old = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const fixture = {
    description: old.description ?? description,
    shape,
    ...(old.answer !== undefined ? { answer: old.answer } : {}),
    ...(old.options !== undefined ? { options: old.options } : {}),
    data: JSON.parse(JSON.stringify(data)),
    expected: old.expected ?? {},
  };
  writeFileSync(file, `${JSON.stringify(fixture, null, 2)}\n`);
  console.log(`wrote tests/fixtures/${format}/${name}.json`);
}

// --- Azure OpenAI On Your Data: the `openai` package's AzureOpenAI client.
{
  const wire = {
    id: 'chatcmpl-9f2Kx1', object: 'chat.completion', created: 1735689600, model: 'gpt-4o',
    prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }],
    choices: [{
      index: 0, finish_reason: 'stop', logprobs: null,
      message: {
        role: 'assistant',
        content: 'Die Zugspitze ist mit 2.962 m der höchste Berg Deutschlands [doc1]. ' +
          'Die Seilbahn überwindet 1.945 Höhenmeter [doc2][doc1].\n\n' +
          '- Gipfelstation: 2.943 m [doc3]',
        end_turn: true,
        context: {
          citations: [
            { content: 'Die Zugspitze ist mit 2962 m ü. NHN der höchste Gipfel des Wettersteingebirges und der höchste Berg Deutschlands.',
              title: 'Zugspitze', url: 'https://de.wikipedia.org/wiki/Zugspitze', filepath: null, chunk_id: '0' },
            { content: 'Die Seilbahn Zugspitze überwindet mit 1945 m den weltweit größten Gesamthöhenunterschied einer Pendelbahn.',
              title: 'Seilbahn Zugspitze', url: null, filepath: 'bahnen/seilbahn-zugspitze.pdf', chunk_id: '3' },
            { content: 'Gipfelstation auf 2943 m.', title: null, url: null, filepath: 'bahnen/stationen.md', chunk_id: '1' },
          ],
          intent: '["Wie hoch ist die Zugspitze?", "Höhe Zugspitze"]',
        },
      },
    }],
    usage: { prompt_tokens: 3012, completion_tokens: 61, total_tokens: 3073 },
  };
  const seen = [];
  const client = new AzureOpenAI({
    endpoint: 'https://contoso.openai.azure.com', apiKey: 'x', apiVersion: '2024-10-21',
    deployment: 'gpt-4o', fetch: answering(wire, seen),
  });
  const completion = await client.chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'Wie hoch ist die Zugspitze?' }],
    data_sources: [{ type: 'azure_search', parameters: { endpoint: 'https://contoso.search.windows.net', index_name: 'alpen', authentication: { type: 'api_key', key: 'x' } } }],
  });
  if (!seen[0].url.includes('/openai/deployments/gpt-4o/chat/completions')) throw new Error(`unexpected url ${seen[0].url}`);
  write('azure', 'on_your_data', 'an On Your Data completion from AzureOpenAI: [docN] markers naming context.citations[n-1], a citation without url showing its title and filepath, one without title its file name',
    'Azure OpenAI On Your Data API reference (learn.microsoft.com/azure/ai-services/openai/references/on-your-data, API 2024-02-15-preview and later): choices[0].message.context.citations[{content,title,url,filepath,chunk_id}] and intent; returned by the openai package\'s AzureOpenAI client',
    completion);
}

// --- xAI: the `openai` package with xAI's baseURL.
{
  const text = 'Grok 4 wurde im Juli 2025 vorgestellt [[1]](https://x.ai/news/grok-4). ' +
    'It ranks first on Humanity’s Last Exam [[2]](https://x.ai/news/grok-4-benchmarks) [[1]](https://x.ai/news/grok-4).';
  const u16 = (s) => s.length;
  const first = text.indexOf('[[1]]');
  const second = text.indexOf('[[2]]');
  const wire = {
    id: '3f4c2a9e-8d1b-4e7a-9c55-2b1d7e0f6a31', object: 'response', created_at: 1762189566, model: 'grok-4-fast-reasoning', status: 'completed',
    output: [
      { type: 'web_search_call', id: 'ws_3f4c2a9e_0', status: 'completed', name: 'web_search', call_id: '', arguments: '{"query":"Grok 4 release"}' },
      { type: 'message', id: 'msg_3f4c2a9e', role: 'assistant', status: 'completed', content: [{
        type: 'output_text', text, logprobs: [],
        annotations: [
          { type: 'url_citation', url: 'https://x.ai/news/grok-4', title: 'Grok 4 | xAI', start_index: u16(text.slice(0, first)), end_index: u16(text.slice(0, first)) + '[[1]](https://x.ai/news/grok-4)'.length },
          { type: 'url_citation', url: 'https://x.ai/news/grok-4-benchmarks', title: '2', start_index: u16(text.slice(0, second)), end_index: u16(text.slice(0, second)) + '[[2]](https://x.ai/news/grok-4-benchmarks)'.length },
        ],
      }] },
    ],
    citations: ['https://x.ai/news/grok-4', 'https://x.ai/news/grok-4-benchmarks', 'https://en.wikipedia.org/wiki/Grok_(chatbot)'],
    usage: { input_tokens: 1941, output_tokens: 583, total_tokens: 2524, num_sources_used: 3, num_server_side_tools_used: 1 },
    tools: [{ type: 'web_search' }], store: true, metadata: {},
  };
  const client = new OpenAI({ apiKey: 'x', baseURL: 'https://api.x.ai/v1', fetch: answering(wire) });
  const response = await client.responses.create({ model: 'grok-4-fast-reasoning', input: 'When was Grok 4 released?', tools: [{ type: 'web_search' }] });
  write('xai', 'responses_inline_citations', 'an xAI Responses answer with inline [[n]](url) citations: each number a source with its link\'s url (titled by its annotation), the citations list\'s other url an uncited source',
    'docs.x.ai/developers/tools/citations (inline citations [[N]](url), on by default in the Responses API; the response\'s citations list of every url the search saw; annotations whose start_index/end_index cover the inline citation); output items as in the Vercel AI SDK\'s recorded xai-web-search-tool.1.json; returned by the openai package with baseURL https://api.x.ai/v1',
    response);

  const chatText = 'Die Ariane 6 startete im Juli 2024 zum ersten Mal [[1]](https://www.esa.int/Ariane_6).';
  const chatWire = {
    id: 'b6d3f0c2-1a7e-4f8b-9e21-5c4d3b2a1f00', object: 'chat.completion', created: 1750538302, model: 'grok-3', system_fingerprint: 'fp_13a6dc65a6',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: chatText, refusal: null } }],
    usage: { prompt_tokens: 10, completion_tokens: 25, total_tokens: 35, num_sources_used: 2 },
    citations: ['https://www.esa.int/Ariane_6', 'https://de.wikipedia.org/wiki/Ariane_6'],
  };
  const chat = await new OpenAI({ apiKey: 'x', baseURL: 'https://api.x.ai/v1', fetch: answering(chatWire) }).chat.completions.create({
    model: 'grok-3', messages: [{ role: 'user', content: 'Wann startete die Ariane 6?' }],
  });
  write('xai', 'chat_completion_citations', 'an xAI chat completion (Live Search) with an inline citation and the response\'s citations urls: once taken for Perplexity',
    'xAI Chat Completions with search (citations: [urls] beside choices, as in the Vercel AI SDK\'s xai-chat-language-model tests); returned by the openai package with baseURL https://api.x.ai/v1',
    chat);
}

// --- Mistral: the @mistralai/mistralai client, chat with citations and the
// Conversations API with a web search tool.
{
  const references = {
    0: { url: 'https://de.wikipedia.org/wiki/Friedensnobelpreis_2024', title: 'Friedensnobelpreis 2024',
      snippets: [['Der Friedensnobelpreis 2024 ging an Nihon Hidankyō, die Organisation der Überlebenden von Hiroshima und Nagasaki.']],
      description: null, date: '2024-11-26T17:39:55.057454', source: 'wikipedia' },
    1: { url: 'https://en.wikipedia.org/wiki/Nihon_Hidankyo', title: 'Nihon Hidankyo',
      snippets: [['Nihon Hidankyo is a Japanese organization of atomic bomb survivors.', 'It was founded in 1956.']],
      description: null, date: '2024-11-26T17:39:55.057454', source: 'wikipedia' },
  };
  const wire = {
    id: 'cmpl-7e1d0f', object: 'chat.completion', created: 1735689600, model: 'mistral-large-latest',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', tool_calls: null, prefix: false, content: [
      { type: 'text', text: 'Den Friedensnobelpreis 2024 erhielt Nihon Hidankyō' },
      { type: 'reference', reference_ids: [0] },
      { type: 'text', text: ', a group of hibakusha founded in 1956' },
      { type: 'reference', reference_ids: [1, 0] },
      { type: 'text', text: '.' },
    ] } }],
    usage: { prompt_tokens: 412, completion_tokens: 40, total_tokens: 452 },
  };
  const httpClient = new HTTPClient({ fetcher: answering(wire) });
  const client = new Mistral({ apiKey: 'x', httpClient });
  const messages = [
    { role: 'system', content: 'Answer the user by providing references to the source of the information.' },
    { role: 'user', content: 'Wer erhielt den Friedensnobelpreis 2024?' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'F4HiRgdZp', type: 'function', function: { name: 'get_information', arguments: '{}' } }] },
    { role: 'tool', name: 'get_information', content: JSON.stringify(references), toolCallId: 'F4HiRgdZp' },
  ];
  const response = await client.chat.complete({ model: 'mistral-large-latest', messages });
  write('mistral', 'chat_references', 'a Mistral chat history (the SDK\'s camelCase objects): the tool message\'s references, the answer\'s text and reference chunks citing them where they stand',
    'docs.mistral.ai/capabilities/citations (references {"0": {url, title, snippets, description, date, source}} returned as a tool message\'s JSON content; the answer\'s content chunks {type: "text"} and {type: "reference", reference_ids}); the completion returned by @mistralai/mistralai\'s chat.complete, appended to the history as an app does',
    [...messages, response.choices[0].message]);

  const convWire = {
    object: 'conversation.response', conversation_id: 'conv_0682c6a1e4ab7f2b8000cbe1a3d5e7f9',
    outputs: [
      { object: 'entry', type: 'tool.execution', name: 'web_search', id: 'tool_exec_0682c6a1', created_at: '2025-06-13T10:12:00.000Z', completed_at: '2025-06-13T10:12:02.000Z', arguments: '{"query": "Nobel Peace Prize 2024"}' },
      { object: 'entry', type: 'message.output', id: 'msg_0682c6a2', role: 'assistant', model: 'mistral-medium-2505', created_at: '2025-06-13T10:12:02.100Z', completed_at: '2025-06-13T10:12:04.000Z', content: [
        { type: 'text', text: 'Le prix Nobel de la paix 2024 a été décerné à Nihon Hidankyō.' },
        { type: 'tool_reference', tool: 'web_search', title: 'The Nobel Peace Prize 2024 - NobelPrize.org', url: 'https://www.nobelprize.org/prizes/peace/2024/summary/', favicon: 'https://www.nobelprize.org/favicon.ico', description: null },
        { type: 'text', text: ' Its members survived Hiroshima and Nagasaki.' },
        { type: 'tool_reference', tool: 'web_search', title: 'Nihon Hidankyo - Wikipedia', url: 'https://en.wikipedia.org/wiki/Nihon_Hidankyo', favicon: null, description: null },
      ] },
    ],
    usage: { prompt_tokens: 2712, completion_tokens: 64, total_tokens: 2776, connector_tokens: 1500, connectors: { web_search: 1 } },
  };
  const conv = new Mistral({ apiKey: 'x', httpClient: new HTTPClient({ fetcher: answering(convWire) }) });
  const conversation = await conv.beta.conversations.start({ model: 'mistral-medium-latest', inputs: 'Who won the Nobel Peace Prize 2024?', tools: [{ type: 'web_search' }] });
  write('mistral', 'conversation_tool_references', 'a Mistral Conversations response: text chunks and tool_reference chunks, each reference a source cited where it stands',
    'docs.mistral.ai agents / websearch (a conversation.response whose message.output content holds text and tool_reference chunks {tool, title, url, favicon, description}); returned by @mistralai/mistralai\'s beta.conversations.start',
    conversation);
}

// --- LangChain: ChatOpenAI over the Responses API (url_citation annotations become
// LangChain's standard `citation` annotations), the message an app keeps.
{
  const text = 'Der Kölner Dom ist 157 m hoch 🏰. It was completed in 1880.';
  const start2 = text.indexOf('It was');
  const wire = {
    id: 'resp_67ccd2bed1ec8190', object: 'response', created_at: 1741476542, status: 'completed', model: 'gpt-4.1-2025-04-14',
    output: [
      { type: 'web_search_call', id: 'ws_67ccd2bf', status: 'completed' },
      { type: 'message', id: 'msg_67ccd2bf', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, logprobs: [], annotations: [
        { type: 'url_citation', start_index: 0, end_index: text.indexOf(' 🏰'), url: 'https://de.wikipedia.org/wiki/K%C3%B6lner_Dom', title: 'Kölner Dom – Wikipedia' },
        { type: 'url_citation', start_index: start2, end_index: text.length, url: 'https://en.wikipedia.org/wiki/Cologne_Cathedral', title: 'Cologne Cathedral' },
      ] }] },
    ],
    usage: { input_tokens: 328, output_tokens: 52, total_tokens: 380 },
  };
  const llm = new ChatOpenAI({ model: 'gpt-4.1', apiKey: 'x', useResponsesApi: true, configuration: { fetch: answering(wire) } });
  const message = await llm.invoke('Wie hoch ist der Kölner Dom?', { tools: [{ type: 'web_search_preview' }] });
  write('langchain', 'chat_openai_message', 'a LangChain AIMessage (toJSON) from ChatOpenAI over the Responses API: camelCase citation annotations, UTF-16 offsets after non-ASCII text and an emoji',
    'OpenAI Responses API output_text url_citation annotations (platform.openai.com/docs/api-reference/responses), turned into LangChain\'s standard {type: "citation", source, url, title, startIndex, endIndex} by @langchain/openai; the AIMessage\'s toJSON() as an app stores it',
    message.toJSON());
  write('langchain', 'content_blocks', 'the same message\'s contentBlocks array alone',
    'message.contentBlocks of the same @langchain/openai AIMessage (LangChain v1 standard content blocks)',
    message.contentBlocks);
}

// ---------------------------------------------------------------- streams
// The same SDKs' streaming calls, over the same answers written as the platform's
// server-sent events and served in uneven network chunks (one cut inside a UTF-8
// character). Each event the SDK yields is forwarded as a backend does: one `data:`
// line of JSON. Written to tests/fixtures/<format>/recorded.json beside the final
// object the plain call returns (`stream_of` names it), keeping `expected`.

/** Text cut into uneven deltas (whole code points), as a model streams it. */
function deltas(text) {
  const points = Array.from(text);
  const sizes = [5, 13, 3, 21, 8, 2, 11];
  const out = [];
  for (let at = 0, k = 0; at < points.length; k += 1) {
    out.push(points.slice(at, at + sizes[k % sizes.length]).join(''));
    at += sizes[k % sizes.length];
  }
  return out;
}

/** A fetch answering with `sse` (server-sent events text) in uneven byte chunks. */
function streaming(sse) {
  return async () => {
    const bytes = new TextEncoder().encode(sse);
    const cuts = [0];
    const mb = bytes.findIndex((b) => b >= 0xc0);
    if (mb >= 0) cuts.push(mb + 1);
    for (let at = 97; at < bytes.length; at += 173) cuts.push(at);
    cuts.push(bytes.length);
    cuts.sort((a, b) => a - b);
    const body = new ReadableStream({
      start(c) {
        for (let i = 1; i < cuts.length; i += 1) if (cuts[i] > cuts[i - 1]) c.enqueue(bytes.slice(cuts[i - 1], cuts[i]));
        c.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}

/** Server-sent events, one per object (`[event, data]` pairs name the event). */
const sseOf = (events) => events.map((e) => (Array.isArray(e) ? `event: ${e[0]}\ndata: ${JSON.stringify(e[1])}\n\n` : `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`)).join('');

/** What a backend sends for the SDK's stream: one `data:` line per event it yields. */
async function forward(events) {
  let out = '';
  for await (const ev of events) out += `data: ${JSON.stringify(ev)}\n\n`;
  return out;
}

/** Writes tests/fixtures/<folder>/recorded.json, keeping each case's `expected`. */
function writeRecorded(folder, cases) {
  const file = join(root, 'tests/fixtures', folder, 'recorded.json');
  const old = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).cases : [];
  const out = cases.map((c) => {
    const before = old.find((o) => o.description === c.description);
    return { ...c, data: typeof c.data === 'string' ? c.data : JSON.parse(JSON.stringify(c.data)), expected: before?.expected ?? { format: folder } };
  });
  writeFileSync(file, `${JSON.stringify({ cases: out }, null, 2)}\n`);
  console.log(`wrote tests/fixtures/${folder}/recorded.json: ${out.length} cases`);
}

const version = (pkg) => JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version;

// --- Azure OpenAI On Your Data, streamed: the context (citations, intent) on the first
// choice chunk's delta, then the content with its [docN] markers.
{
  const content = 'Der Kölner Dom ist 157 m hoch [doc1] und wurde 1880 vollendet [doc2][doc1]. ' +
    'Seine Domschatzkammer zeigt Reliquiare 🏰 [doc3].';
  const context = {
    citations: [
      { content: 'Der Kölner Dom ist mit 157,38 m die zweithöchste Kirche Europas.', title: 'Kölner Dom', url: 'https://de.wikipedia.org/wiki/K%C3%B6lner_Dom', filepath: null, chunk_id: '0' },
      { content: 'Die Vollendung des Doms wurde am 15. Oktober 1880 gefeiert.', title: 'Baugeschichte', url: null, filepath: 'dom/baugeschichte.pdf', chunk_id: '4' },
      { content: 'Die Domschatzkammer zeigt Reliquiare, liturgische Geräte und Gewänder.', title: null, url: null, filepath: 'dom/schatzkammer.md', chunk_id: '1' },
    ],
    intent: '["Wie hoch ist der Kölner Dom?", "Kölner Dom Höhe Vollendung"]',
  };
  const id = 'chatcmpl-AzK7q2Xb';
  const head = { id, object: 'chat.completion.chunk', created: 1735689600, model: 'gpt-4o-2024-11-20', system_fingerprint: 'fp_b705f0c291' };
  const filter = { choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: [{ prompt_index: 0, content_filter_results: { hate: { filtered: false, severity: 'safe' }, self_harm: { filtered: false, severity: 'safe' }, sexual: { filtered: false, severity: 'safe' }, violence: { filtered: false, severity: 'safe' } } }] };
  const sse = sseOf([
    filter,
    { ...head, choices: [{ index: 0, delta: { role: 'assistant', context }, end_turn: false, finish_reason: null }] },
    ...deltas(content).map((d) => ({ ...head, choices: [{ index: 0, delta: { content: d }, end_turn: false, finish_reason: null }] })),
    { ...head, choices: [{ index: 0, delta: {}, end_turn: true, finish_reason: 'stop' }] },
    '[DONE]',
  ]);
  const final = {
    id, object: 'chat.completion', created: 1735689600, model: 'gpt-4o-2024-11-20', system_fingerprint: 'fp_b705f0c291',
    prompt_filter_results: filter.prompt_filter_results,
    choices: [{ index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', content, end_turn: true, context } }],
    usage: { prompt_tokens: 2877, completion_tokens: 44, total_tokens: 2921 },
  };
  const ask = {
    model: 'gpt-4o', messages: [{ role: 'user', content: 'Wie hoch ist der Kölner Dom?' }],
    data_sources: [{ type: 'azure_search', parameters: { endpoint: 'https://contoso.search.windows.net', index_name: 'dom', authentication: { type: 'api_key', key: 'x' } } }],
  };
  const azure = (fetch) => new AzureOpenAI({ endpoint: 'https://contoso.openai.azure.com', apiKey: 'x', apiVersion: '2024-10-21', deployment: 'gpt-4o', fetch });
  const response = await azure(answering(final)).chat.completions.create(ask);
  const stream = await forward(await azure(streaming(sse)).chat.completions.create({ ...ask, stream: true }));
  writeRecorded('azure', [
    { description: 'AzureOpenAI chat.completions.create response (On Your Data)',
      source: `Azure OpenAI On Your Data API reference (2024-10-21): choices[0].message.content with [docN] markers, message.context {citations, intent}; answered by a custom fetch, read by openai ${version('openai')}`,
      data: response },
    { description: 'AzureOpenAI chat.completions.create stream (On Your Data) chunks forwarded as SSE',
      source: 'Azure OpenAI chat completions with data_sources and stream: true: a first chunk with empty choices and prompt_filter_results, the first choice chunk\'s delta {role, context: {citations, intent}}, then delta.content (the [docN] markers cut across chunks), a last chunk with end_turn: true and finish_reason, data: [DONE]; the order of context and content as the Azure OpenAI samples read it (the REST reference shows no streamed example); each chunk the SDK yields forwarded as one data: line',
      stream_of: 'AzureOpenAI chat.completions.create response (On Your Data)',
      data: stream },
  ]);
}

// --- xAI chat completions, streamed: inline [[n]](url) citations in the content, the
// `citations` urls on the last chunk.
{
  const content = 'Die Ariane 6 startete am 9. Juli 2024 zum Erstflug [[1]](https://www.esa.int/Ariane_6) ' +
    'von Kourou aus — über 4.000 km² Raumfahrtzentrum [[2]](https://de.wikipedia.org/wiki/Ariane_6).';
  const citations = ['https://www.esa.int/Ariane_6', 'https://de.wikipedia.org/wiki/Ariane_6', 'https://www.arianespace.com/vehicle/ariane-6/'];
  const id = 'a3c9e1f0-5b7d-4e2a-8f61-0d9c2b4e6a17';
  const head = { id, object: 'chat.completion.chunk', created: 1750538302, model: 'grok-3', system_fingerprint: 'fp_13a6dc65a6' };
  const usage = { prompt_tokens: 12, completion_tokens: 58, total_tokens: 70, num_sources_used: 3 };
  const sse = sseOf([
    ...deltas(content).map((d, i) => ({ ...head, choices: [{ index: 0, delta: i === 0 ? { content: d, role: 'assistant' } : { content: d } }] })),
    { ...head, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage, citations },
    '[DONE]',
  ]);
  const final = { ...head, object: 'chat.completion', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content, refusal: null } }], usage, citations };
  const xai = (fetch) => new OpenAI({ apiKey: 'x', baseURL: 'https://api.x.ai/v1', fetch });
  const ask = { model: 'grok-3', messages: [{ role: 'user', content: 'Wann startete die Ariane 6?' }], search_parameters: { mode: 'on', return_citations: true } };
  const response = await xai(answering(final)).chat.completions.create(ask);
  const stream = await forward(await xai(streaming(sse)).chat.completions.create({ ...ask, stream: true }));
  writeRecorded('xai', [
    { description: 'openai chat.completions.create response from xAI (Live Search)',
      source: `xAI Chat Completions with search (docs.x.ai: inline citations [[N]](url); citations: [urls] beside choices); answered by a custom fetch, read by openai ${version('openai')} with baseURL https://api.x.ai/v1`,
      data: response },
    { description: 'openai chat.completions.create stream from xAI (Live Search) chunks forwarded as SSE',
      source: 'xAI streamed chat completions: chat.completion.chunk with delta.content (inline [[N]](url) citations cut across chunks), the citations urls and usage on the last chunk (docs.x.ai: "citations are returned in the last chunk" when streaming), data: [DONE]; each chunk the SDK yields forwarded as one data: line',
      stream_of: 'openai chat.completions.create response from xAI (Live Search)',
      data: stream },
  ]);
}

// --- Mistral chat, streamed (`chat.stream`): text deltas and reference chunks; and the
// Conversations API (`beta.conversations.startStream`) with a web search tool.
{
  const head = { id: 'cmpl-4b2e9d', object: 'chat.completion.chunk', created: 1735689600, model: 'mistral-large-latest' };
  const parts = [
    { type: 'text', text: 'Den Friedensnobelpreis 2024 erhielt Nihon Hidankyō' },
    { type: 'reference', reference_ids: [0] },
    { type: 'text', text: ', eine Organisation der Überlebenden von Hiroshima und Nagasaki' },
    { type: 'reference', reference_ids: [1, 0] },
    { type: 'text', text: '.' },
  ];
  const chunks = [{ ...head, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }];
  for (const p of parts) {
    if (p.type === 'reference') chunks.push({ ...head, choices: [{ index: 0, delta: { content: [p] }, finish_reason: null }] });
    // Text as strings and as text chunks: the DeltaMessage type allows both.
    else deltas(p.text).forEach((d, i) => chunks.push({ ...head, choices: [{ index: 0, delta: { content: i % 2 ? [{ type: 'text', text: d }] : d }, finish_reason: null }] }));
  }
  chunks.push({ ...head, choices: [{ index: 0, delta: { content: '' }, finish_reason: 'stop' }], usage: { prompt_tokens: 412, completion_tokens: 40, total_tokens: 452 } });
  const final = {
    id: head.id, object: 'chat.completion', created: head.created, model: head.model,
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', tool_calls: null, prefix: false, content: parts } }],
    usage: { prompt_tokens: 412, completion_tokens: 40, total_tokens: 452 },
  };
  const mistral = (fetcher) => new Mistral({ apiKey: 'x', httpClient: new HTTPClient({ fetcher }) });
  const ask = { model: 'mistral-large-latest', messages: [{ role: 'user', content: 'Wer erhielt den Friedensnobelpreis 2024?' }] };
  const response = await mistral(answering(final)).chat.complete(ask);
  const stream = await forward(await mistral(streaming(sseOf([...chunks, '[DONE]']))).chat.stream(ask));

  const convId = 'conv_0682c6a1e4ab7f2b8000cbe1a3d5e7f9';
  const at = '2025-06-13T10:12:02.000Z';
  const msg = { id: 'msg_0682c6a2', model: 'mistral-medium-2505', agent_id: null, role: 'assistant' };
  const ref1 = { type: 'tool_reference', tool: 'web_search', title: 'The Nobel Peace Prize 2024 - NobelPrize.org', url: 'https://www.nobelprize.org/prizes/peace/2024/summary/', favicon: 'https://www.nobelprize.org/favicon.ico', description: null };
  const ref2 = { type: 'tool_reference', tool: 'web_search', title: 'Nihon Hidankyo - Wikipedia', url: 'https://en.wikipedia.org/wiki/Nihon_Hidankyo', favicon: null, description: null };
  const text1 = 'Le prix Nobel de la paix 2024 a été décerné à Nihon Hidankyō.';
  const text2 = ' Ses membres ont survécu à Hiroshima et Nagasaki.';
  let ci = 0;
  const out = (content) => ['message.output.delta', { type: 'message.output.delta', created_at: at, output_index: 1, ...msg, content_index: ci++, content }];
  const usage = { prompt_tokens: 2712, completion_tokens: 64, total_tokens: 2776, connector_tokens: 1500, connectors: { web_search: 1 } };
  const convSse = sseOf([
    ['conversation.response.started', { type: 'conversation.response.started', created_at: '2025-06-13T10:12:00.000Z', conversation_id: convId }],
    ['tool.execution.started', { type: 'tool.execution.started', created_at: '2025-06-13T10:12:00.100Z', output_index: 0, id: 'tool_exec_0682c6a1', name: 'web_search', arguments: '{"query": "Nobel Peace Prize 2024"}' }],
    ['tool.execution.done', { type: 'tool.execution.done', created_at: at, output_index: 0, id: 'tool_exec_0682c6a1', name: 'web_search', info: {} }],
    ...deltas(text1).map(out), out(ref1), ...deltas(text2).map(out), out(ref2),
    ['conversation.response.done', { type: 'conversation.response.done', created_at: '2025-06-13T10:12:04.000Z', usage }],
  ]);
  const convFinal = {
    object: 'conversation.response', conversation_id: convId,
    outputs: [
      { object: 'entry', type: 'tool.execution', name: 'web_search', id: 'tool_exec_0682c6a1', created_at: '2025-06-13T10:12:00.100Z', completed_at: at, arguments: '{"query": "Nobel Peace Prize 2024"}' },
      { object: 'entry', type: 'message.output', ...msg, created_at: at, completed_at: '2025-06-13T10:12:04.000Z', content: [{ type: 'text', text: text1 }, ref1, { type: 'text', text: text2 }, ref2] },
    ],
    usage,
  };
  const convAsk = { model: 'mistral-medium-latest', inputs: 'Qui a reçu le prix Nobel de la paix 2024 ?', tools: [{ type: 'web_search' }] };
  const conversation = await mistral(answering(convFinal)).beta.conversations.start(convAsk);
  const convStream = await forward(await mistral(streaming(convSse)).beta.conversations.startStream(convAsk));
  writeRecorded('mistral', [
    { description: '@mistralai/mistralai chat.complete response with reference chunks',
      source: `docs.mistral.ai/capabilities/citations: the answer's content chunks {type: "text"} and {type: "reference", reference_ids}; the references themselves are in the app's tool message, not in the completion (each id is a bare source here); answered by a custom fetch, read by @mistralai/mistralai ${version('@mistralai/mistralai')}`,
      data: response },
    { description: '@mistralai/mistralai chat.stream events forwarded as SSE',
      source: 'Mistral chat completions with stream: true (data-only server-sent events ending with data: [DONE]): chat.completion.chunk whose delta.content is a string or an array of content chunks (the SDK\'s DeltaMessage: string | ContentChunk[]), reference chunks as arrays; how a live stream splits text and reference chunks is not documented; each CompletionEvent {data} the SDK yields forwarded as one data: line',
      stream_of: '@mistralai/mistralai chat.complete response with reference chunks',
      data: stream },
    { description: '@mistralai/mistralai beta.conversations.start response with tool_reference chunks',
      source: `docs.mistral.ai agents / websearch: a conversation.response whose message.output content holds text and tool_reference chunks; answered by a custom fetch, read by @mistralai/mistralai ${version('@mistralai/mistralai')}`,
      data: conversation },
    { description: '@mistralai/mistralai beta.conversations.startStream events forwarded as SSE',
      source: 'Mistral Conversations API with stream: true (the SDK\'s ConversationEvents / SSETypes): conversation.response.started, tool.execution.started, tool.execution.done, message.output.delta (content a string or an output chunk such as tool_reference, output_index naming the output), conversation.response.done with the usage; each {event, data} the SDK yields forwarded as one data: line',
      stream_of: '@mistralai/mistralai beta.conversations.start response with tool_reference chunks',
      data: convStream },
  ]);
}

// --- LlamaIndex Server (@llamaindex/server, create-llama's app): the UI message stream
// its chat handler writes for @llamaindex/chat-ui (`ServerAdapter.toSSE`: one `data:`
// line per part, text-start/text-delta, `data-*` parts; no `start`, `finish` or
// `[DONE]`; its `text-end` is never sent), and the UIMessage the AI SDK's `useChat`
// client (DefaultChatTransport + readUIMessageStream, what chat-ui runs) makes of it.
{
  const node = (id, file, page, score, text) => ({
    id, fileName: file, filePath: `data/${file}`, url: `/api/files/data/${file}`,
    metadata: { file_name: file, page_label: page, file_type: 'application/pdf' }, score, text,
  });
  const nodes = [
    node('0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9', 'kölner-dom.pdf', '3', 0.87, 'Der Kölner Dom ist 157,38 m hoch und war von 1880 bis 1884 das höchste Gebäude der Welt.'),
    node('9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d', 'cathedral-facts.pdf', '12', 0.81, 'Construction began in 1248 and was completed in 1880.'),
  ];
  const [a, b] = nodes.map((n) => n.id);
  // The model's tokens as LlamaIndex streams them: markers cut across deltas.
  const deltas = ['Der Kölner Dom ist 157 m hoch', ' 🏰 [cit', `ation:${a.slice(0, 9)}`, `${a.slice(9)}]. `,
    'It was completed in 1880 [citation:', `${b}][citation:${a}]`, '.\n\n- Baubeginn: 1248 ', `[citation:${b}]`];
  const events = [
    { type: 'data-event', id: 'call_q1', data: { title: 'Agent Tool Call: query_index', description: "Using tool: 'query_index' with inputs: '{\"query\":\"Kölner Dom Höhe\"}'", status: 'pending' } },
    { type: 'data-event', id: 'call_q1', data: { title: 'Agent Tool Call: query_index', description: "Using tool: 'query_index' with inputs: '{\"query\":\"Kölner Dom Höhe\"}'", status: 'success' } },
    { type: 'data-sources', data: { nodes } },
    { type: 'text-start', id: 'agent-workflow-stream' },
    ...deltas.map((delta) => ({ type: 'text-delta', id: 'agent-workflow-stream', delta })),
    { type: 'data-suggested_questions', data: ['Wann wurde der Dom geweiht?', 'Wie viele Stufen hat der Südturm?'] },
  ];
  const stream = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
  const transport = new DefaultChatTransport({ api: 'http://127.0.0.1/api/chat', fetch: streaming(stream) });
  const chunks = await transport.sendMessages({
    trigger: 'submit-message', chatId: 'chat-1', messageId: undefined, abortSignal: undefined,
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Wie hoch ist der Kölner Dom?' }] }],
  });
  let message;
  for await (const m of readUIMessageStream({ stream: chunks })) message = m;
  const source = 'LlamaIndex Server (run-llama/chat-ui packages/server: utils/stream.ts ServerAdapter.toSSE, utils/parts/{text,sources}.ts toSourceEventNode) and @llamaindex/chat-ui 0.6 (message-parts/types.ts: SourcesPart = {type: "data-sources", data: {nodes}}; widgets/markdown.tsx reads [citation:<node id>]); the stream written by hand in that shape, the message made by the `ai` package\'s DefaultChatTransport and readUIMessageStream, as useChat does';
  writeRecorded('llamaindex', [
    { description: 'the UIMessage useChat makes of a LlamaIndex Server stream', source, data: message },
    // Its first chunk is a `data-event` part, as any AI SDK stream's may be: read as
    // `llamaindex` when the format is named (docs/formats.md).
    { description: 'a LlamaIndex Server chat stream for @llamaindex/chat-ui', source, stream_of: 'the UIMessage useChat makes of a LlamaIndex Server stream', options: { format: 'llamaindex' }, data: stream },
  ]);
}

// --- LangChain: ChatOpenAI.stream() over the Responses API (a Responses stream with
// url_citation annotations, written after the API reference's streaming events and the
// recorded stream in tests/recorded/openai/), each AIMessageChunk forwarded as a
// backend does: `data: JSON.stringify(chunk)` (the chunk's toJSON(), `{lc, type:
// "constructor", id: [..., "AIMessageChunk"], kwargs}`), and as LangGraph's
// `messages-tuple` stream mode sends it (`event: messages`, data `[message chunk,
// metadata]`); the app's final object is the chunks concatenated (`concat`, as
// `@langchain/core` merges them), toJSON().
{
  const text = 'Der Kölner Dom ist 157 m hoch 🏰. It was completed in 1880 and is a World Heritage Site.';
  const deltas = ['Der Kö', 'lner Dom ist 1', '57 m hoch 🏰', '. It was', ' completed in 1880', ' and is a World', ' Heritage Site.'];
  const item = 'msg_67ccd2bf17';
  const annotations = [
    { type: 'url_citation', start_index: 0, end_index: text.indexOf('.'), url: 'https://de.wikipedia.org/wiki/K%C3%B6lner_Dom', title: 'Kölner Dom – Wikipedia' },
    { type: 'url_citation', start_index: text.indexOf('It was'), end_index: text.length - 1, url: 'https://whc.unesco.org/en/list/292', title: 'Cologne Cathedral – UNESCO' },
  ];
  const response = (status, output) => ({ id: 'resp_67ccd2bed1ec8190', object: 'response', created_at: 1741476542, status, model: 'gpt-4.1-2025-04-14', output });
  const events = [
    { type: 'response.created', response: response('in_progress', []) },
    { type: 'response.output_item.added', output_index: 0, item: { id: item, type: 'message', status: 'in_progress', role: 'assistant', content: [] } },
    { type: 'response.content_part.added', item_id: item, output_index: 0, content_index: 0, part: { type: 'output_text', annotations: [], text: '' } },
  ];
  let sent = '';
  for (const delta of deltas) {
    events.push({ type: 'response.output_text.delta', item_id: item, output_index: 0, content_index: 0, delta });
    sent += delta;
    // An annotation comes once the text it covers has been sent.
    annotations.forEach((annotation, i) => {
      if (annotation.end_index <= sent.length && annotation.end_index > sent.length - delta.length) {
        events.push({ type: 'response.output_text.annotation.added', item_id: item, output_index: 0, content_index: 0, annotation_index: i, annotation });
      }
    });
  }
  const message = { id: item, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations }] };
  events.push(
    { type: 'response.output_text.done', item_id: item, output_index: 0, content_index: 0, text },
    { type: 'response.content_part.done', item_id: item, output_index: 0, content_index: 0, part: message.content[0] },
    { type: 'response.output_item.done', output_index: 0, item: message },
    { type: 'response.completed', response: { ...response('completed', [message]), usage: { input_tokens: 328, output_tokens: 52, total_tokens: 380 } } },
  );
  const wire = events.map((e, i) => `event: ${e.type}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`).join('');
  const llm = new ChatOpenAI({ model: 'gpt-4.1', apiKey: 'x', useResponsesApi: true, configuration: { fetch: streaming(wire) } });
  const chunks = [];
  let whole;
  for await (const chunk of await llm.stream('Wie hoch ist der Kölner Dom?', { tools: [{ type: 'web_search_preview' }] })) {
    chunks.push(chunk);
    whole = whole ? concat(whole, chunk) : chunk;
  }
  const plain = chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('');
  // LangGraph's server serializes a message chunk as its fields with `type`
  // ("AIMessageChunk"), the metadata as the graph node's.
  const meta = { langgraph_step: 1, langgraph_node: 'model' };
  const tuple = chunks.map((c) => {
    const { kwargs } = c.toJSON();
    return `event: messages\ndata: ${JSON.stringify([{ ...kwargs, type: 'AIMessageChunk', id: whole.id ?? kwargs.id }, meta])}\n\n`;
  }).join('');
  const of = 'the AIMessageChunk ChatOpenAI.stream() ends with (concat of the chunks, toJSON)';
  writeRecorded('langchain', [
    { description: of, source: '@langchain/openai ChatOpenAI (useResponsesApi) over an OpenAI Responses stream (platform.openai.com/docs/api-reference/responses-streaming: response.output_text.delta, response.output_text.annotation.added with url_citation); @langchain/core concat; toJSON()', data: whole.toJSON() },
    { description: 'ChatOpenAI.stream() chunks forwarded as SSE (JSON.stringify(chunk))', source: 'the chunks @langchain/openai yields, each written as `data: ${JSON.stringify(chunk)}` by the backend', stream_of: of, data: plain },
    { description: 'LangGraph messages-tuple stream of the same chunks', source: 'LangGraph API server stream mode "messages-tuple" (langgraph-api stream.ts: `{event: "messages", data: [message, metadata]}`; @langchain/langgraph-sdk StreamMode); written from that shape with the real chunks\' fields, the server itself is not run here', stream_of: of, data: tuple },
  ]);
}
