// <cited-answer>: the custom element of the citekit npm package. Registered when this
// module is imported (unless the name is taken). Light DOM: see README.md, "Why light
// DOM".
import { init, mount } from './core.js';

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
 * `panel`) the source panel. Inputs: the `answer`, `data` and `options` properties, and
 * the attributes `format`, `numbering`, `theme`, `show-citations`, `marker-style`,
 * `uncited`, `unresolved`, `position-encoding`, `panel`, `footnotes`, `copy-button`
 * (the `options` property wins over an attribute). Streaming: `append(text)`,
 * `finish()`. Events `citation-click` and `source-select` bubble out of it.
 */
export class CitedAnswerElement extends Base {
  static get observedAttributes() {
    return [...Object.keys(VALUE_ATTRS), ...Object.keys(BOOL_ATTRS)];
  }

  #answer = null;
  #data = null;
  #options = {};
  #view = null;
  #finished = false;
  /** Bumped on every connect/disconnect, so a stale init() resolution does nothing. */
  #generation = 0;

  constructor() {
    super();
    // Properties set before the element was upgraded (before this module loaded) are
    // own properties of the instance that hide the accessors: move them through.
    for (const key of ['answer', 'data', 'options']) {
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
    this.#answer = value ?? null;
    this.#finished = false;
    this.#call((v) => v.update({ answer: this.#answer }));
  }

  /** The citation data: an object, JSON text or an event stream (format `sse`). */
  get data() {
    return this.#data;
  }
  set data(value) {
    this.#data = value ?? null;
    this.#call((v) => v.update({ data: this.#data }));
  }

  /** Options (and `panel`, `footnotes`, `copyButton`, `injectCss`); win over attributes. */
  get options() {
    return this.#options;
  }
  set options(value) {
    this.#options = value && typeof value === 'object' ? { ...value } : {};
    this.#call((v) => v.setOptions(this.#allOptions()));
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
    if (this.#isSse()) {
      this.#data = (typeof this.#data === 'string' ? this.#data : '') + text;
    } else {
      this.#answer = (this.#answer ?? '') + text;
    }
    this.#call((v) => v.append(text));
  }

  /** Ends the stream. */
  finish() {
    this.#finished = true;
    this.#call((v) => v.finish());
  }

  connectedCallback() {
    addElementCss();
    const generation = ++this.#generation;
    init().then(
      () => {
        if (generation === this.#generation && this.isConnected && this.#view === null) {
          this.#mount();
        }
      },
      report,
    );
  }

  disconnectedCallback() {
    this.#generation++;
    if (this.#view !== null) {
      const view = this.#view;
      this.#view = null;
      view.destroy();
      view.free();
    }
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue) return;
    this.#call((v) => v.setOptions(this.#allOptions()));
  }

  #isSse() {
    return this.#allOptions().format === 'sse';
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

  #mount() {
    try {
      this.#view = mount(this, { ...this.#allOptions(), answer: this.#answer, data: this.#data });
      if (this.#finished) this.#view.finish();
    } catch (err) {
      report(err);
    }
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
