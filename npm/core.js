// citekit's functions: a thin wrapper over the wasm-bindgen glue: `init` that also
// works under Node, functions that say clearly when they are called before `init`, and
// the choice of module. index.js re-exports them with the <cited-answer> element.
//
// Two modules: citekit_wasm.js (every common format: citekit's own, the four
// providers' objects; what a page loads) and citekit_full.js (everything: with it
// posthoc claims, scintilla tool metadata, payload citation blocks, the RAG platforms'
// answers (Azure, Mistral, xAI, LlamaIndex, LangChain), canonical HTML, JSON and YAML
// answers, and the tables a page without a document needs). The second is loaded on first use of such data, by
// `loadFormats()`, or by `init(input, { formats: 'all' })` instead of the first. Once
// it is loaded every new call goes to it; a view mounted in the first module with such
// data is mounted again in the second when it arrives.
import initFirst, * as first from './citekit_wasm.js';

const WASM_FILE = 'citekit_wasm_bg.wasm';
const FULL_FILE = 'citekit_full_bg.wasm';

let ready = null;
let loaded = false;
/** The module new calls go to: the first, or the full one once loaded. */
let api = first;
let full = null;
let fullReady = null;
let fullInput;

function isNode() {
  return typeof process !== 'undefined' && process.versions != null && process.versions.node != null;
}

/** Reads a wasm file next to this one from disk (Node). */
async function readFile(name) {
  // A computed specifier: bundlers leave this Node-only import alone.
  const fsName = 'node:fs/promises';
  const fs = await import(/* @vite-ignore */ /* webpackIgnore: true */ fsName);
  return fs.readFile(new URL(name, import.meta.url));
}

/**
 * Loads the WebAssembly module. Call it once (later calls return the same promise)
 * before the other functions. `input` is optional: a URL, a Response, bytes or a
 * WebAssembly.Module of citekit_wasm_bg.wasm. In a browser the default fetches the
 * .wasm next to this file; under Node the default reads it from disk.
 *
 * `options.formats`: `'first-use'` (the default in browsers) loads the module with
 * every common format, and the full one when posthoc, scintilla or payload data or a
 * canonical HTML, JSON or YAML answer first comes; `'all'` (the default under Node) loads only the full
 * one. `options.formatsInput`: where citekit_full_bg.wasm is, when not next to this
 * file.
 */
export function init(input, options) {
  if (ready === null) {
    if (options?.formatsInput !== undefined) fullInput = options.formatsInput;
    const formats = options?.formats ?? (isNode() ? 'all' : 'first-use');
    if (formats !== 'all' && formats !== 'first-use') {
      return Promise.reject(
        new Error(`citekit: init: unknown \`formats\` ${JSON.stringify(formats)}, expected 'all' or 'first-use'`),
      );
    }
    ready = (async () => {
      if (formats === 'all') {
        await loadFormats(input === undefined ? fullInput : input);
      } else {
        let source = input;
        if (source === undefined && isNode()) source = await readFile(WASM_FILE);
        try {
          await initFirst(source === undefined ? undefined : { module_or_path: source });
        } catch (err) {
          throw loadError(err, WASM_FILE);
        }
      }
      loaded = true;
    })();
    ready.catch(() => {
      // A failed load may be retried with another input.
      ready = null;
    });
  }
  return ready;
}

/**
 * Loads the full module (posthoc claims, scintilla and payload data, canonical HTML,
 * JSON and YAML answers) if it
 * is not loaded yet; `input` as for `init`, for citekit_full_bg.wasm. `mount` and
 * <cited-answer> call it by themselves on first use of such data; call it before
 * `parse` or `renderToString` with such data.
 */
export function loadFormats(input) {
  if (fullReady === null) {
    fullReady = (async () => {
      const glue = await import('./citekit_full.js');
      let source = input === undefined ? fullInput : input;
      if (source === undefined && isNode()) source = await readFile(FULL_FILE);
      try {
        await glue.default(source === undefined ? undefined : { module_or_path: source });
      } catch (err) {
        throw loadError(err, FULL_FILE);
      }
      full = glue;
      api = glue;
    })();
    fullReady.catch(() => {
      fullReady = null;
    });
  }
  return fullReady;
}

