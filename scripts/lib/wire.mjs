// What the recording scripts share: a provider's documented wire format served to
// its real SDK through a custom `fetch`, cut into uneven network chunks, and the
// Anthropic and Gemini event streams that several recordings build.
//
// Nothing here is a provider's behaviour of its own: each builder writes the events
// the provider's API reference documents, and the SDK that reads them is the real one.

export const enc = new TextEncoder();
export const utf8Len = (s) => enc.encode(s).length;

const CHUNK_SIZES = [7, 93, 1, 250, 31, 2, 512, 64, 3, 129];

/// Cuts `bytes` into network chunks of uneven sizes (`sizes` in turn); the first
/// multi-byte UTF-8 character is split between two chunks, as a network may.
export function cutIntoChunks(bytes, sizes = CHUNK_SIZES) {
  const cuts = new Set();
  const multibyte = bytes.findIndex((b) => b >= 0xc0);
  if (multibyte >= 0) cuts.add(multibyte + 1);
  for (let at = 0, k = 0; at < bytes.length; k += 1) {
    at += sizes[k % sizes.length];
    if (at < bytes.length) cuts.add(at);
  }
  const points = [0, ...[...cuts].sort((a, b) => a - b), bytes.length];
  const chunks = [];
  for (let i = 1; i < points.length; i += 1) {
    if (points[i] > points[i - 1]) chunks.push(bytes.slice(points[i - 1], points[i]));
  }
  return chunks;
}

/// A `Response` whose body is `text` as a server-sent event stream, delivered in
/// uneven chunks with a task turn between them.
export function eventStreamResponse(text, headers = {}) {
  const chunks = cutIntoChunks(enc.encode(text));
  const body = new ReadableStream({
    async pull(controller) {
      const next = chunks.shift();
      if (next === undefined) controller.close();
      else {
        await new Promise((r) => setTimeout(r, 0));
        controller.enqueue(next);
      }
    },
  });
  return new Response(body, {
    status: 200,
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...headers },
  });
}

/// A `fetch` answering every request with `body` as an event stream; each request's
/// url and JSON body is pushed onto `seen` for the script's checks.
export function streamingFetch(body, seen, headers = {}) {
  return async (url, init) => {
    seen.push({ url: String(url), body: init?.body ? JSON.parse(init.body) : null });
    return eventStreamResponse(body, headers);
  };
}

/// A `fetch` answering the n-th request with the n-th event stream of `bodies`,
/// keeping the requests for checks.
export function recordingFetch(bodies) {
  const requests = [];
  const fetch = async (url, init) => {
    requests.push({ url: String(url), body: init?.body ? JSON.parse(init.body) : null });
    const body = bodies[requests.length - 1];
    if (body === undefined) throw new Error(`unexpected request ${requests.length} to ${url}`);
    return eventStreamResponse(body);
  };
  return { fetch, requests };
}

