// <cited-answer>: the custom element of the citekit npm package. Registered when this
// module is imported (unless the name is taken). Light DOM: see README.md, "Why light
// DOM".
import { CallLog, init, messageFallbackText, mount, reportOnce, showFallback, streamsEvents } from './core.js';

// Under Node (renderToString users import the package too) there is no HTMLElement.
const Base = typeof HTMLElement === 'undefined' ? class {} : HTMLElement;

/** Attributes holding option values, with their option names. */
const VALUE_ATTRS = {
  format: 'format',
  numbering: 'numbering',
  theme: 'theme',
  'marker-style': 'markerStyle',
  uncited: 'uncited',
  unresolved: 'unresolved',
  'position-encoding': 'positionEncoding',
};

/** Boolean attributes, with their option names and defaults. */
const BOOL_ATTRS = {
  'show-citations': ['showCitations', true],
  panel: ['panel', false],
  footnotes: ['footnotes', true],
  'copy-button': ['copyButton', false],
};

const ELEMENT_CSS_ID = 'citekit-element-css';

/** Where a server-rendered page puts the citation data: a child of the element. */
const DATA_SCRIPT = ':scope > script[type="application/json"]';

function addElementCss() {
  if (typeof document === 'undefined' || document.getElementById(ELEMENT_CSS_ID)) return;
  const style = document.createElement('style');
  style.id = ELEMENT_CSS_ID;
  // :where() keeps the specificity at 0, so any page rule wins.
  style.textContent = ':where(cited-answer){display:block}';
  (document.head || document.documentElement).appendChild(style);
}

/** `"false"` is false; any other value of a present attribute is true. */
function boolAttr(value, fallback) {
  if (value === null) return fallback;
  return value.trim().toLowerCase() !== 'false';
}

function report(err) {
  console.error(err);
}

/**
 * `<cited-answer>`: an answer with citation markers, hover cards, footnotes and (with
 * `panel`) the source panel. Inputs: the `answer`, `data`, `options` and `streaming`
 * properties, and the attributes `answer`, `streaming`, `format`, `numbering`,
 * `theme`, `show-citations`, `marker-style`, `uncited`, `unresolved`,
 * `position-encoding`, `panel`, `footnotes`, `copy-button` (the `options` property
 * wins over an attribute). Without `answer`/`data` properties it reads the `answer`
 * attribute and a child `<script type="application/json">` (server-rendered pages).
 *
 * Streaming: each new `answer` goes to the view whole, with `streaming`, and the module
 * decides (`core::live::change`): one that grew from the previous value is appended
 * (what is new), like `append(text)`; another one starts again. `finish()`, or turning
 * `streaming` off, ends the stream. Calls made while the module loads are made once it
 * has. Moving the element (removed and put back within the same task) keeps its view.
 * Events `citation-click` and `source-select` bubble out of it.
 *
 * The `message` property takes a Vercel AI SDK `UIMessage` (or its `parts`, or the
 * `messages` array) in place of `answer` and `data`: set it again on every render of a
 * streaming chat (with `streaming` on) and the module appends what of its text grew
 * and reads new sources, without rebuilding what is shown.
 */
export class CitedAnswerElement extends Base {
  static get observedAttributes() {
    return ['answer', 'streaming', ...Object.keys(VALUE_ATTRS), ...Object.keys(BOOL_ATTRS)];
  }

  #answer = null;
  /** An `answer` property was set (or text appended): the attribute is ignored since. */
  #answerSet = false;
  #data = null;
  #dataSet = false;
  #options = {};
  /** A Vercel AI SDK message, once the `message` property was set (else undefined). */
  #message = undefined;
  #streaming = false;
  #view = null;
  /** The view was mounted with `message` (not `answer` and `data`). */
  #viewShowsMessage = false;
  /**
   * While connected with no view yet (the module loading): the answer and data when the
   * first streaming call came, and the calls since, made on the view once mounted.
   */
  #pending = null;
  /** Connected and waiting for `init()` to mount. */
  #awaiting = false;
  /** Why the module could not load, once it failed: the answer is then shown as text. */
  #failure = null;
  /** Bumped on every connect/disconnect, so a stale init() resolution does nothing. */
  #generation = 0;
  /** The destroy deferred by a disconnect, cancelled when the element comes back. */
  #destroyTimer = null;

