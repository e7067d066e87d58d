// cited-answer/react: the <CitedAnswer> component and the useCitekit hook, over mount() and
// its View. React is a peer dependency: imported from the app's own copy, never bundled.
import { createElement, useEffect, useRef, useState } from 'react';
import { init, isReady, messageFallbackText, mount, reportOnce, showFallback, streamsEvents } from './core.js';

/** Display settings that setOptions changes only when present: their defaults. */
const DISPLAY_DEFAULTS = { panel: false, footnotes: true, copyButton: false };

/** `next` is `prev` with text added at its end (a first value, from null, is not growth). */
function grows(prev, next) {
  return typeof prev === 'string' && typeof next === 'string' && next.length > prev.length && next.startsWith(prev);
}

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

/** What streams: the answer, or the raw event stream (`data`: `sse`, an `ai-sdk` UI message stream). */
function streamedOf(input) {
  const sse = streamsEvents(input.options?.format, input.data);
  return { sse, streamed: sse ? input.data : input.answer };
}

/**
 * Mounts `input` into `element`: as a stream (mounted empty, the text appended, so a
 * half-typed marker is held back) when it is streaming, else as a whole answer. A
 * `message` (a Vercel AI SDK UIMessage) goes to the module as it is, with `streaming`:
 * it reads the text out of it and tells what grew.
 */
function mountInto(element, input, live) {
  const options = { ...DISPLAY_DEFAULTS, ...input.options };
  if (input.message !== undefined) {
    return mount(element, { ...options, message: input.message, streaming: live });
  }
  const { sse, streamed } = streamedOf(input);
  if (live && typeof streamed === 'string') {
    const view = mount(element, { ...options, answer: sse ? null : '', data: sse ? '' : input.data });
    if (streamed !== '') view.append(streamed);
    return view;
  }
  return mount(element, { ...options, answer: input.answer, data: input.data });
}

/**
 * Keeps a citekit view in the element of the returned `ref` in step with `input`:
 * waits for `init()`, appends only the new text when `answer` grows (a change that is
 * not growth re-renders), calls `finish()` when `streaming` turns false, updates on
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
    const current = { answer, data, message, options: keyOf(options), streaming, live: Boolean(streaming), ended: false };
    const s = { ...current, view: null, element };
    failed.current = null;
    try {
      s.view = mountInto(element, { answer, data, message, options }, s.live);
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
    s.live = Boolean(input.streaming);
    s.ended = false;
    s.view = mountInto(element, input, s.live);
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
  const { sse, streamed } = streamedOf(input);
  if (input.streaming && !s.streaming) s.ended = false;
  const before = sse ? s.data : s.answer;
  if (streamed !== before) {
    if (grows(before, streamed) && (!s.ended || input.streaming)) {
      s.live = true;
      s.view.append(streamed.slice(before.length));
    } else if (s.live || input.streaming) {
      // Not growth in the middle of a stream (a regenerated answer): start again.
      s.view.destroy();
      s.live = Boolean(input.streaming);
      s.ended = false;
      s.view = mountInto(element, input, s.live);
    } else {
      s.view.update(sse ? { data: streamed } : { answer: input.answer });
    }
    if (sse) s.data = streamed;
    else s.answer = input.answer;
  }
  if (!sse && !sameData(input.data, s.data)) {
    s.view.update({ data: input.data });
  }
  s.data = input.data;
  if (s.streaming && !input.streaming) {
    s.view.finish();
    s.live = false;
    s.ended = true;
  }
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
