// Types of cited-answer/react. React (18.3 or 19) is a peer dependency.
/// <reference path="./jsx.d.ts" />
import type { CSSProperties, ReactElement, RefObject } from 'react';
import type {
  AiSdkMessageInput,
  CitationClickDetail,
  CitationData,
  DisplayOptions,
  Options,
  SourceSelectDetail,
  View,
} from './index.js';

export type { CitedAnswerJsxProps } from './jsx.js';

/** The inputs of `useCitekit` and `<CitedAnswer>`. */
export interface CitekitInput {
  /** The answer; when it grows from the previous value only the new text is appended. */
  answer?: string | null;
  /** The citation data (sources may come late: an update keeps the answer so far). */
  data?: CitationData | null;
  /**
   * A Vercel AI SDK `UIMessage` (`useChat`'s `message`), in place of `answer` and
   * `data`: on every render only what grew (text, sources) is sent to the view.
   */
  message?: AiSdkMessageInput | null;
  /** Options and display settings (`panel`, `footnotes`, `copyButton`). */
  options?: Options & DisplayOptions;
  /** True while the answer (or `message`) arrives; turning it false calls `finish()`. */
  streaming?: boolean;
  /** A marker was clicked. */
  onCitationClick?: (detail: CitationClickDetail, event: CustomEvent<CitationClickDetail>) => void;
  /** A source was selected (in the panel, or by a marker click). */
  onSourceSelect?: (detail: SourceSelectDetail, event: CustomEvent<SourceSelectDetail>) => void;
}

export interface CitekitHandle<T extends HTMLElement = HTMLElement> {
  /** Put it on an element React renders no children into. */
  ref: RefObject<T | null>;
  /** Set when the WebAssembly module could not load (the answer is shown as plain text). */
  error: Error | null;
  /** The mounted View, or null (before init, after unmount). */
  getView(): View | null;
}

/** Keeps a citekit view in the element of `ref` in step with `input`. */
export function useCitekit<T extends HTMLElement = HTMLDivElement>(input?: CitekitInput): CitekitHandle<T>;

export interface CitedAnswerProps extends CitekitInput {
  className?: string;
  style?: CSSProperties;
  id?: string;
}

/** An answer with its citation markers, hover cards and footnotes, in a `<div>`. */
export function CitedAnswer(props: CitedAnswerProps): ReactElement;
