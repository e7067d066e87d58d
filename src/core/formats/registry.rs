//! The format registry: one entry per input format, in the order of docs/formats.md.
//!
//! An entry says everything the rest of the crate needs to know about a format: its
//! name (in options, JSON and the npm package's `Format` type), the cargo feature that
//! holds its parser (and so whether the npm package's first module reads it), its
//! parser of JSON data, and the reader of its event stream, if it has one. The format
//! name list ([`Format::ALL`], [`Format::name`]), the `format-not-loaded` message, the
//! parse dispatch ([`super::parse_draft`]), which formats stream and how
//! ([`super::is_platform`], [`super::has_event_stream`], the stream parser's
//! accumulator in `core::stream::events`) and the platforms' event dispatch
//! (`platform_stream`) read it, so that a new format is its own file plus one entry
//! here (and its detection, whose order decides between shapes several formats share:
//! `detect.rs`, or `detect_rag.rs` for the RAG platforms).

use crate::core::draft::Draft;
use crate::core::error::ParseError;
use crate::core::model::Format;
use crate::core::options::Options;
use serde_json::{Map, Value};

/// What a format's parser reads: the answer as given, the JSON data and the options.
pub(crate) struct ParseArgs<'a> {
    /// The answer text the caller gave, if any.
    pub(crate) answer: Option<&'a str>,
    /// The data as JSON, if any.
    pub(crate) data: Option<&'a Value>,
    /// The parse options.
    pub(crate) options: &'a Options,
}

/// A format's parser of its data: its [`ParseArgs`] into a draft.
///
/// Its arguments are behind one reference on purpose. As `fn(answer, data, options)`
/// the wasm calls it through the function table with type `(i32 i32 i32 i32 i32) -> ()`,
/// the type of wasm-bindgen's closure shims for js-sys callbacks (`forEach`, `find`,
/// ...); one call of that type keeps all of them, which the npm package's first module
/// never calls (1.3 KB of wasm). Functions of type `(i32 i32) -> ()` are called through
/// the table anyway.
pub(crate) type ParseFn = for<'a> fn(&ParseArgs<'a>) -> Result<Draft, ParseError>;

/// Applies one of a platform's own stream events to the response its stream rebuilds;
/// the text the event appends to the answer when that is all it changes.
pub(crate) type ApplyEventFn = fn(&mut Value, &Map<String, Value>) -> Option<String>;

/// The cargo feature that holds a format's parser.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    /// Always built.
    Core,
    /// `providers`: the LLM providers' own formats.
    Providers,
    /// `posthoc`.
    Posthoc,
    /// `scintilla`.
    Scintilla,
    /// `payload`.
    Payload,
    /// `platforms`: the RAG platforms' formats.
    Platforms,
}

impl Feature {
    /// The feature's name in Cargo.toml.
    pub fn name(self) -> &'static str {
        match self {
            Feature::Core => "",
            Feature::Providers => "providers",
            Feature::Posthoc => "posthoc",
            Feature::Scintilla => "scintilla",
            Feature::Payload => "payload",
            Feature::Platforms => "platforms",
        }
    }

    /// Whether this build holds it.
    #[cfg(test)]
    pub fn enabled(self) -> bool {
        match self {
            Feature::Core => true,
            Feature::Providers => cfg!(feature = "providers"),
            Feature::Posthoc => cfg!(feature = "posthoc"),
            Feature::Scintilla => cfg!(feature = "scintilla"),
            Feature::Payload => cfg!(feature = "payload"),
            Feature::Platforms => cfg!(feature = "platforms"),
        }
    }
}

