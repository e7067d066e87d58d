// citekit in a React app: an answer that streams in, its sources arriving at the end.
//   npm install cited-answer react react-dom
// With Vite, keep citekit out of the dev server's pre-bundling (vite.config.js):
//   optimizeDeps: { exclude: ['cited-answer'] }
import { useEffect, useState } from 'react';
import { CitedAnswer } from 'cited-answer/react';

const ANSWER =
  'Rust 1.0 was released on May 15, 2015 [1]. Its package manager is Cargo [2], ' +
  'and crates.io hosts the packages Cargo installs [2][3].';

const SOURCES = {
  1: { title: 'Announcing Rust 1.0', source: 'https://blog.rust-lang.org/2015/05/15/Rust-1.0.html' },
  2: { title: 'The Cargo Book', source: 'https://doc.rust-lang.org/cargo/' },
  3: { title: 'crates.io', source: 'https://crates.io/' },
};

/** Stands in for your model's stream: a few characters every 20 ms. */
function useTypedOut(text) {
  const [length, setLength] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setLength((n) => Math.min(text.length, n + 3 + (n % 6))), 20);
    return () => clearInterval(timer);
  }, [text]);
  return { text: text.slice(0, length), done: length === text.length };
}

export function Answer() {
  const { text, done } = useTypedOut(ANSWER);
  return (
    <CitedAnswer
      answer={text} // the whole text so far: only what is new is sent to the view
      data={done ? SOURCES : null} // sources may come at the end (or before)
      streaming={!done} // when it turns false, half-typed markers are resolved
      options={{ panel: true }}
      onCitationClick={(detail) => console.log('citation-click', detail)}
    />
  );
}