  constructor() {
    super();
    // Properties set before the element was upgraded (before this module loaded) are
    // own properties of the instance that hide the accessors: move them through.
    for (const key of ['answer', 'data', 'message', 'options', 'streaming']) {
      if (Object.prototype.hasOwnProperty.call(this, key)) {
        const value = this[key];
        delete this[key];
        this[key] = value;
      }
    }
  }

  /** The answer text (markdown, plain text, HTML or JSON, as the format says). */
  get answer() {
    return this.#answer;
  }
  set answer(value) {
    this.#answerSet = true;
    this.#setAnswer(value ?? null);
  }

  /** The citation data: an object, JSON text or an event stream (format `sse`). */
  get data() {
    return this.#data;
  }
  set data(value) {
    this.#dataSet = true;
    this.#setData(value ?? null);
  }

  /**
   * A Vercel AI SDK `UIMessage` (its parts, or the messages array), in place of
   * `answer` and `data`. Each new value is forwarded to the module with `streaming`:
   * what of the text grew is appended, new sources are read.
   */
  get message() {
    return this.#message ?? null;
  }
  set message(value) {
    this.#message = value ?? null;
    this.#showFailure();
    if (this.#view === null) return;
    if (!this.#viewShowsMessage) {
      // It showed an answer: mounted anew for the message.
      this.#destroy();
      this.#mount();
      return;
    }
    this.#call((v) => v.update({ message: this.#message, streaming: this.#streaming }));
  }

  /** Options (and `panel`, `footnotes`, `copyButton`, `injectCss`); win over attributes. */
  get options() {
    return this.#options;
  }
  set options(value) {
    this.#options = value && typeof value === 'object' ? { ...value } : {};
    this.#call((v) => v.setOptions(this.#allOptions()));
  }

  /** True while the answer is still arriving; turning it off ends the stream. */
  get streaming() {
    return this.#streaming;
  }
  set streaming(value) {
    this.#setStreaming(Boolean(value));
  }

  /** The mounted View (null until the module is loaded and the element connected). */
  get view() {
    return this.#view;
  }

  /**
   * Adds streamed text (to the answer, or to the event stream for format `sse`). With
   * anything but one string argument it is the DOM's `append` (nodes are added).
   */
  append(...args) {
    if (args.length !== 1 || typeof args[0] !== 'string') {
      super.append(...args);
      return;
    }
    const text = args[0];
    if (text === '') return;
    this.#note();
    if (this.#isSse()) {
      this.#dataSet = true;
      this.#data = (typeof this.#data === 'string' ? this.#data : '') + text;
    } else {
      this.#answerSet = true;
      this.#answer = (this.#answer ?? '') + text;
    }
    this.#showFailure();
    this.#send('append', text);
  }

  /** Ends the stream. */
  finish() {
    this.#note();
    this.#send('finish');
  }

  connectedCallback() {
    addElementCss();
    if (this.#destroyTimer !== null) {
      // Back within the same task: a move (a keyed list reordered). The view and its
      // open card stay.
      clearTimeout(this.#destroyTimer);
      this.#destroyTimer = null;
      if (this.#view !== null) return;
    }
    const generation = ++this.#generation;
    const current = () => generation === this.#generation && this.isConnected;
    this.#awaiting = true;
    init().then(
      () => {
        if (current() && this.#view === null) this.#mount();
      },
      (err) => {
        if (!current()) return;
        this.#awaiting = false;
        this.#pending = null;
        this.#failure = err;
        this.#showFailure();
        reportOnce(err);
      },
    );
  }

  disconnectedCallback() {
    this.#generation++;
    this.#awaiting = false;
    if (this.#view === null || this.#destroyTimer !== null) return;
    // A move is a disconnect followed by a connect: destroy only when the element is
    // still out of the document once the current task is over.
    this.#destroyTimer = setTimeout(() => {
      this.#destroyTimer = null;
      if (!this.isConnected) this.#destroy();
    }, 0);
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue) return;
    if (name === 'answer') {
      if (!this.#answerSet) this.#setAnswer(newValue);
    } else if (name === 'streaming') {
      this.#setStreaming(boolAttr(newValue, false));
    } else {
      this.#call((v) => v.setOptions(this.#allOptions()));
    }
  }

  #setAnswer(next) {
    if (next === this.#answer) return;
    const events = this.#isSse();
    if (!events) this.#note();
    this.#answer = next;
    this.#showFailure();
    // The streamed input (the answer, unless the text comes in an event stream) goes
    // whole with `streaming`: the module appends what grew or starts again.
    this.#send('update', events ? { answer: next } : { answer: next, streaming: this.#streaming });
  }

  #setData(next) {
    if (next === this.#data) return;
    const events = streamsEvents(this.#allOptions().format, next);
    if (events) this.#note();
    this.#data = next;
    this.#showFailure();
    this.#send('update', events ? { data: next, streaming: this.#streaming } : { data: next });
  }

  #setStreaming(on) {
    if (on === this.#streaming) return;
    this.#streaming = on;
    if (this.#message !== undefined) {
      // The module starts or ends the message's stream.
      this.#call((v) => v.update({ message: this.#message, streaming: on }));
      return;
    }
    if (!on) this.finish();
  }

  /**
   * Before a streaming call with no view while connected (the module loading): the
   * answer and data as they are, which the view is mounted with before the calls are
   * made on it.
   */
  #note() {
    if (this.#view === null && this.#pending === null && this.#awaiting) {
      this.#pending = { answer: this.#answer, data: this.#data, log: new CallLog() };
    }
  }

  /** Makes a call on the view, or keeps it for the view to come (see `#note`). */
  #send(name, arg) {
    if (this.#view !== null) {
      this.#call((v) => (name === 'finish' ? v.finish() : v[name](arg)));
    } else if (this.#pending !== null && (name !== 'update' || 'streaming' in arg)) {
      // The other calls need not wait: the view is mounted with what they set.
      this.#pending.log.record(name, arg);
    }
  }

  #isSse() {
    return streamsEvents(this.#allOptions().format, this.#data);
  }

  #allOptions() {
    const out = {};
    for (const [attr, key] of Object.entries(VALUE_ATTRS)) {
      const value = this.getAttribute(attr);
      if (value !== null && value.trim() !== '') out[key] = value.trim();
    }
    for (const [attr, [key, fallback]] of Object.entries(BOOL_ATTRS)) {
      out[key] = boolAttr(this.getAttribute(attr), fallback);
    }
    return { ...out, ...this.#options };
  }

  /** The data of a server-rendered page, from a child script, when none was set. */
  #readMarkup() {
    const script = this.querySelector(DATA_SCRIPT);
    if (!this.#dataSet && script !== null) this.#data = script.textContent;
    if (!this.#answerSet && this.#answer === null) this.#answer = this.getAttribute('answer');
    return script;
  }

  #mount() {
    // mount() empties the element; the data script goes back afterwards, so a
    // framework that hydrated it still finds its node where it left it.
    const script = this.#readMarkup();
    const options = this.#allOptions();
    if (this.#message !== undefined) {
      try {
        this.#view = mount(this, { ...options, message: this.#message, streaming: this.#streaming });
        this.#viewShowsMessage = true;
      } catch (err) {
        report(err);
      }
      if (script !== null && script.parentNode !== this) this.prepend(script);
      return;
    }
    this.#viewShowsMessage = false;
    const pending = this.#pending;
    this.#pending = null;
    this.#awaiting = false;
    try {
      if (pending !== null) {
        // Mounted as it was when the first streaming call came, then the calls made.
        const events = streamsEvents(options.format, this.#data);
        this.#view = mount(this, {
          ...options,
          answer: events ? this.#answer : pending.answer,
          data: events ? pending.data : this.#data,
        });
        pending.log.replay(this.#view);
      } else {
        // With `streaming`, mounted as a stream: a marker still arriving stays held back.
        this.#view = mount(this, { ...options, answer: this.#answer, data: this.#data, streaming: this.#streaming });
      }
    } catch (err) {
      report(err);
    }
    if (script !== null && script.parentNode !== this) this.prepend(script);
  }

  #destroy() {
    if (this.#view === null) return;
    const view = this.#view;
    this.#view = null;
    // Not freed: a page may still hold it (`el.view`), and a destroyed view answers
    // (`mounted` false, its calls do nothing); the handle goes with garbage collection.
    view.destroy();
  }

  /** When the module failed to load: the answer as plain text, markers taken out. */
  #showFailure() {
    if (this.#failure === null) return;
    this.#readMarkup();
    const text = this.#message !== undefined ? messageFallbackText(this.#message) : this.#isSse() ? null : this.#answer;
    showFallback(this, text, this.#failure);
  }

  /** Runs `f` on the view when there is one (errors are logged, not thrown). */
  #call(f) {
    if (this.#view === null) return;
    try {
      f(this.#view);
    } catch (err) {
      report(err);
    }
  }
}

if (typeof customElements !== 'undefined' && !customElements.get('cited-answer')) {
  customElements.define('cited-answer', CitedAnswerElement);
}
