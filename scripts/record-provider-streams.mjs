// Records providers' own event streams and the final object the real SDK makes of
// them, for citekit's streamed `anthropic` and `gemini` formats.
//
// For each case, the SSE body is written in the provider's documented wire format and
// handed, cut into network chunks at uneven places (one cut inside a multi-byte UTF-8
// character), to the provider's real SDK through its custom `fetch`; no network is
// used. Each case writes, under tests/recorded/provider-streams/:
// - <case>.stream.txt: the SSE body, byte for byte (what a chat backend that forwards
//   the provider's stream sends to the page);
// - <case>.final.json: the final object an app holds once the stream ends:
//   - Anthropic: `client.messages.stream(...)` then `await stream.finalMessage()`
//     (@anthropic-ai/sdk);
//   - Gemini: `ai.models.generateContentStream(...)`, the chunks it yields gathered
//     as its docs show (`text += chunk.text` per chunk): the last chunk, its
//     candidate's parts replaced by one part holding the whole text, with the
//     `groundingMetadata` of the chunk that carried it (@google/genai).
//
// Run by hand (not part of npm test): node scripts/record-provider-streams.mjs
// Where each shape comes from: tests/recorded/provider-streams/README.md.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { anthropicStream, geminiStream, streamingFetch, utf8Len } from './lib/wire.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'tests/recorded/provider-streams');

// ---------------------------------------------------------------- Anthropic Messages
// The stream is built by scripts/lib/wire.mjs (wire format and sources there), with
// a `ping` after `message_start`.

async function anthropicCase() {
  const toolUseId = 'srvtoolu_01Xq7bT3mZ9wK2pR4sV6yH8c';
  const louvre = 'https://www.louvre.fr/en/visit/hours-admission';
  const jp = 'https://www.japan-guide.com/e/e3052.html';
  const paris = 'https://en.parisinfo.com/paris-museum-monument/71148/Musee-du-Louvre';
  const loc = (url, title, cited_text, k) => ({ type: 'web_search_result_location', cited_text, url, title, encrypted_index: `EpMBCioIBxgCIiQ${k}NjA4` });
  const louvreTitle = 'Hours, admission & directions | Louvre Museum';
  const body = anthropicStream({
    msgId: 'msg_01Vn3sFq8Yw2Lc5Pd7Rk9Tb4',
    usage: { input: 2113, output: 3 },
    ping: true,
    queryCut: 12,
    cacheFields: true,
    blocks: [
      { search: { id: toolUseId, query: 'Louvre opening hours Tuesday' } },
      { searchResult: { toolUseId, results: [
        { url: louvre, title: louvreTitle, pageAge: 'November 2, 2026' },
        { url: jp, title: 'ルーブル美術館 - 営業時間 | japan-guide.com' },
        { url: paris, title: 'Musée du Louvre - Paris tourist office' },
      ] } },
      { text: ['Voici ce que j’ai trouvé — café crème à côté', ' :\n\n'] },
      { text: ['The Louvre is open every day except Tuesday', ', from 9 a.m. to 6 p.m.'], citations: [loc(louvre, louvreTitle, 'The museum is open from 9 a.m. to 6 p.m. every day except Tuesdays.', 0)] },
      { text: [' '] },
      { text: ['In Japanese it is ルーブル美術館 🖼️', ', one of the world’s most visited museums'], citations: [loc(jp, 'ルーブル美術館 - 営業時間 | japan-guide.com', 'ルーブル美術館は世界で最も来場者の多い美術館の一つです。', 1)] },
      { text: ['.\n\nA list indexes from zero, so the second ticket is:\n\n```\ntickets[1]\n```\n\n'] },
      { text: ['Night openings run until 9:45 p.m. on Fridays', '.'], citations: [loc(louvre, louvreTitle, 'Late opening until 9:45 p.m. on Fridays.', 2)] },
    ],
  });
  const seen = [];
  const client = new Anthropic({ apiKey: 'sk-ant-recorded', fetch: streamingFetch(body, seen, { 'request-id': 'req_recorded' }), maxRetries: 0 });
  const stream = client.messages.stream({
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    messages: [{ role: 'user', content: 'When is the Louvre open?' }],
    tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }],
  });
  const message = structuredClone(await stream.finalMessage());
  if (seen.length !== 1 || !seen[0].body.stream) throw new Error('expected one streamed request');
  // The SDK's own field (the parsed structured output, null without an output
  // format), not part of the API's message.
  if (message.parsed_output === null) delete message.parsed_output;
  return { name: 'anthropic-web-search', body, final: message };
}

