// citekit's functions: a thin wrapper over the wasm-bindgen glue (citekit_wasm.js):
// `init` that also works under Node, and functions that say clearly when they are
// called before `init`. index.js re-exports them with the <cited-answer> element.
import initWasm, * as wasm from './citekit_wasm.js';

const WASM_FILE = 'citekit_wasm_bg.wasm';

let ready = null;
let loaded = false;

function isNode() {
  return typeof process !== 'undefined' && process.versions != null && process.versions.node != null;
}

/**
 * Loads the WebAssembly module. Call it once (later calls return the same promise)
 * before the other functions. `input` is optional: a URL, a Response, bytes or a
 * WebAssembly.Module. In a browser the default fetches the .wasm next to this file;
 * under Node the default reads it from disk.
 */
export function init(input) {
  if (ready === null) {
    ready = (async () => {
      let source = input;
      if (source === undefined && isNode()) {
        // A computed specifier: bundlers leave this Node-only import alone.
        const fsName = 'node:fs/promises';
        const fs = await import(/* @vite-ignore */ /* webpackIgnore: true */ fsName);
        source = await fs.readFile(new URL(WASM_FILE, import.meta.url));
      }
      try {
        await initWasm(source === undefined ? undefined : { module_or_path: source });
      } catch (err) {
        throw loadError(err);
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
 * The error of a failed load, with its likely cause: most often the server sent
 * something else (an HTML page) for the .wasm URL, as Vite's dev server does when it
 * pre-bundles the package into its dependency cache, away from its .wasm file.
 */
function loadError(err) {
  const message = String(err?.message ?? err);
  const notWasm = /magic word|MIME type|CompileError|404|Failed to fetch/i.test(message + (err?.name ?? ''));
  const cause = notWasm
    ? `the server did not send ${WASM_FILE} for its URL (an HTML page or an error came instead)`
    : `${WASM_FILE} could not be loaded`;
  return new Error(
    `citekit: the WebAssembly module did not load (${message}). Likely cause: ${cause}. ` +
      "With Vite, add `optimizeDeps: { exclude: ['citekit'] }` to vite.config.js; elsewhere, " +
      `serve ${WASM_FILE} next to citekit_wasm.js or pass its URL to init(). ` +
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

/** Parses an answer and its citation data into the normalized model (see README.md, "parse"). */
export function parse(answer, data, options) {
  need('parse');
  return wasm.parse(answer, data, options);
}

/** Renders an answer to static HTML (no DOM needed: works under Node). */
export function renderToString(answer, data, options) {
  need('renderToString');
  return wasm.renderToString(answer, data, options);
}

/** Mounts an interactive answer into `element`; returns its View. */
export function mount(element, props) {
  need('mount');
  return wasm.mount(element, props);
}

/** The citekit version. */
export function version() {
  need('version');
  return wasm.version();
}

export const View = wasm.View;

// When the module cannot load, answers are still shown: as plain text with the common
// marker forms taken out (numeric, sid, USAGE, full-width, footnote references, HTML
// <sup class="cite">, the private-use forms), with the blanks before them.
const MARKER =
  /[ \t]*(?:\[\[(?:S:|USAGE:)?\s*\d+(?:\s*[-–,]\s*\d+)*\s*\]\]|\[\d+(?:\s*[-–,]\s*\d+)*(?:#[^\]\s]*)?\](?!\()|[【［]\d+(?:\s*[-–,]\s*\d+)*[】］]|\[\^[^\]\s]+\](?!:)|<sup\b[^>]*\bcite\b[^>]*>[^<]*<\/sup>|\ue200[^\ue201]*\ue201)/g;

/** A marker still being typed at the end of a streamed answer. */
const PARTIAL_MARKER = /[ \t]*(?:\[\[?(?:S:)?[\d,\s\-–]*|[【［]\d*)$/;

/** The answer as plain text: markers taken out (a fallback, no parsing). */
export function plainText(answer) {
  if (typeof answer !== 'string') return '';
  return answer.replace(MARKER, '').replace(PARTIAL_MARKER, '').replace(/[\ue203\ue204]/g, '');
}

const FALLBACK_CLASS = 'cite-fallback';

/**
 * Shows `answer` in `element` as plain text (markers taken out), in place of the
 * rendered answer that could not be made; `error` is kept in `data-error` for a look
 * in the dev tools. Other children of `element` (a data script) stay.
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
  body.textContent = plainText(answer);
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
