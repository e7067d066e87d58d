// A typed use of every export of the citekit package, checked with `tsc --noEmit`
// against the package's index.d.ts (tests/npm/run.mjs). Not run.
// The stylesheet as a bundler imports it (a checked side-effect import).
import 'cited-answer/citekit.css';
import {
  CitedAnswerElement,
  View,
  init,
  isReady,
  mount,
  parse,
  renderToString,
  version,
  type CitationClickDetail,
  type CitationData,
  type CitationMapData,
  type Diagnostic,
  type MountProps,
  type Options,
  type ParsedAnswer,
  type PerplexityData,
  type RenderOptions,
  type Source,
  type SourceSelectDetail,
  type StoredData,
} from 'cited-answer';

export async function example(host: HTMLElement): Promise<void> {
  await init();
  await init(new URL('/assets/citekit_wasm_bg.wasm', location.href));
  const ready: boolean = isReady();
  const v: string = version();

  const stored: StoredData = {
    sources: [{ id: 's1', title: 'Paris', uri: 'https://en.wikipedia.org/wiki/Paris', extra: 1 }],
    references: [{ startIndex: 0, endIndex: 5, sourceIds: ['s1'] }],
  };
  const map: CitationMapData = { '1': { title: 'Paris', source: 'https://a.example', score: 0.9 } };
  const pplx: PerplexityData = {
    choices: [{ message: { content: 'Paris [1].' } }],
    citations: ['https://a.example'],
  };
  const anyData: CitationData[] = [stored, map, pplx, 'data: [DONE]\n\n', [{ sid: 1 }]];

  const options: Options = {
    format: 'citation_map',
    positionEncoding: 'utf16',
    numbering: 'given',
    unresolved: 'keep',
    showCitations: true,
    uncited: 'hide',
    markerStyle: 'grouped',
    theme: 'dark',
    labels: { sources: 'Quellen', copy: 'Kopieren' },
  };
  const parsed: ParsedAnswer = parse('Paris [1].', map, options);
  const first: Source | undefined = parsed.sources[0];
  const title: string | undefined = first?.title;
  const spans: Array<[number, number]> = parsed.citations.map((c) => [c.start, c.end]);
  const errors: Diagnostic[] = parsed.diagnostics.filter((d) => d.severity === 'error');
  const fromNull: ParsedAnswer = parse(null, pplx);

  const renderOptions: RenderOptions = { panel: true, idPrefix: 'a1', theme: 'light' };
  const html: string = renderToString('Paris [1].', map, renderOptions);

  const props: MountProps = { answer: '', data: map, panel: true, footnotes: false, copyButton: true, markerStyle: 'domain' };
  const view: View = mount(host, props);
  view.append('Paris is the capital [');
  view.append('1].');
  view.update({ data: stored });
  view.setOptions({ theme: 'light', panel: false });
  const off: () => void = view.on('citation-click', (e) => {
    const d: CitationClickDetail = e.detail;
    console.log(d.citation, d.sourceId, d.number);
  });
  view.on('source-select', (e) => {
    const d: SourceSelectDetail = e.detail;
    console.log(d.number);
  });
  view.on('pointerover', (e: Event) => console.log(e.type));
  off();
  view.finish();
  const mounted: boolean = view.mounted;
  view.destroy();
  view.free();

  const sse = mount(host, { answer: null, data: '', format: 'sse' });
  sse.append('data: {"type": "token", "content": "Hi"}\n\n');
  sse.finish();

  const el: CitedAnswerElement = document.createElement('cited-answer');
  el.answer = 'Paris [1].';
  el.data = map;
  el.options = { numbering: 'first-cited', copyButton: true };
  el.setAttribute('marker-style', 'grouped');
  el.addEventListener('citation-click', (e) => console.log(e.detail.citation));
  document.body.addEventListener('source-select', (e) => console.log(e.detail.sourceId));
  document.body.append(el);
  el.append('More text');
  el.finish();
  const elView: View | null = el.view;
  const byCtor = new CitedAnswerElement();

  console.log(ready, v, title, spans, errors, fromNull, html, anyData, mounted, elView, byCtor);
}

// Misuse the types must reject.
// @ts-expect-error: not a format
parse('x', null, { format: 'nope' });
// @ts-expect-error: not a marker style
renderToString('x', null, { markerStyle: 'stars' });
// @ts-expect-error: answer must be a string, null or undefined
parse(42, null);
