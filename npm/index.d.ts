// Types of the citekit npm package. The shapes are the README's (parse, Options); fields may be
// added in later versions, none of these renamed.

// ---------------------------------------------------------------------------------
// Loading

/** What `init` accepts: where or what the .wasm module is. */
export type InitInput =
  | string
  | URL
  | Request
  | Response
  | Promise<Response>
  | BufferSource
  | WebAssembly.Module;

/** Options of `init`. */
export interface InitOptions {
  /**
   * `'first-use'` (the default in browsers): load the module with every common format
   * (citekit's own, anthropic, openai, gemini, perplexity), and the full one when
   * posthoc data or a canonical HTML, JSON or YAML answer first comes (`mount` and
   * `<cited-answer>` do it by themselves; `parse` and `renderToString` throw
   * `format-not-loaded` for such data until `loadFormats()` has resolved). `'all'`
   * (the default under Node): load only the full module.
   */
  formats?: 'first-use' | 'all';
  /** Where citekit_full_bg.wasm (the full module) is, when not next to the package's JS. */
  formatsInput?: InitInput;
}

/**
 * Loads the WebAssembly module; call (and await) it once before anything else. Later
 * calls return the same promise. In a browser the default fetches the .wasm file next
 * to the package's JS; under Node it reads that file from disk. `input` is
 * citekit_wasm_bg.wasm, or citekit_full_bg.wasm with `formats: 'all'`.
 */
export function init(input?: InitInput, options?: InitOptions): Promise<void>;

/**
 * Loads the full module (citekit_full_bg.wasm) unless it is loaded; from then on every
 * call goes to it. Await it before `parse` or `renderToString` with posthoc data or a
 * canonical answer in HTML, JSON or YAML.
 */
export function loadFormats(input?: InitInput): Promise<void>;

/** Whether `init()` has finished. */
export function isReady(): boolean;

/** The citekit version. */
export function version(): string;

// ---------------------------------------------------------------------------------
// Options

/** The input formats (docs/formats.md in the citekit repository). */
export type FormatName =
  | 'stored'
  | 'posthoc'
  | 'citation_map'
  | 'sse'
  | 'scintilla'
  | 'canonical'
  | 'payload'
  | 'anthropic'
  | 'openai'
  | 'gemini'
  | 'perplexity'
  | 'ai-sdk'
  | 'cohere'
  | 'bedrock'
  | 'bedrock-kb'
  // The RAG platforms' formats (read by the full module, loaded on first use).
  | 'azure'
  | 'mistral'
  | 'xai'
  | 'llamaindex'
  | 'langchain'
  | 'markdown';

/** Unit of offsets: JS string indices (`utf16`), code points (`utf32`) or bytes. */
export type PositionEncoding = 'utf16' | 'utf32' | 'utf8';

/** Keys of the texts shown to users (replace them with `labels` for i18n). */
export type LabelKey =
  | 'sources'
  | 'references'
  | 'source'
  | 'sourceTitled'
  | 'sourcesList'
  | 'opensInNewTab'
  | 'open'
  | 'previous'
  | 'next'
  | 'pager'
  | 'citedTimes'
  | 'uncited'
  | 'backToCitation'
  | 'page'
  | 'score'
  | 'published'
  | 'modified'
  | 'details'
  | 'copy'
  | 'copied'
  | 'pending'
  | 'untitled'
  | 'forAnswer';

/** Parse and display options. Unknown keys are ignored; a bad value throws. */
export interface Options {
  /** Input format, or `auto` (detect from the data's shape). Default `auto`. */
  format?: FormatName | 'auto';
  /** Unit of `start`/`end` in `parse`'s result. Default `utf16`. */
  positionEncoding?: PositionEncoding;
  /** Unit of offsets in the input, overriding the format's own default. */
  inputEncoding?: PositionEncoding;
  /** Source numbers: by first citation (default) or as the input gave them. */
  numbering?: 'first-cited' | 'given';
  /** Markers naming no source: dropped (default) or kept as text. */
  unresolved?: 'drop' | 'keep';
  /** Show citations at all. Default true. */
  showCitations?: boolean;
  /** Uncited sources in the panel: dimmed (default), shown or hidden. */
  uncited?: 'dim' | 'show' | 'hide';
  /** Marker look: numbers (default), grouped ranges (`1–3`) or domain chips. */
  markerStyle?: 'number' | 'grouped' | 'domain';
  /** Colour theme. Default `auto`: follows the page's `color-scheme` (light unless the page declares dark; `light dark` follows the system). */
  theme?: 'auto' | 'light' | 'dark';
  /** Replaced label texts. `{n}`, `{i}`, `{total}`, `{title}` are filled in. */
  labels?: Partial<Record<LabelKey, string>>;
  /** Link identifiers (`MKT-1183`) in the answer to their urls. Default true. */
  linkIdentifiers?: boolean;
}