/// How a format's data comes as an event stream, and what reads it.
#[derive(Debug, Clone, Copy)]
pub enum Stream {
    /// No stream of its own: the data is one JSON value.
    None,
    /// The generic event stream (`sse`): tokens, sources and a citation map.
    Sse,
    /// The Vercel AI SDK's UI message stream.
    UiMessages,
    /// Anthropic's Messages events.
    Anthropic,
    /// Gemini's `alt=sse` chunks.
    Gemini,
    /// OpenAI's Responses events or Chat Completions chunks (Perplexity's are chunks).
    Openai,
    /// A platform's stream, rebuilt into its response (`platform_stream`).
    Platform {
        /// Applies the platform's own events (none: its stream is chat completions
        /// chunks only, put together by the OpenAI reader). `None` too in a build
        /// without the `platforms` feature (which then reads no platform's events).
        #[cfg_attr(not(feature = "platforms"), allow(dead_code))]
        apply_event: Option<ApplyEventFn>,
        /// Whether a view with no data yet waits for the stream (Cohere's, Bedrock's:
        /// their text is in it) rather than for answer text whose object comes at the
        /// end (a LlamaIndex or LangChain app may stream its text and send the
        /// response or message last).
        waits_for_stream: bool,
    },
}

/// One format's entry.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// The format.
    pub format: Format,
    /// Its name in options and JSON (`"citation_map"`, `"ai-sdk"`, ...).
    pub name: &'static str,
    /// The feature that holds its parser.
    pub feature: Feature,
    /// Its parser of JSON data; `None` in a build without its feature (the data then
    /// shows its text with a `format-not-loaded` error), and for `sse`, whose data is
    /// only ever its stream ([`Stream::Sse`] reads it).
    pub(crate) parse: Option<ParseFn>,
    /// Its event stream.
    pub stream: Stream,
}

/// The [`ParseFn`] of `$f`, a format's `parse(answer, data, options)`.
macro_rules! parser {
    ($f:expr) => {
        |a: &ParseArgs<'_>| $f(a.answer, a.data, a.options)
    };
}

/// `Some($f)` (a `$ty`) when the build has `$feature`, else `None` (the module of `$f`
/// is not built).
macro_rules! gated {
    ($feature:literal, $ty:ty, $f:expr) => {{
        #[cfg(feature = $feature)]
        let f: Option<$ty> = Some($f);
        #[cfg(not(feature = $feature))]
        let f: Option<$ty> = None;
        f
    }};
    ($feature:literal, $f:expr) => {
        gated!($feature, ParseFn, parser!($f))
    };
}

/// A platform's stream: its events applied by `$apply` (when built), or chat
/// completions chunks only (`None`).
macro_rules! platform {
    ($apply:expr, $waits:expr) => {
        Stream::Platform {
            apply_event: gated!("platforms", ApplyEventFn, $apply),
            waits_for_stream: $waits,
        }
    };
}

/// How many formats there are.
pub const COUNT: usize = 21;