/**
 * The error of a failed load, with its likely cause: most often the server sent
 * something else (an HTML page) for the .wasm URL, as Vite's dev server does when it
 * pre-bundles the package into its dependency cache, away from its .wasm file.
 */
function loadError(err, file) {
  const message = String(err?.message ?? err);
  const notWasm = /magic word|MIME type|CompileError|404|Failed to fetch/i.test(message + (err?.name ?? ''));
  const cause = notWasm
    ? `the server did not send ${file} for its URL (an HTML page or an error came instead)`
    : `${file} could not be loaded`;
  return new Error(
    `citekit: the WebAssembly module did not load (${message}). Likely cause: ${cause}. ` +
      "With Vite, add `optimizeDeps: { exclude: ['cited-answer'] }` to vite.config.js; elsewhere, " +
      `serve ${file} next to ${file.replace('_bg.wasm', '.js')} or pass its URL to ` +
      `${file === WASM_FILE ? 'init()' : 'loadFormats() (or init\'s `formatsInput`)'}. ` +
      'Answers are shown as plain text until it loads.',
    { cause: err },
  );
}

/** Whether `init()` has finished. */
export function isReady() {
  return loaded;
}

function need(name) {
  if (!loaded) {
    throw new Error(`citekit: call \`await init()\` before \`${name}()\``);
  }
}

/**
 * A `format-not-loaded` error of the first module, saying what to do; the full module
 * starts loading (a later call finds it).
 */
function withAdvice(err, name) {
  if (err?.code !== 'format-not-loaded') return err;
  loadFormats().catch(reportOnce);
  // "posthoc data needs ...", "canonical html answers need ...": the subject and its verb.
  const [, subject = 'this data', verb = 'needs'] = /^(?:citekit: )?(.+?) (needs?) /.exec(String(err.message)) ?? [];
  const e = new Error(
    `citekit: ${subject} ${verb} citekit's full module (which reads posthoc claims, ` +
      'scintilla and payload data, and HTML, JSON and YAML answers), not loaded yet: ' +
      `call \`await loadFormats()\` before \`${name}()\` with such data ` +
      "(or `await init(input, { formats: 'all' })`); mount() and <cited-answer> load it by themselves",
  );
  e.code = err.code;
  return e;
}

/** Parses an answer and its citation data into the normalized model (see README.md, "parse"). */
export function parse(answer, data, options) {
  need('parse');
  try {
    return api.parse(answer, data, options);
  } catch (err) {
    throw withAdvice(err, 'parse');
  }
}

/** Renders an answer to static HTML (no DOM needed: works under Node). */
export function renderToString(answer, data, options) {
  need('renderToString');
  try {
    return api.renderToString(answer, data, options);
  } catch (err) {
    throw withAdvice(err, 'renderToString');
  }
}

/** The view mounted in each element (one per element, whichever module holds it). */
const mounted = new WeakMap();

/** Mounts an interactive answer into `element`; returns its View. */
export function mount(element, props) {
  need('mount');
  return new View(element, props);
}

/**
 * A mounted answer: the module's view, and while it is in the first module, what was
 * done to it (to do again in the second if its data turns out to need it).
 */
export class View {
  constructor(element, props) {
    const previous = element !== null && typeof element === 'object' ? mounted.get(element) : undefined;
    if (previous && previous.module !== api) previous.destroy();
    this.module = api;
    this.inner = api.mount(element, props);
    this.element = element;
    this.listeners = [];
    // Only the first module's views keep a log: props at mount, then each call.
    this.log = this.module === first ? { props: { ...props }, calls: new CallLog() } : null;
    mounted.set(element, this);
    this.check();
  }

