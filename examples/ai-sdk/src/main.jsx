// A chat page built the way Vercel AI SDK apps are (useChat from @ai-sdk/react over a
// DefaultChatTransport), whose assistant messages show their citations with citekit's
// <CitedAnswer message streaming>. The transport's fetch answers from a recorded UI
// message stream (./recorded.js): `?case=<name>` picks which one (default
// openai-web-search), `?chunk=` and `?delay=` how it is cut and paced.
import { StrictMode, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport } from 'ai';
import { init } from 'cited-answer';
import { CitedAnswer } from 'cited-answer/react';
import { CASES, recordedFetch } from './recorded.js';

const QUESTIONS = {
  'openai-web-search': 'How big is Zürich, and how is it written in Japanese?',
  'openai-reasoning-tool': 'What is the weather in Lyon?',
  'anthropic-web-search': 'When did Apple Ginza reopen?',
  'anthropic-document-citations': 'What colour are the grass and the sky?',
  'gemini-grounding': 'Quelle est l’altitude du Mont Blanc ?',
  'gemini-grounding-sources-only': 'Quelle est l’altitude du Mont Blanc ?',
  'perplexity-citations': 'How often does the ISS orbit Earth?',
  'perplexity-edge-cases': 'Comment Rust encode-t-il les chaînes ?',
};

const params = new URLSearchParams(location.search);
const caseName = params.get('case') ?? 'openai-web-search';
const pacing = {
  chunkBytes: Number(params.get('chunk') ?? 24),
  delayMs: Number(params.get('delay') ?? 12),
};

function userText(message) {
  return message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

function Chat() {
  const transport = useMemo(
    () => new DefaultChatTransport({ api: '/api/chat', fetch: recordedFetch(caseName, pacing) }),
    [],
  );
  const { messages, sendMessage, status } = useChat({ transport });
  const [input, setInput] = useState(QUESTIONS[caseName] ?? 'Ask anything');
  const last = messages.at(-1);
  return (
    <>
      <h1>citekit + Vercel AI SDK: {caseName}</h1>
      {messages.map((m) =>
        m.role === 'assistant' ? (
          <div key={m.id} className="msg" data-message-id={m.id}>
            <div className="msg__role">assistant</div>
            <CitedAnswer message={m} streaming={status === 'streaming' && m.id === last.id} options={{ panel: true }} />
          </div>
        ) : (
          <div key={m.id} className="msg msg--user">
            <div className="msg__role">{m.role}</div>
            {userText(m)}
          </div>
        ),
      )}
      <p className="status" data-status={status}>
        {status}
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (input.trim() === '') return;
          sendMessage({ text: input });
          setInput('');
        }}
      >
        <input value={input} onChange={(e) => setInput(e.target.value)} aria-label="Message" />
        <button type="submit" disabled={status === 'streaming' || status === 'submitted'}>
          Send
        </button>
      </form>
      <p className="status">Recorded answers: {Object.keys(CASES).sort().join(', ')}</p>
    </>
  );
}

// The plain init(): its module reads every AI SDK message, the providers' positions
// (OpenAI annotations, Anthropic citations, Gemini grounding) included.
init();

createRoot(document.getElementById('app')).render(
  <StrictMode>
    <Chat />
  </StrictMode>,
);