/// Every format's entry, in the order of docs/formats.md; entry `i` is the format
/// whose discriminant is `i` (checked when the crate compiles).
pub const REGISTRY: [Entry; COUNT] = {
    use super::*;
    [
        Entry {
            format: Format::Stored,
            name: "stored",
            feature: Feature::Core,
            parse: Some(parser!(stored::parse)),
            stream: Stream::None,
        },
        Entry {
            format: Format::Posthoc,
            name: "posthoc",
            feature: Feature::Posthoc,
            parse: gated!("posthoc", posthoc::parse),
            stream: Stream::None,
        },
        Entry {
            format: Format::CitationMap,
            name: "citation_map",
            feature: Feature::Core,
            parse: Some(parser!(citation_map::parse)),
            stream: Stream::None,
        },
        Entry {
            format: Format::Sse,
            name: "sse",
            feature: Feature::Core,
            // Its data is only ever its stream (text, a JSON string, or the answer).
            parse: None,
            stream: Stream::Sse,
        },
        Entry {
            format: Format::Scintilla,
            name: "scintilla",
            feature: Feature::Scintilla,
            parse: gated!("scintilla", scintilla::parse),
            stream: Stream::None,
        },
        Entry {
            format: Format::Canonical,
            name: "canonical",
            feature: Feature::Core,
            parse: Some(parser!(canonical::parse)),
            stream: Stream::None,
        },
        Entry {
            format: Format::Payload,
            name: "payload",
            feature: Feature::Payload,
            parse: gated!("payload", payload::parse),
            stream: Stream::None,
        },
        Entry {
            format: Format::Anthropic,
            name: "anthropic",
            feature: Feature::Providers,
            parse: gated!("providers", anthropic::parse),
            stream: Stream::Anthropic,
        },
        Entry {
            format: Format::Openai,
            name: "openai",
            feature: Feature::Providers,
            parse: gated!("providers", openai::parse),
            stream: Stream::Openai,
        },
        Entry {
            format: Format::Gemini,
            name: "gemini",
            feature: Feature::Providers,
            parse: gated!("providers", gemini::parse),
            stream: Stream::Gemini,
        },
        Entry {
            format: Format::Perplexity,
            name: "perplexity",
            feature: Feature::Providers,
            parse: gated!("providers", perplexity::parse),
            stream: Stream::Openai,
        },
        Entry {
            format: Format::AiSdk,
            name: "ai-sdk",
            feature: Feature::Core,
            parse: Some(parser!(ai_sdk::parse)),
            stream: Stream::UiMessages,
        },
        Entry {
            format: Format::Cohere,
            name: "cohere",
            feature: Feature::Platforms,
            parse: gated!("platforms", cohere::parse),
            stream: platform!(cohere::apply_event, true),
        },
        Entry {
            format: Format::BedrockConverse,
            name: "bedrock",
            feature: Feature::Platforms,
            parse: gated!("platforms", bedrock::parse_converse),
            stream: platform!(bedrock::apply_converse_event, true),
        },
        Entry {
            format: Format::BedrockKb,
            name: "bedrock-kb",
            feature: Feature::Platforms,
            parse: gated!("platforms", bedrock::parse_kb),
            stream: platform!(bedrock::apply_kb_event, true),
        },
        Entry {
            format: Format::Azure,
            name: "azure",
            feature: Feature::Platforms,
            parse: gated!("platforms", azure::parse),
            stream: Stream::Platform {
                apply_event: None,
                waits_for_stream: true,
            },
        },
        Entry {
            format: Format::Mistral,
            name: "mistral",
            feature: Feature::Platforms,
            parse: gated!("platforms", mistral::parse),
            stream: platform!(mistral::apply_conversation_event, true),
        },
        Entry {
            format: Format::Xai,
            name: "xai",
            feature: Feature::Platforms,
            parse: gated!("platforms", xai::parse),
            stream: Stream::Platform {
                apply_event: None,
                waits_for_stream: true,
            },
        },
        Entry {
            format: Format::Llamaindex,
            name: "llamaindex",
            feature: Feature::Platforms,
            parse: gated!("platforms", llamaindex::parse),
            stream: platform!(llamaindex::apply_event, false),
        },
        Entry {
            format: Format::Langchain,
            name: "langchain",
            feature: Feature::Platforms,
            parse: gated!("platforms", langchain::parse),
            stream: platform!(langchain::apply_event, false),
        },
        Entry {
            format: Format::Markdown,
            name: "markdown",
            feature: Feature::Core,
            parse: Some(parser!(markdown::parse)),
            stream: Stream::None,
        },
    ]
};

// Entry `i` is the format with discriminant `i`, so that `entry` is an index.
const _: () = {
    let mut i = 0;
    while i < COUNT {
        assert!(REGISTRY[i].format as usize == i);
        i += 1;
    }
};

/// The entry of `format`.
#[cfg(test)]
pub fn entry(format: Format) -> &'static Entry {
    &REGISTRY[format as usize]
}