// ---------------------------------------------------------------- Gemini
// The stream is built by scripts/lib/wire.mjs (wire format and sources there);
// `groundingMetadata` rides on the last chunk, with its `finishReason`.

/// What an app holds once the chunks are in (see the top of this file).
function geminiFinal(chunks) {
  const plain = chunks.map((c) => {
    const o = JSON.parse(JSON.stringify(c));
    // The SDK's own record of the HTTP response, not part of the API's response.
    delete o.sdkHttpResponse;
    return o;
  });
  const text = chunks.map((c) => c.text ?? '').join('');
  const final = plain[plain.length - 1];
  const grounding = plain.map((c) => c.candidates?.[0]?.groundingMetadata).filter(Boolean).pop();
  final.candidates[0].content = { parts: [{ text }], role: 'model' };
  if (grounding) final.candidates[0].groundingMetadata = grounding;
  return final;
}

async function geminiCase() {
  const deltas = [
    'Le **Mont Blanc** culmine à 4 805 m',
    ' ; c’est le plus haut sommet des Alpes. ',
    'En japonais : モンブラン 🏔️.\n\nUn tableau commence à zéro :\n\n```\nsommets[1]\n```\n\n',
    'Son premier sommet fut atteint en 1786 par Balmat et Paccard. ',
    'Le Mont Blanc culmine à 4 805 m.',
  ];
  const chunks = [
    { uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQGm1', title: 'wikipedia.org' },
    { uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQHx2', title: 'chamonix.com' },
    { uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQKp3', title: 'britannica.com' },
  ];
  const body = geminiStream({
    promptTokens: 16, tokensPerChunk: 18, responseId: 'pQ2LaYb7Cs_xnsEP8eGQgQk',
    deltas, chunks, queries: ['altitude Mont Blanc', 'première ascension Mont Blanc'],
    supports: [
      { phrase: 'Le **Mont Blanc** culmine à 4 805 m ; c’est le plus haut sommet des Alpes.', chunkIndices: [0, 1], scores: [0.93, 0.88] },
      { phrase: 'Son premier sommet fut atteint en 1786 par Balmat et Paccard.', chunkIndices: [2], scores: [0.9] },
      { phrase: 'Le Mont Blanc culmine à 4 805 m.', chunkIndices: [0], scores: [0.95] },
    ],
  });
  const seen = [];
  const ai = new GoogleGenAI({ apiKey: 'recorded', httpOptions: { fetch: streamingFetch(body, seen, { 'request-id': 'req_recorded' }) } });
  const response = await ai.models.generateContentStream({
    model: 'gemini-2.5-flash',
    contents: 'Quelle est l’altitude du Mont Blanc ?',
    config: { tools: [{ googleSearch: {} }] },
  });
  const got = [];
  for await (const chunk of response) got.push(chunk);
  if (seen.length !== 1 || !seen[0].url.includes('alt=sse')) throw new Error(`expected one alt=sse request, got ${seen.map((s) => s.url)}`);
  if (got.length !== deltas.length) throw new Error(`expected ${deltas.length} chunks, got ${got.length}`);
  return { name: 'gemini-grounding', body, final: geminiFinal(got) };
}

mkdirSync(outDir, { recursive: true });
for (const c of [await anthropicCase(), await geminiCase()]) {
  writeFileSync(join(outDir, `${c.name}.stream.txt`), c.body);
  writeFileSync(join(outDir, `${c.name}.final.json`), `${JSON.stringify(c.final, null, 2)}\n`);
  console.log(`${c.name}: ${utf8Len(c.body)} bytes of stream`);
}
const version = (name) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
console.log(`@anthropic-ai/sdk ${version('@anthropic-ai/sdk')}, @google/genai ${version('@google/genai')}`);
