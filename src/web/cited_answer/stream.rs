//! The streaming driver: feeds what changed to the stream parser, and the text as a
//! stream shows it (unfinished syntax held back or closed).

use crate::core::formats::Data;
use crate::core::model::CitedAnswer as Model;
use crate::core::options::Options;
use crate::web::CiteData;

/// The streaming state of one answer.
pub(crate) struct Live {
    pub(crate) parser: crate::core::stream::StreamParser,
    pub(crate) answer_len: usize,
    pub(crate) data: CiteData,
    pub(crate) options: Options,
}

/// What the renderer needs to know about the stream.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct StreamInfo {
    pub(crate) streaming: bool,
    /// Output bytes before this never change (the previous update's stable length);
    /// when the stream has just finished, where its open tail began.
    pub(crate) prev_stable: usize,
    /// The finished blocks were read again (new data, or the end of the stream): their
    /// text is compared with what is shown. Plain appends never change it.
    pub(crate) reread: bool,
}

/// Feeds what changed since the last call to the stream parser; starts it when
/// needed, finishes it when `streaming` turned off.
pub(crate) fn stream_step(
    live: &mut Option<Live>,
    a: &str,
    d: &CiteData,
    opts: &Options,
    streaming: bool,
) -> (Model, StreamInfo) {
    let sse = matches!(
        opts.format,
        crate::core::options::FormatChoice::Given(crate::core::model::Format::Sse)
    );
    let restart = match live.as_ref() {
        None => true,
        Some(l) => {
            l.options != *opts
                || (!sse && (a.len() < l.answer_len || !a.is_char_boundary(l.answer_len)))
                || (sse
                    && !matches!((&l.data, d), (CiteData::Text(o), CiteData::Text(n)) if n.len() >= o.len() && n.starts_with(o.as_str())))
        }
    };
    let prev_stable = if restart {
        0
    } else {
        live.as_ref().map_or(0, |l| l.parser.stable_len())
    };
    if restart {
        let start = if sse { Data::Text("") } else { d.as_data() };
        match crate::core::stream::StreamParser::new(start, opts) {
            Ok(p) => {
                *live = Some(Live {
                    parser: p,
                    answer_len: 0,
                    data: if sse {
                        CiteData::Text(String::new())
                    } else {
                        d.clone()
                    },
                    options: opts.clone(),
                })
            }
            Err(e) => {
                *live = None;
                let mut m = crate::core::parse_lenient(Some(a), Data::None, opts);
                m.diagnostics.push(crate::core::model::Diagnostic::error(
                    e.code(),
                    e.to_string(),
                ));
                return (m, StreamInfo::default());
            }
        }
    }
    let Some(l) = live.as_mut() else {
        return (
            crate::core::parse_lenient(Some(a), d.as_data(), opts),
            StreamInfo::default(),
        );
    };
    let mut reread = false;
    if sse {
        if let (CiteData::Text(o), CiteData::Text(n)) = (&l.data, d) {
            if n.len() > o.len() {
                l.parser.push(&n[o.len()..]);
            }
        }
        l.data = d.clone();
    } else {
        if l.data != *d {
            let _ = l.parser.set_data(d.as_data());
            l.data = d.clone();
            reread = true;
        }
        if a.len() > l.answer_len {
            l.parser.push(&a[l.answer_len..]);
            l.answer_len = a.len();
        }
    }
    let stable_len = l.parser.stable_len();
    if !streaming {
        let done = l.parser.finish().clone();
        *live = None;
        return (
            done,
            StreamInfo {
                streaming: false,
                prev_stable: prev_stable.min(stable_len),
                reread: true,
            },
        );
    }
    (
        l.parser.snapshot().clone(),
        StreamInfo {
            streaming: true,
            prev_stable: prev_stable.min(stable_len),
            reread,
        },
    )
}
