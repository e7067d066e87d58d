// The Vercel AI SDK's own UIMessage type (`ai`) given to cited-answer/react and to
// <cited-answer> in JSX, checked with `tsc --noEmit` (tests/npm/run.mjs). Not run.
import type { UIMessage } from 'ai';
import { parse, type AiSdkMessageInput } from 'cited-answer';
import { CitedAnswer, useCitekit, type CitekitInput } from 'cited-answer/react';

export function Chat({ messages, streaming }: { messages: UIMessage[]; streaming: boolean }) {
  const last = messages[messages.length - 1];
  const parts: CitekitInput = { message: last.parts, streaming };
  const all: AiSdkMessageInput = messages;
  useCitekit(parts);
  useCitekit({ message: all });
  return (
    <>
      {messages.map((m) => (
        <CitedAnswer key={m.id} message={m} streaming={streaming} options={{ panel: true }} />
      ))}
      <cited-answer message={last} streaming={streaming} />
    </>
  );
}

/** The `ai-sdk` format's data: a UIMessage, its parts or the messages. */
export const models = (m: UIMessage, all: UIMessage[]) => [parse(null, m), parse(null, m.parts), parse(null, all)];
// A source of the whole answer says so (typed, not `unknown`).
export const wholeAnswer = (m: UIMessage): ('answer' | undefined)[] => parse(null, m).sources.map((s) => s.scope);

// @ts-expect-error: not a message (no parts)
export const badMessage = <CitedAnswer message={{ id: 'm' }} />;
