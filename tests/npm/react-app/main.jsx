// The React test app (react-checks.mjs drives it): the example of examples/js/react.jsx,
// a chat whose messages the checks stream, reorder and remove (in StrictMode), and a
// server-rendered <cited-answer> hydrated with hydrateRoot.
import { StrictMode, useEffect, useState } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { View, init } from 'cited-answer';
import { CitedAnswer, useCitekit } from 'cited-answer/react';
import { Answer } from './react.jsx';

window.pageErrors = [];
window.addEventListener('error', (e) => window.pageErrors.push(String(e.message)));
window.addEventListener('unhandledrejection', (e) => window.pageErrors.push(String(e.reason)));

// Window listeners added and not removed: a leak check (each view adds a few).
const windowListeners = new Set();
const addListener = window.addEventListener;
const removeListener = window.removeEventListener;
window.addEventListener = function (type, fn, options) {
  windowListeners.add(`${type}\u0000${fnId(fn)}`);
  return addListener.call(this, type, fn, options);
};
window.removeEventListener = function (type, fn, options) {
  windowListeners.delete(`${type}\u0000${fnId(fn)}`);
  return removeListener.call(this, type, fn, options);
};
const ids = new WeakMap();
let lastId = 0;
function fnId(fn) {
  if (fn === null || (typeof fn !== 'object' && typeof fn !== 'function')) return String(fn);
  if (!ids.has(fn)) ids.set(fn, ++lastId);
  return ids.get(fn);
}

// Views destroyed while mounted (StrictMode destroys the first view of each mount).
const destroy = View.prototype.destroy;
window.stats = {
  destroyed: 0,
  effectRuns: 0,
  windowListeners: () => [...windowListeners].map((k) => k.split('\u0000')[0]).sort(),
};
View.prototype.destroy = function () {
  if (this.mounted) window.stats.destroyed++;
  return destroy.call(this);
};

/** Proves the build is React's development build with StrictMode: effects run twice. */
function EffectCounter() {
  useEffect(() => {
    window.stats.effectRuns++;
  }, []);
  return null;
}

function Chat() {
  const [messages, setMessages] = useState([]);
  const [theme, setTheme] = useState('light');
  useEffect(() => {
    window.chat = { setMessages, setTheme };
  }, []);
  return (
    <div id="chat">
      {messages.map((m) => (
        <article className="msg" key={m.id} id={`msg-${m.id}`}>
          <CitedAnswer
            answer={m.text}
            data={m.data}
            streaming={m.streaming}
            options={{ theme, footnotes: m.footnotes ?? true, ...(m.format ? { format: m.format } : {}) }}
            onCitationClick={(detail) => window.clicks.push({ id: m.id, ...detail })}
          />
        </article>
      ))}
    </div>
  );
}
window.clicks = [];

createRoot(document.getElementById('example')).render(
  <StrictMode>
    <Answer />
  </StrictMode>,
);
createRoot(document.getElementById('chat-root')).render(
  <StrictMode>
    <EffectCounter />
    <Chat />
  </StrictMode>,
);

// useCitekit with what a page may do to it: the element its ref is on replaced (a
// conditional render), options that throw at the first mount, then fixed.
function Probe() {
  const [p, setP] = useState({ which: 'a', answer: 'Paris is the capital of France [1].', options: window.probeInitial ?? {} });
  const { ref, getView } = useCitekit({ answer: p.answer, data: window.probeData, options: p.options });
  useEffect(() => {
    window.probe = { set: (q) => setP((old) => ({ ...old, ...q })), getView };
  });
  return p.which === 'a' ? <section id="probe-a" ref={ref} /> : <div id="probe-b" ref={ref} />;
}
window.probeData = {
  1: { title: 'Paris - Wikipedia', source: 'https://en.wikipedia.org/wiki/Paris' },
};

// A server-rendered <cited-answer>: its answer in an attribute, its data in a child
// script. hydrateRoot sets no custom-element property while it hydrates.
const SSR_DATA = {
  1: { title: 'Paris - Wikipedia', source: 'https://en.wikipedia.org/wiki/Paris' },
  2: { title: 'Eiffel Tower history', source: 'https://www.toureiffel.paris/en' },
};
const json = JSON.stringify(SSR_DATA).replace(/</g, '\\u003c');

function Hydrated({ text, streaming, onDone }) {
  useEffect(() => onDone?.(), [onDone]);
  return (
    <cited-answer id="hydrated-el" answer={text} streaming={streaming}>
      <script type="application/json" dangerouslySetInnerHTML={{ __html: json }} />
    </cited-answer>
  );
}

window.hydration = {
  errors: [],
  /** Server-renders, hydrates in a detached container, then puts it in the page. */
  async start(text) {
    const container = document.createElement('div');
    container.innerHTML = renderToString(<Hydrated text={text} streaming />);
    window.hydration.serverHtml = container.innerHTML;
    await new Promise((done) => {
      window.hydration.root = hydrateRoot(container, <Hydrated text={text} streaming onDone={done} />, {
        onRecoverableError: (e) => window.hydration.errors.push(String(e)),
      });
    });
    document.getElementById('hydrate').append(container);
  },
  render(text, streaming) {
    window.hydration.root.render(<Hydrated text={text} streaming={streaming} />);
  },
};

window.startProbe = (options) => {
  window.probeInitial = options;
  createRoot(document.getElementById('probe-root')).render(
    <StrictMode>
      <Probe />
    </StrictMode>,
  );
};

init().then(() => {
  window.citekitReady = true;
});
