// A `fetch` for the AI SDK's DefaultChatTransport that answers every chat request with
// a UI message stream recorded from the real SDK (tests/recorded/ai-sdk/, made by
// scripts/record-ai-sdk.mjs), as a route handler's `toUIMessageStreamResponse()` would
// send it: cut into small network chunks (some inside a UTF-8 character), each after
// a short delay. No network, no API key.
const streams = import.meta.glob('@recorded/*.stream.txt', { query: '?raw', import: 'default', eager: true });

/** The recorded cases, by name (`openai-web-search`, `perplexity-citations`, ...). */
export const CASES = Object.fromEntries(
  Object.entries(streams).map(([path, text]) => [path.split('/').pop().replace('.stream.txt', ''), text]),
);

/**
 * A fetch answering with the recorded stream `name`, `chunkBytes` bytes (varying
 * around it) every `delayMs` milliseconds.
 */
export function recordedFetch(name, { chunkBytes = 24, delayMs = 12 } = {}) {
  const text = CASES[name];
  if (text === undefined) throw new Error(`no recorded stream named ${name}: ${Object.keys(CASES).join(', ')}`);
  return async (_url, init) => {
    const bytes = new TextEncoder().encode(text);
    let at = 0;
    let n = 0;
    const signal = init?.signal;
    const body = new ReadableStream({
      async pull(controller) {
        await new Promise((ok) => setTimeout(ok, delayMs));
        if (signal?.aborted) {
          controller.error(signal.reason);
          return;
        }
        if (at >= bytes.length) {
          controller.close();
          return;
        }
        // Sizes vary (7, 24, 41, ... around chunkBytes) so cuts fall anywhere.
        const size = Math.max(1, chunkBytes + ((n++ * 17) % chunkBytes) - Math.floor(chunkBytes / 2));
        controller.enqueue(bytes.slice(at, at + size));
        at += size;
      },
    });
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        'x-vercel-ai-ui-message-stream': 'v1',
      },
    });
  };
}