/** What `mount` (and `<cited-answer>`) shows besides the answer. */
export interface DisplayOptions {
  /** The source panel beside the answer. Default false. */
  panel?: boolean;
  /** Footnotes under the answer. Default true. */
  footnotes?: boolean;
  /** A button copying the answer with its citations as markdown. Default false. */
  copyButton?: boolean;
  /**
   * Add citekit's stylesheet to `document.head` (once). Default true. Set it to false
   * when a strict CSP forbids inline styles, and link `cited-answer/citekit.css` instead.
   */
  injectCss?: boolean;
}

/** Options of `renderToString`. */
export interface RenderOptions extends Options {
  /** Include the source panel. Default false. */
  panel?: boolean;
  /** Prefix of every id in the HTML (`[A-Za-z0-9_-]`). Default `cite`. */
  idPrefix?: string;
}

/** Props of `mount` and `View.update`. */
export interface MountProps extends Options, DisplayOptions {
  /** The answer text; null when the data holds it (sse, anthropic, gemini, ...). */
  answer?: string | null;
  /** The citation data stored with the answer. */
  data?: CitationData | null;
  /**
   * A Vercel AI SDK message (a `UIMessage`, its `parts`, or the `messages` array: the
   * last assistant message), in place of `answer` and `data`. With `streaming: true`
   * each new value is a later state of the same message: what of its text grew is
   * appended and new sources are read; text that is not an extension starts again.
   */
  message?: AiSdkMessageInput | null;
  /**
   * With `message`: true while the message is still arriving; false ends the stream.
   * With `answer` (or, for a raw event stream, `data`): the text is given whole again
   * as it grows, and the module decides what it is: text that grew from the previous
   * value is appended (a stream starts, even when false); another text starts the
   * stream again while true, or is shown whole. `mount` with `streaming: true` mounts
   * the answer as a stream. `finish()` ends it.
   */
  streaming?: boolean;
}

/** What `message` takes: a Vercel AI SDK message, its parts, or the messages array. */
export type AiSdkMessageInput = AiSdkMessage | AiSdkPart[] | AiSdkMessage[];

// ---------------------------------------------------------------------------------
// Input data (loosely: each format's shape; real payloads vary and extra fields are
// kept in `metadata`)

/** stored: sources plus references with UTF-16 spans over the plain answer. */
export interface StoredData {
  sources: StoredSource[];
  references?: StoredReference[];
  [key: string]: unknown;
}
export interface StoredSource {
  id: string;
  type?: string;
  toolName?: string;
  toolRequestId?: string;
  uri?: string;
  title?: string;
  domain?: string;
  snippet?: string;
  fullContent?: string;
  pageNumber?: number;
  [key: string]: unknown;
}
export interface StoredReference {
  index?: number;
  startIndex: number;
  endIndex: number;
  citedText?: string;
  sourceIds: string[];
  [key: string]: unknown;
}

/** posthoc: claims located in the answer, `sourceIndex` 1-based into `sources`. */
export interface PosthocData {
  sources: Array<Record<string, unknown>>;
  citations: Array<{
    claim: string;
    sourceIndex: number;
    confidence?: number | string;
    [key: string]: unknown;
  }>;
  [key: string]: unknown;
}

/** citation_map: `{"1": {...}}` for `[1]` markers (or a whole chat response holding it). */
export interface CitationMapEntry {
  text?: string;
  source?: string;
  title?: string;
  score?: number;
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}
export type CitationMapData =
  | { [marker: string]: CitationMapEntry }
  | { answer?: string; citation_map: { [marker: string]: CitationMapEntry }; [key: string]: unknown };

