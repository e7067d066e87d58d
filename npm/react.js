// cited-answer/react: the <CitedAnswer> component and the useCitekit hook, over mount() and
// its View. React is a peer dependency: imported from the app's own copy, never bundled.
import { createElement, useEffect, useRef, useState } from 'react';
import { init, isReady, messageFallbackText, mount, reportOnce, showFallback, streamsEvents } from './core.js';

/** Display settings that setOptions changes only when present: their defaults. */
const DISPLAY_DEFAULTS = { panel: false, footnotes: true, copyButton: false };

/** A key that changes when an options object's content does (objects made per render). */
function keyOf(value) {
  if (value === null || typeof value !== 'object') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return value;
  }
}

/** Same data: the same object, the same text, or objects with the same JSON. */
function sameData(a, b) {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return keyOf(a) === keyOf(b);
}

/**
 * Mounts `input` into `element`, with `streaming`: the module mounts a streaming answer
 * as a stream (a half-typed marker held back), and reads a `message` (a Vercel AI SDK
 * UIMessage) itself.
 */
function mountInto(element, input, streaming) {
  const options = { ...DISPLAY_DEFAULTS, ...input.options };
  if (input.message !== undefined) {
    return mount(element, { ...options, message: input.message, streaming });
  }
  return mount(element, { ...options, answer: input.answer, data: input.data, streaming });
}

/**
 * Keeps a citekit view in the element of the returned `ref` in step with `input`:
 * waits for `init()`, gives a new `answer` (or a new event stream in `data`) to the
 * view whole with `streaming`, and the module appends what grew or starts again
 * (`core::live::change`); calls `finish()` when `streaming` turns false, updates on
 * data and option changes, destroys the view on unmount. StrictMode's double effects
 * and moves of the element keep working.
 *
 * With `message` (a Vercel AI SDK `UIMessage`, as `useChat` hands it on every render)
 * instead of `answer` and `data`, each new message object is forwarded with
 * `streaming` to `view.update({message, streaming})`: the module appends what of its
 * text grew and reads new sources, without rebuilding what is shown.
 *
 * Returns `{ref, error, getView}`: put `ref` on an empty element React renders no
 * children into; `error` is set when the module could not load (the answer is then
 * shown as plain text); `getView()` is the current View, or null.
 */
