// A typed use of cited-answer/react and of <cited-answer> in JSX, checked with `tsc
// --noEmit` against the package's react.d.ts and jsx.d.ts (tests/npm/run.mjs). Not run.
import type { View } from 'cited-answer';
import { CitedAnswer, useCitekit, type CitekitInput } from 'cited-answer/react';
import type { CitedAnswerElement } from 'cited-answer';

const data = { 1: { title: 'Paris - Wikipedia', source: 'https://en.wikipedia.org/wiki/Paris' } };

export function Message({ text, done }: { text: string; done: boolean }) {
  const input: CitekitInput = { answer: text, data, streaming: !done, options: { theme: 'dark' } };
  const { ref, error, getView } = useCitekit<HTMLDivElement>(input);
  const view: View | null = getView();
  const failed: Error | null = error;
  return (
    <>
      <CitedAnswer
        answer={text}
        data={data}
        streaming={!done}
        options={{ markerStyle: 'grouped', panel: true }}
        onCitationClick={(detail) => console.log(detail.citation, detail.number)}
        onSourceSelect={(detail, event) => console.log(detail.sourceId, event.type)}
        className="answer"
      />
      <cited-answer answer={text} streaming={!done} theme="dark" marker-style="grouped" panel />
      <cited-answer
        ref={(el: CitedAnswerElement | null) => el?.finish()}
        data={data}
        options={{ footnotes: false }}
        oncitation-click={(e) => console.log(e.detail.sourceId)}
      >
        <script type="application/json">{JSON.stringify(data)}</script>
      </cited-answer>
      <div ref={ref} data-failed={failed !== null} data-mounted={view?.mounted} />
    </>
  );
}

// @ts-expect-error: not a theme
export const badTheme = <CitedAnswer answer="x" options={{ theme: 'sepia' }} />;
// @ts-expect-error: streaming is a boolean
export const badStreaming = <cited-answer streaming="yes" />;
export const sseElement = <cited-answer format="sse" />;
// @ts-expect-error: not a format
export const badFormat = <cited-answer format="jsonx" />;