  /** In the first module with data it leaves out: mount again in the second once loaded. */
  check() {
    if (this.log === null || this.waiting || !this.inner.needsFormats) return;
    this.waiting = true;
    // Meanwhile the answer's text shows, without its citations.
    this.element.setAttribute('aria-busy', 'true');
    loadFormats().then(
      () => this.move(),
      (err) => {
        this.waiting = false;
        this.element.removeAttribute('aria-busy');
        reportOnce(err);
      },
    );
  }

  move() {
    const log = this.log;
    this.element.removeAttribute('aria-busy');
    if (log === null || !this.inner.mounted) return;
    this.inner.destroy();
    this.inner.free();
    const inner = full.mount(this.element, log.props);
    log.calls.replay(inner);
    for (const l of this.listeners) l.off = inner.on(l.name, l.callback);
    this.inner = inner;
    this.module = full;
    this.log = null;
    // The handle was freed while the answer waited: it stays mounted, unreachable.
    if (this.freed) inner.free();
  }

  record(name, arg) {
    if (this.log !== null) this.log.calls.record(name, arg);
  }

  /**
   * Replaces the inputs present (answer, data, single options, display settings);
   * `answer` with `streaming` is the answer so far, given whole again as it grows (the
   * module appends what grew, or starts again from another answer).
   */
  update(props) {
    this.inner.update(props);
    this.record('update', { ...props });
    this.check();
  }

  /** Replaces every option (absent ones go back to their defaults). */
  setOptions(options) {
    this.inner.setOptions(options);
    this.record('setOptions', { ...options });
    this.check();
  }

  /**
   * Adds streamed text (to the answer, or to the raw event stream for format `sse`,
   * `ai-sdk`, and `openai` / `perplexity` mounted with `data: ''`).
   */
  append(text) {
    this.inner.append(text);
    if (typeof text === 'string') this.record('append', text);
    // A stream given as `sse` may turn out to be a platform's (its first events tell).
    this.check();
  }

  /** Ends the stream. */
  finish() {
    this.inner.finish();
    this.record('finish');
    this.check();
  }

  /** Listens to an event on the mounted element; returns the unsubscribe function. */
  on(name, callback) {
    const l = { name, callback, off: this.inner.on(name, callback) };
    this.listeners.push(l);
    return () => {
      l.off();
      this.listeners = this.listeners.filter((x) => x !== l);
    };
  }

  /** Unmounts and empties the element. Idempotent. */
  destroy() {
    this.inner.destroy();
    this.log = null;
    this.listeners = [];
    if (mounted.get(this.element) === this) mounted.delete(this.element);
  }

  /** Whether it is still mounted. */
  get mounted() {
    return this.inner.mounted;
  }

  /** Frees the JS handle (does not unmount; call `destroy` for that). */
  free() {
    if (this.waiting && this.log !== null && this.inner.mounted) {
      // Still to be mounted again in the second module: freed after that.
      this.freed = true;
      return;
    }
    this.log = null;
    this.inner.free();
  }
}

/**
 * Calls made to a view, to be made again on another: a view moved to the full module,
 * or an element's calls made before the module loaded. Runs of appended text are
 * joined. Of a run of values given whole, only what the module reads is kept: of
 * messages the last; of answers (or event streams) given with `streaming` the last two,
 * since the module's rule (`core::live::change`) makes the view show the last, as a
 * stream when it grew from the one before, whatever came earlier in the run.
 */
export class CallLog {
  constructor() {
    this.calls = [];
  }

  record(name, arg) {
    const calls = this.calls;
    const last = calls[calls.length - 1];
    if (name === 'append') {
      if (last?.[0] === 'append') last[1].push(arg);
      else calls.push(['append', [arg]]);
      return;
    }
    const run = runOf(name, arg);
    if (run && last && runOf(...last) === run) {
      if (run === 'message') {
        last[1] = arg;
        return;
      }
      // The same value again changes nothing.
      const input = 'answer' in arg ? 'answer' : 'data';
      if (last[1][input] === arg[input]) return;
      if (runOf(...(calls[calls.length - 2] ?? [])) === run) calls.splice(-2, 1);
    }
    calls.push([name, arg]);
  }

