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
      await initWasm(source === undefined ? undefined : { module_or_path: source });
      loaded = true;
    })();
    ready.catch(() => {
      // A failed load may be retried with another input.
      ready = null;
    });
  }
  return ready;
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

/** Parses an answer and its citation data into the normalized model (SPEC section 9). */
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
