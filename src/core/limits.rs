//! Bounds on input sizes (docs/safety.md, "Limits"). Going past one gives a diagnostic or an
//! error that names the limit; the answer text still comes through.

/// Largest answer text whose markers are scanned (bytes). A larger answer is shown as
/// plain text with a `limit-exceeded` diagnostic.
pub const MAX_ANSWER_BYTES: usize = 16 * 1024 * 1024;
/// Name of [`MAX_ANSWER_BYTES`] in diagnostics.
pub const MAX_ANSWER_BYTES_NAME: &str = "max_answer_bytes";

/// Largest citation data document (bytes of JSON or event-stream text).
pub const MAX_DATA_BYTES: usize = 32 * 1024 * 1024;
/// Name of [`MAX_DATA_BYTES`].
pub const MAX_DATA_BYTES_NAME: &str = "max_data_bytes";

/// Deepest nesting of arrays and objects in JSON data.
pub const MAX_JSON_DEPTH: usize = 64;
/// Name of [`MAX_JSON_DEPTH`].
pub const MAX_JSON_DEPTH_NAME: &str = "max_json_depth";

/// Most sources kept; more are dropped with a diagnostic.
pub const MAX_SOURCES: usize = 10_000;
/// Name of [`MAX_SOURCES`].
pub const MAX_SOURCES_NAME: &str = "max_sources";

/// Most markers recognized in one answer; past it, markers stay literal text.
pub const MAX_MARKERS: usize = 100_000;
/// Name of [`MAX_MARKERS`].
pub const MAX_MARKERS_NAME: &str = "max_markers";

/// Most explicit citations (spans) kept.
pub const MAX_CITATIONS: usize = 100_000;
/// Name of [`MAX_CITATIONS`].
pub const MAX_CITATIONS_NAME: &str = "max_citations";

/// How many bytes of the caller's answer, as a multiple of its length, may be searched
/// to re-place the data's spans when the caller's text differs from the data's; past
/// it, the remaining spans are dropped with a diagnostic (hostile data with many spans
/// that are nowhere in the answer would otherwise cost spans × answer length).
pub const MAX_SPAN_SEARCH_FACTOR: usize = 64;
/// Name of [`MAX_SPAN_SEARCH_FACTOR`].
pub const MAX_SPAN_SEARCH_NAME: &str = "max_span_search";

/// Deepest nesting of markdown containers (block quotes, lists, list items, footnote
/// definitions: a list and its item count as two) the CommonMark parser follows, and
/// with it the marker scanner; deeper ones are read as paragraph text (keeps hostile
/// `> > > ...` and `- - - ...` lines linear), with a `limit-exceeded` warning from the
/// scanner.
pub const MAX_BLOCK_DEPTH: usize = 64;
/// Name of [`MAX_BLOCK_DEPTH`].
pub const MAX_BLOCK_DEPTH_NAME: &str = "max_block_depth";

/// Largest number a numeric marker may carry (`[123456]` is not a citation).
pub const MAX_MARKER_NUMBER: u64 = 9_999;

/// Most numbers a range marker (`[1-3]`, `[[S:2-4]]`) may expand to.
pub const MAX_RANGE_LEN: u64 = 100;

/// Longest snippet or cited text shown, in characters.
pub const MAX_EXCERPT_CHARS: usize = 200;

/// Most back-links in one footnote: a source cited more often links back to its first
/// markers only, and says how many more there are (a long answer citing a few sources
/// thousands of times would otherwise spend a fifth of its mount on back-link lists).
pub const MAX_FOOTNOTE_BACKLINKS: usize = 50;
/// Name of [`MAX_FOOTNOTE_BACKLINKS`].
pub const MAX_FOOTNOTE_BACKLINKS_NAME: &str = "max_footnote_backlinks";