/// One field of every entry, as a const array built from [`REGISTRY`] when the crate
/// compiles. What runs reads a field through these (one small table each in the
/// wasm) rather than through a whole entry, which would put every entry in the npm
/// package's first module.
macro_rules! column {
    ($ty:ty, $field:ident) => {{
        const COLUMN: [$ty; COUNT] = {
            let mut out = [REGISTRY[0].$field; COUNT];
            let mut i = 1;
            while i < COUNT {
                out[i] = REGISTRY[i].$field;
                i += 1;
            }
            out
        };
        COLUMN
    }};
}

/// The name of `format` (its entry's).
pub fn name(format: Format) -> &'static str {
    column!(&'static str, name)[format as usize]
}

/// The feature that holds the parser of `format`.
pub fn feature(format: Format) -> Feature {
    column!(Feature, feature)[format as usize]
}

/// The parser of `format`'s JSON data, if this build has it.
pub(crate) fn parser(format: Format) -> Option<ParseFn> {
    column!(Option<ParseFn>, parse)[format as usize]
}

/// What reads `format`'s event stream.
pub fn stream(format: Format) -> Stream {
    column!(Stream, stream)[format as usize]
}

/// Every format, in the registry's order.
pub const FORMATS: [Format; COUNT] = {
    let mut out = [Format::Markdown; COUNT];
    let mut i = 0;
    while i < COUNT {
        out[i] = REGISTRY[i].format;
        i += 1;
    }
    out
};

impl Format {
    /// Every format, in the order of docs/formats.md (the registry's).
    pub const ALL: [Format; COUNT] = FORMATS;

    /// The name used in options and JSON (`"citation_map"`, ...).
    pub fn name(self) -> &'static str {
        name(self)
    }

    /// The format with this name, if any.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `Format` variant has exactly one entry. The match has no wildcard: a
    /// variant added to the enum and not here fails to compile, and one added here
    /// but not to the registry fails the count.
    #[test]
    fn every_format_has_exactly_one_entry() {
        fn variant(f: Format) -> Format {
            match f {
                Format::Stored
                | Format::Posthoc
                | Format::CitationMap
                | Format::Sse
                | Format::Scintilla
                | Format::Canonical
                | Format::Payload
                | Format::Anthropic
                | Format::Openai
                | Format::Gemini
                | Format::Perplexity
                | Format::AiSdk
                | Format::Cohere
                | Format::BedrockConverse
                | Format::BedrockKb
                | Format::Azure
                | Format::Mistral
                | Format::Xai
                | Format::Llamaindex
                | Format::Langchain
                | Format::Markdown => f,
            }
        }
        for f in Format::ALL {
            let n = REGISTRY.iter().filter(|e| variant(e.format) == f).count();
            assert_eq!(n, 1, "{f:?}");
            assert_eq!(entry(f).format, f);
        }
    }

    /// A format's name parses back to it, through `from_name` and through serde (the
    /// derive's renames are a second spelling of the names: they must agree).
    #[test]
    fn names_parse_back() {
        let mut seen = std::collections::HashSet::new();
        for e in &REGISTRY {
            assert!(seen.insert(e.name), "{} twice", e.name);
            assert_eq!(Format::from_name(e.name), Some(e.format));
            assert_eq!(e.format.name(), e.name);
            let json = serde_json::to_value(e.format).unwrap();
            assert_eq!(json, Value::String(e.name.into()), "{:?}", e.format);
            let back: Format = serde_json::from_value(json).unwrap();
            assert_eq!(back, e.format);
        }
    }

    /// A format's parser is there exactly when its feature is built (`sse` has none:
    /// its stream reader reads all its data).
    #[test]
    fn a_parser_is_there_when_its_feature_is() {
        for e in &REGISTRY {
            let stream_only = matches!(e.stream, Stream::Sse);
            assert_eq!(
                e.parse.is_some(),
                e.feature.enabled() && !stream_only,
                "{}",
                e.name
            );
            if let Stream::Platform { apply_event, .. } = e.stream {
                assert_eq!(e.feature, Feature::Platforms, "{}", e.name);
                if !e.feature.enabled() {
                    assert!(apply_event.is_none(), "{}", e.name);
                }
            }
        }
    }
}