export function useCitekit(input = {}) {
  const { answer = null, data = null, message, options, streaming, onCitationClick, onSourceSelect } = input;
  const ref = useRef(null);
  const state = useRef(null);
  const handlers = useRef(null);
  handlers.current = { onCitationClick, onSourceSelect };
  const [ready, setReady] = useState(isReady);
  const [error, setError] = useState(null);
  // Bumped to mount again: into a new element (the one `ref` is on was replaced), or
  // after a mount that threw (a bad option) once the options change.
  const [remount, setRemount] = useState(0);
  const failed = useRef(null);

  useEffect(() => {
    if (ready) return undefined;
    let active = true;
    init().then(
      () => active && setReady(true),
      (err) => {
        if (!active) return;
        reportOnce(err);
        setError(err);
      },
    );
    return () => {
      active = false;
    };
  }, [ready]);

  // One view per mounted element: created when the module is ready, destroyed on
  // unmount (StrictMode runs this twice: the first view is destroyed, a second made).
  useEffect(() => {
    const element = ref.current;
    if (!ready || element === null) return undefined;
    const current = { answer, data, message, options: keyOf(options), streaming };
    const s = { ...current, view: null, element };
    failed.current = null;
    try {
      s.view = mountInto(element, { answer, data, message, options }, Boolean(streaming));
    } catch (err) {
      reportOnce(err);
      failed.current = current.options;
      return undefined;
    }
    element.removeAttribute('aria-busy');
    const onClick = (e) => handlers.current.onCitationClick?.(e.detail, e);
    const onSelect = (e) => handlers.current.onSourceSelect?.(e.detail, e);
    element.addEventListener('citation-click', onClick);
    element.addEventListener('source-select', onSelect);
    state.current = s;
    return () => {
      element.removeEventListener('citation-click', onClick);
      element.removeEventListener('source-select', onSelect);
      if (state.current === s) state.current = null;
      // Destroyed, not freed: a page may hold it (getView()); it answers `mounted`
      // false and its calls do nothing, and goes with garbage collection.
      s.view.destroy();
    };
    // Only readiness (and a remount) mounts; later changes of the inputs go through
    // the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready, remount]);

  // Every render: send what changed to the view.
  useEffect(() => {
    const s = state.current;
    const element = ref.current;
    if (ready && (s !== null ? s.element !== element : element !== null && failed.current !== keyOf(options))) {
      setRemount((n) => n + 1);
      return;
    }
    if (s === null) return;
    try {
      sync(ref.current, s, { answer, data, message, options, streaming });
    } catch (err) {
      reportOnce(err);
    }
  });

  // While the module loads: the answer as plain text (markers taken out), busy; the
  // mount replaces it.
  const plain = message !== undefined ? messageFallbackText(message) : streamsEvents(options?.format, data) ? null : answer;
  useEffect(() => {
    const element = ref.current;
    if (ready || error !== null || element === null) return;
    if (typeof plain !== 'string' || plain === '') return;
    showFallback(element, plain, '');
    element.setAttribute('aria-busy', 'true');
  }, [ready, error, plain]);

  // The module failed to load: the answer as plain text.
  useEffect(() => {
    if (error !== null && ref.current !== null) {
      showFallback(ref.current, plain, error);
      ref.current.removeAttribute('aria-busy');
    }
  }, [error, plain]);

  return { ref, error, getView: () => state.current?.view ?? null };
}

/** Brings the view of `s` from its last inputs to `input`. */
function sync(element, s, input) {
  if ((input.message !== undefined) !== (s.message !== undefined)) {
    // From an answer to a message or back: mounted anew.
    s.view.destroy();
    Object.assign(s, { answer: input.answer, data: input.data, message: input.message, streaming: input.streaming });
    s.options = keyOf(input.options);
    s.view = mountInto(element, input, Boolean(input.streaming));
    return;
  }
  const optionsKey = keyOf(input.options);
  if (optionsKey !== s.options) {
    s.options = optionsKey;
    s.view.setOptions({ ...DISPLAY_DEFAULTS, ...input.options });
  }
  if (input.message !== undefined) {
    // The module tells what of the message grew (more text, new sources) or that it
    // is another message; this only forwards a new object or a change of `streaming`.
    if (input.message !== s.message || Boolean(input.streaming) !== Boolean(s.streaming)) {
      s.view.update({ message: input.message, streaming: Boolean(input.streaming) });
    }
    s.message = input.message;
    s.streaming = input.streaming;
    return;
  }
  // What changed goes whole, with `streaming`: of the answer (or of an event stream in
  // `data`) the module appends what grew, or starts again from another text; other
  // data is late data.
  const props = {};
  if (input.answer !== s.answer) props.answer = input.answer;
  if (!sameData(input.data, s.data)) props.data = input.data;
  if ('answer' in props || 'data' in props) s.view.update({ ...props, streaming: Boolean(input.streaming) });
  s.answer = input.answer;
  s.data = input.data;
  if (s.streaming && !input.streaming) s.view.finish();
  s.streaming = input.streaming;
}

/**
 * `<CitedAnswer answer data options streaming onCitationClick onSourceSelect />`, or
 * `<CitedAnswer message={message} streaming={status === 'streaming'} />` with a Vercel
 * AI SDK `UIMessage`: an answer with its citation markers, hover cards and footnotes,
 * in a `<div>` (its `className`, `style` and `id` go on it). See useCitekit for the
 * behaviour.
 */
export function CitedAnswer({ className, style, id, ...input }) {
  const { ref } = useCitekit(input);
  return createElement('div', { ref, className, style, id });
}