/// Splits `text` into deltas of a few words, as a model streams (a word may be cut,
/// a UTF-16 surrogate pair never: a delta is a JSON string of whole characters).
export function deltas(text) {
  const out = [];
  const sizes = [6, 19, 11, 2, 27, 14, 8, 23, 4, 16];
  let at = 0;
  for (let k = 0; at < text.length; k += 1) {
    let end = Math.min(text.length, at + sizes[k % sizes.length]);
    if (end < text.length && /[\udc00-\udfff]/.test(text[end])) end += 1;
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

/// The UTF-16 range of the `nth` (0-based) occurrence of `phrase` in `text`.
export function rangeOf(text, phrase, nth = 0) {
  let at = -1;
  for (let k = 0; k <= nth; k += 1) at = text.indexOf(phrase, at + 1);
  if (at < 0) throw new Error(`phrase not in text: ${phrase}`);
  return [at, at + phrase.length];
}

// ---------------------------------------------------------------- Anthropic Messages
// Wire format: `event: <type>` + `data: <json>` + blank line per event, as the
// Messages API streams (https://docs.anthropic.com/en/api/messages-streaming).
// Web search blocks (`server_tool_use` with `input_json_delta`,
// `web_search_tool_result` whole in its `content_block_start`) and `citations_delta`
// before the cited block's `text_delta`s follow vercel/ai
// packages/anthropic/src/__fixtures__/anthropic-web-search-tool.1.chunks.txt (a
// recorded response) and https://docs.anthropic.com/en/docs/build-with-claude/citations.

/// `blocks`: `{ search: {id, query} }`, `{ searchResult: {toolUseId, results: [{url,
/// title, pageAge}]} }` or `{ text: [deltas], citations: [citation objects sent
/// before the text] }`. `usage` sets the token counts of `message_start` and
/// `message_delta` (`cacheFields` adds the zero cache counts to the latter), `ping`
/// sends the keep-alive after `message_start`, `queryCut` where the search query's
/// JSON is cut between two `input_json_delta`s.
export function anthropicStream({
  msgId,
  blocks,
  model = 'claude-sonnet-4-5-20250929',
  usage = { input: 2037, output: 1 },
  ping = false,
  queryCut = 11,
  cacheFields = false,
}) {
  const events = [{
    type: 'message_start',
    message: { id: msgId, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: usage.output, service_tier: 'standard' } },
  }];
  if (ping) events.push({ type: 'ping' });
  blocks.forEach((block, index) => {
    if (block.search) {
      const { id, query } = block.search;
      events.push({ type: 'content_block_start', index, content_block: { type: 'server_tool_use', id, name: 'web_search', input: {} } });
      const json = JSON.stringify({ query });
      for (const piece of ['', json.slice(0, queryCut), json.slice(queryCut)]) {
        events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
      }
      events.push({ type: 'content_block_stop', index });
    } else if (block.searchResult) {
      const { toolUseId, results } = block.searchResult;
      const content = results.map((r, k) => ({ type: 'web_search_result', title: r.title, url: r.url, encrypted_content: `EqgfCioIARgBIiQ${k}ZjA3`, page_age: r.pageAge ?? null }));
      events.push({ type: 'content_block_start', index, content_block: { type: 'web_search_tool_result', tool_use_id: toolUseId, content } });
      events.push({ type: 'content_block_stop', index });
    } else {
      const start = block.citations ? { citations: [], type: 'text', text: '' } : { type: 'text', text: '' };
      events.push({ type: 'content_block_start', index, content_block: start });
      for (const citation of block.citations ?? []) {
        events.push({ type: 'content_block_delta', index, delta: { type: 'citations_delta', citation } });
      }
      for (const text of block.text) {
        events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
      }
      events.push({ type: 'content_block_stop', index });
    }
  });
  const cache = cacheFields ? { cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } : {};
  events.push({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { input_tokens: 9120, ...cache, output_tokens: 318, server_tool_use: { web_search_requests: 1 } } });
  events.push({ type: 'message_stop' });
  return events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
}

// ---------------------------------------------------------------- Gemini
// Wire format: `streamGenerateContent?alt=sse`, one `data: <GenerateContentResponse>`
// per event, events separated by CRLF CRLF
// (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent).
// `groundingMetadata` (groundingChunks, groundingSupports whose `segment`
// startIndex/endIndex are UTF-8 byte offsets of the response text, a zero
// `startIndex` omitted as proto3 JSON does) rides on the last chunk, with its
// `finishReason`, per https://ai.google.dev/gemini-api/docs/google-search and the
// chunk shape of vercel/ai packages/google/src/__fixtures__/google-text.chunks.txt.

/// `supports`: `{ phrase, nth, chunkIndices, scores }`, the phrase's `nth`
/// occurrence in the joined deltas being the supported segment. `promptTokens` and
/// `tokensPerChunk` set `usageMetadata`; `responseId` the response's id.
export function geminiStream({ deltas, chunks, supports, queries, model = 'gemini-2.5-flash', promptTokens, tokensPerChunk, responseId }) {
  const text = deltas.join('');
  const groundingSupports = supports.map(({ phrase, nth = 0, chunkIndices, scores }) => {
    const [at] = rangeOf(text, phrase, nth);
    const startIndex = utf8Len(text.slice(0, at));
    const segment = { ...(startIndex ? { startIndex } : {}), endIndex: startIndex + utf8Len(phrase), text: phrase };
    return { segment, groundingChunkIndices: chunkIndices, confidenceScores: scores };
  });
  const usage = (n) => ({ promptTokenCount: promptTokens, candidatesTokenCount: n, totalTokenCount: promptTokens + n, promptTokensDetails: [{ modality: 'TEXT', tokenCount: promptTokens }] });
  const events = deltas.map((d, i) => {
    const candidate = { content: { parts: [{ text: d }], role: 'model' }, index: 0 };
    if (i === deltas.length - 1) {
      candidate.finishReason = 'STOP';
      candidate.groundingMetadata = {
        searchEntryPoint: { renderedContent: '<style>.container{}</style><div class="container">…</div>' },
        groundingChunks: chunks.map((c) => ({ web: { uri: c.uri, title: c.title } })),
        groundingSupports,
        retrievalMetadata: {},
        webSearchQueries: queries,
      };
    }
    return { candidates: [candidate], usageMetadata: usage(tokensPerChunk * (i + 1)), modelVersion: model, responseId };
  });
  return events.map((e) => `data: ${JSON.stringify(e)}\r\n\r\n`).join('');
}