/**
 * sse: the raw event stream text (`data: {...}` lines), cut anywhere when streaming.
 * Also a provider's own stream (OpenAI Responses or Chat Completions, Perplexity) as
 * the `openai` / `perplexity` formats' data: mount with `data: ''` and append it raw.
 */
export type SseStream = string;

/** scintilla: the numbered array of tool metadata. */
export interface ScintillaSource {
  urls?: string[];
  titles?: string[];
  identifiers?: Record<string, string> | string[];
  source_type?: string;
  snippet?: string;
  [key: string]: unknown;
}
export type ScintillaData = ScintillaSource[];

/** canonical: `sid` sources (the `sources_list`), or the whole envelope. */
export interface CanonicalSource {
  sid: number | string;
  title?: string;
  url?: string;
  text?: string;
  content?: string;
  objective_relevance?: number;
  query_relevance?: unknown;
  reasoning?: string;
  published_time_iso?: string;
  modified_time_iso?: string;
  [key: string]: unknown;
}
export interface CanonicalEnvelope {
  ok?: boolean;
  content: string | Record<string, unknown>;
  format?: string;
  sources_used?: unknown;
  sources_list?: CanonicalSource[];
  [key: string]: unknown;
}
export type CanonicalData = CanonicalSource[] | CanonicalEnvelope;

/** payload: text plus sources with provider locations. */
export interface PayloadData {
  text?: string;
  sources: Array<{
    title?: string;
    url?: string;
    citedText?: string;
    provider?: string;
    location?: Record<string, unknown>;
    [key: string]: unknown;
  }>;
  [key: string]: unknown;
}

/** anthropic: a Messages API message (or its `content` array). */
export interface AnthropicTextBlock {
  type: 'text';
  text: string;
  citations?: Array<{ type: string; cited_text?: string; [key: string]: unknown }> | null;
  [key: string]: unknown;
}
export type AnthropicData =
  | { content: Array<AnthropicTextBlock | Record<string, unknown>>; [key: string]: unknown }
  | Array<AnthropicTextBlock | Record<string, unknown>>;

/** openai: the Responses API output, or one `output_text` item, or message metadata. */
export interface OpenAIOutputText {
  type: 'output_text';
  text: string;
  annotations?: Array<{
    type: 'url_citation' | 'file_citation' | 'container_file_citation' | string;
    start_index?: number;
    end_index?: number;
    url?: string;
    title?: string;
    [key: string]: unknown;
  }>;
  [key: string]: unknown;
}
export type OpenAIData =
  | { output: Array<Record<string, unknown>>; [key: string]: unknown }
  | OpenAIOutputText
  | Record<string, unknown>;