  /** Makes the calls on `view`. */
  replay(view) {
    for (const [name, arg] of this.calls) {
      if (name === 'append') view.append(arg.join(''));
      else if (name === 'finish') view.finish();
      else view[name](arg);
    }
  }
}

/**
 * The run an `update` belongs to: `message` (only a message, and whether it streams),
 * `answer:<streaming>` or `data:<streaming>` (only that input given whole, with
 * `streaming`); null for any other call.
 */
function runOf(name, props) {
  if (name !== 'update' || props == null) return null;
  const keys = Object.keys(props);
  if ('message' in props && keys.every((k) => k === 'message' || k === 'streaming')) return 'message';
  if (keys.length !== 2 || !('streaming' in props)) return null;
  const input = 'answer' in props ? 'answer' : 'data' in props ? 'data' : null;
  return input === null ? null : `${input}:${Boolean(props.streaming)}`;
}

/** The citekit version. */
export function version() {
  need('version');
  return api.version();
}

/**
 * The module's `streamsEvents`: for each format whose data can be a raw event stream,
 * whether it is one with no data, a value, JSON text and other text (bits 1, 2, 4, 8
 * of its number). scripts/build-pkg.sh writes it from the built full module (the
 * registry's rule), so that the first module does without the function and the answer
 * is there before the module has loaded; the package's tests hold the two together.
 */
const STREAMS = {};

/**
 * Whether `data` is a raw event stream that the answer's text arrives in, appended as it
 * grows (format `sse`, an `ai-sdk` UI message stream, a provider's or platform's own
 * stream), rather than the answer text: the module's rule, from the format registry,
 * through the table above. The element keeps text appended to it in `data` or in
 * `answer` by it, and shows no event stream as text.
 */
export function streamsEvents(format, data) {
  const kind =
    data === null || data === undefined ? 1 : typeof data !== 'string' ? 2 : /^\s*[[{]/.test(data) ? 4 : 8;
  return ((STREAMS[format] ?? 0) & kind) !== 0;
}

/**
 * The text of a Vercel AI SDK message for the plain-text fallback only (the module did
 * not load, so it cannot read the message): its text parts, one paragraph each. The
 * message's real reading (paragraph breaks between steps, sources, what grew while
 * streaming) is the module's `ai-sdk` format.
 */
export function messageFallbackText(message) {
  let m = message;
  if (Array.isArray(m) && m.length > 0 && typeof m[0]?.role === 'string') {
    m = m.filter((x) => x?.role === 'assistant').pop();
  }
  const parts = Array.isArray(m) ? m : m?.parts;
  if (!Array.isArray(parts)) return '';
  return parts
    .filter((p) => p?.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text)
    .join('\n\n');
}

const FALLBACK_CLASS = 'cite-fallback';

/**
 * Shows `answer` in `element` as plain text, in place of the rendered answer that could
 * not be made (yet); `error` is kept in `data-error` for a look in the dev tools. Other
 * children of `element` (a data script) stay. The text is shown as written, markers
 * included: reading markers is the module's (one grammar, src/core/markers.rs), and
 * there is no module here, or the answer would be rendered.
 */
export function showFallback(element, answer, error) {
  for (const child of [...element.children]) {
    if (child.classList.contains(FALLBACK_CLASS)) child.remove();
  }
  const root = document.createElement('div');
  root.className = `cite-root ${FALLBACK_CLASS}`;
  root.dataset.error = String(error?.message ?? error ?? '');
  const body = document.createElement('div');
  body.className = 'cite-answer__body';
  // The text keeps its line breaks (it is not rendered as markdown).
  body.style.whiteSpace = 'pre-wrap';
  body.textContent = typeof answer === 'string' ? answer : '';
  root.append(body);
  element.append(root);
}

const reported = new Set();

/** Logs an error once per message (many answers fail the same way). */
export function reportOnce(err) {
  const key = String(err?.message ?? err);
  if (reported.has(key)) return;
  reported.add(key);
  console.error(err);
}
