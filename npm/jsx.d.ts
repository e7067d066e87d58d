// JSX types of <cited-answer> for React (19 and 18.3's `React.JSX`). Included by
// `cited-answer/react`; without it: `import type {} from 'cited-answer/jsx'` (or list
// "cited-answer/jsx" in tsconfig's `types`).
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { AiSdkMessageInput, CitationClickDetail, CitationData, CitedAnswerElement, DisplayOptions, FormatName, Options, SourceSelectDetail } from './index.js';

/** The props of `<cited-answer>` in JSX: React 19 sets them as properties. */
export interface CitedAnswerJsxProps extends DetailedHTMLProps<HTMLAttributes<CitedAnswerElement>, CitedAnswerElement> {
  answer?: string | null;
  data?: CitationData | null;
  message?: AiSdkMessageInput | null;
  options?: Options & DisplayOptions;
  streaming?: boolean;
  format?: FormatName | 'auto';
  numbering?: 'first-cited' | 'given';
  theme?: 'auto' | 'light' | 'dark';
  'marker-style'?: 'number' | 'grouped' | 'domain';
  uncited?: 'dim' | 'show' | 'hide';
  unresolved?: 'drop' | 'keep';
  'position-encoding'?: 'utf16' | 'utf32' | 'utf8';
  'show-citations'?: boolean | 'true' | 'false';
  panel?: boolean | 'true' | 'false';
  footnotes?: boolean | 'true' | 'false';
  'copy-button'?: boolean | 'true' | 'false';
  /** React 19 listens to the element's `citation-click` event. */
  'oncitation-click'?: (event: CustomEvent<CitationClickDetail>) => void;
  /** React 19 listens to the element's `source-select` event. */
  'onsource-select'?: (event: CustomEvent<SourceSelectDetail>) => void;
}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'cited-answer': CitedAnswerJsxProps;
    }
  }
}
