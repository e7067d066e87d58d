// The citation data both benchmarks use: a citation map of `sources` entries shaped as
// a RAG backend returns them (title, url, excerpt, score).
export function makeData(sources) {
  const data = {};
  for (let i = 1; i <= sources; i++) {
    data[String(i)] = {
      title: `Source ${i}: a report on grounded answers`,
      source: `https://example${i}.com/reports/${i}`,
      text: `Excerpt ${i} of the source that supports the statement, long enough to be a snippet.`,
      score: 0.5 + (i % 50) / 100,
    };
  }
  return data;
}