/** gemini: a response (or one candidate) with `groundingMetadata` (UTF-8 offsets). */
export interface GeminiCandidate {
  content?: { parts?: Array<{ text?: string; [key: string]: unknown }>; [key: string]: unknown };
  groundingMetadata?: {
    groundingChunks?: Array<{ web?: { uri?: string; title?: string }; [key: string]: unknown }>;
    groundingSupports?: Array<{
      segment?: { partIndex?: number; startIndex?: number; endIndex?: number; text?: string };
      groundingChunkIndices?: number[];
      [key: string]: unknown;
    }>;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}
export type GeminiData = { candidates: GeminiCandidate[]; [key: string]: unknown } | GeminiCandidate;

/** perplexity: a chat completion with `citations` (urls) and `search_results`. */
export interface PerplexityData {
  choices: Array<{ message: { content: string; [key: string]: unknown }; [key: string]: unknown }>;
  citations?: string[];
  search_results?: Array<{
    title?: string;
    url?: string;
    date?: string;
    last_updated?: string;
    snippet?: string;
    [key: string]: unknown;
  }>;
  [key: string]: unknown;
}

/**
 * ai-sdk: one part of a Vercel AI SDK `UIMessage` (`text`, `source-url`,
 * `source-document`, `step-start`, `reasoning`, `tool-*`, `data-*`, ...).
 */
export interface AiSdkPart {
  type: string;
  text?: string;
  state?: string;
  sourceId?: string;
  url?: string;
  title?: string;
  providerMetadata?: Record<string, unknown>;
  [key: string]: unknown;
}
/**
 * ai-sdk: a `UIMessage` as `useChat` holds it. No index signature: `ai`'s `UIMessage`
 * is an interface, which TypeScript does not let fit one.
 */
export interface AiSdkMessage {
  id: string;
  role: 'system' | 'user' | 'assistant';
  metadata?: unknown;
  parts: AiSdkPart[];
}
/**
 * ai-sdk: a `UIMessage`, its `parts`, the messages (the last assistant one is the
 * answer), or its UI message stream as text.
 */
export type AiSdkData = AiSdkMessage | AiSdkPart[] | AiSdkMessage[];

/** Citation data in any format (objects are copied with `JSON.stringify`). */
export type CitationData =
  | string
  | StoredData
  | PosthocData
  | CitationMapData
  | ScintillaData
  | CanonicalData
  | PayloadData
  | AnthropicData
  | OpenAIData
  | GeminiData
  | PerplexityData
  | AiSdkData
  | Record<string, unknown>
  | unknown[];

// ---------------------------------------------------------------------------------
// The result of `parse` (README.md, "parse")

export interface Source {
  /** Stable key, unique within one answer. */
  id: string;
  /** Display number (marker, card, panel, footnotes). */
  number: number;
  /** `web`, `file`, `api`, `mcp`, `jira`, `github`, `document`, ... */
  kind: string;
  title?: string;
  /** Sanitized (`http:`/`https:` only). */
  url?: string;
  domain?: string;
  /** At most 200 characters. */
  snippet?: string;
  content?: string;
  page?: number;
  score?: number;
  objectiveRelevance?: number;
  queryRelevance?: unknown;
  reasoning?: string;
  published?: string;
  modified?: string;
  provider?: string;
  identifiers?: Record<string, string>;
  cited: boolean;
  citeCount: number;
  /**
   * `'answer'` on an uncited source the input gave for the answer as a whole (an AI SDK
   * `source-url` or `source-document` part that no marker or position cites): the
   * footnotes list it after the cited sources, without back-links. Absent otherwise.
   */
  scope?: 'answer';
  used?: boolean;
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}

export type Location =
  | { type: 'char_location'; start: number; end: number; document_index?: number }
  | { type: 'page_location'; start: number; end: number; document_index?: number }
  | { type: 'content_block_location'; start: number; end: number; document_index?: number }
  | { type: 'url_citation'; start?: number; end?: number }
  | { type: 'grounding'; chunk_index: number }
  | { type: 'json_pointer'; path: string };

export interface Citation {
  /** Start of the supported span in `text` (in `positionEncoding` units). */
  start: number;
  /** End of the span; the marker stands here. */
  end: number;
  /** Ids of the supporting sources. */
  sources: string[];
  origin: 'marker' | 'span';
  citedText?: string;
  confidence?: unknown;
  location?: Location;
  /** While streaming: keys whose sources have not arrived yet. */
  pending?: string[];
  [key: string]: unknown;
}

export interface Diagnostic {
  /** Stable kebab-case code, e.g. `unresolved-marker`, `invalid-utf16`. */
  code: string;
  message: string;
  severity: 'info' | 'warning' | 'error';
  start?: number;
  end?: number;
  /** Where in the data (a JSON path like `sources[2].url`). */
  path?: string;
}

export interface TextLink {
  start: number;
  end: number;
  url: string;
}

export interface ParsedAnswer {
  /** The answer with the markers taken out. */
  text: string;
  format: FormatName;
  contentKind: 'markdown' | 'plain' | 'html' | 'json' | 'yaml';
  sources: Source[];
  citations: Citation[];
  links?: TextLink[];
  diagnostics: Diagnostic[];
  showCitations: boolean;
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The error `parse` throws when the data is not the format at all. */
export interface CitekitError extends Error {
  code?: 'not-format' | 'invalid-json' | 'limit-exceeded' | 'undetected-format' | 'format-not-loaded';
}

/**
 * Parses an answer and its citation data into the normalized model. Throws (a
 * `CitekitError`) only when the data is not the claimed or detected format at all, or
 * for arguments of the wrong type and bad option values.
 */
export function parse(
  answer: string | null | undefined,
  data?: CitationData | null,
  options?: Options,
): ParsedAnswer;

/**
 * Static HTML: the answer with markers, the footnotes, and the panel when
 * `options.panel` is true. Needs no DOM (works under Node). Never throws on bad data.
 */
export function renderToString(
  answer: string | null | undefined,
  data?: CitationData | null,
  options?: RenderOptions,
): string;

// ---------------------------------------------------------------------------------
// Mounting and events

export interface CitationClickDetail {
  /** Index of the citation in `parse(...).citations`. */
  citation: number;
  /** Id of the source shown for the clicked marker. */
  sourceId?: string | null;
  /** Its display number. */
  number?: number;
}

export interface SourceSelectDetail {
  sourceId: string | null;
  number: number;
}

export interface CiteEventMap {
  'citation-click': CustomEvent<CitationClickDetail>;
  'source-select': CustomEvent<SourceSelectDetail>;
}

/** A mounted answer. */
export class View {
  private constructor();
  /** Replaces the inputs present (answer, data, single options, display settings). */
  update(props: MountProps): void;
  /** Replaces every option (absent ones go back to their defaults). */
  setOptions(options: Options & DisplayOptions): void;
  /**
   * Adds streamed text (to the answer, or to the raw event stream for format `sse`,
   * `ai-sdk`, and a platform's (`cohere`, `bedrock`, `bedrock-kb`, `azure`, `xai`,
   * `mistral`, `llamaindex`, `langchain`) or a provider's own stream (`anthropic`, `gemini`, `openai`,
   * `perplexity`) mounted with text data, `data: ''` at the start).
   */
  append(text: string): void;
  /** Ends the stream. */
  finish(): void;
  /** Listens to an event on the mounted element; returns the unsubscribe function. */
  on<K extends keyof CiteEventMap>(name: K, callback: (event: CiteEventMap[K]) => void): () => void;
  on(name: string, callback: (event: Event) => void): () => void;
  /** Unmounts and empties the element. Idempotent. */
  destroy(): void;
  /** Whether it is still mounted. */
  readonly mounted: boolean;
  /** Frees the JS handle (does not unmount; call `destroy` for that). */
  free(): void;
}

/** Mounts an interactive answer into `element` (replacing its content). */
export function mount(element: HTMLElement, props?: MountProps): View;

/**
 * The `<cited-answer>` element (registered on import). Without `answer`/`data`
 * properties it reads its `answer` attribute and a child
 * `<script type="application/json">` (server-rendered pages, hydration).
 */
export class CitedAnswerElement extends HTMLElement {
  /** The answer. A value that grows from the previous one streams (only the new text is appended). */
  answer: string | null;
  data: CitationData | null;
  options: Options & DisplayOptions;
  /** True while the answer is still arriving; turning it off calls `finish()`. */
  streaming: boolean;
  /**
   * A Vercel AI SDK `UIMessage` (its parts, or the messages array) in place of
   * `answer` and `data`; set it again on every render while `streaming` is on and
   * only what grew is appended.
   */
  message: AiSdkMessageInput | null;
  /** The mounted View, once the module is loaded and the element connected. */
  readonly view: View | null;
  /** Adds streamed text. */
  append(text: string): void;
  /** DOM `append` when given nodes. */
  append(...nodes: (Node | string)[]): void;
  /** Ends the stream. */
  finish(): void;
  addEventListener<K extends keyof CiteEventMap>(
    type: K,
    listener: (this: CitedAnswerElement, ev: CiteEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener<K extends keyof HTMLElementEventMap>(
    type: K,
    listener: (this: CitedAnswerElement, ev: HTMLElementEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
}

declare global {
  interface HTMLElementTagNameMap {
    'cited-answer': CitedAnswerElement;
  }
  interface HTMLElementEventMap {
    'citation-click': CustomEvent<CitationClickDetail>;
    'source-select': CustomEvent<SourceSelectDetail>;
  }
}
