//! The answer parsed whole: what a format that cannot be read block by block shows on
//! each chunk (data with offsets over the whole text, data that carries the text, HTML
//! and JSON answers, a provider stream's own final object), with the same hold-back at
//! the end of the streamed text as an incremental stream has.

use super::hold::{cut_draft, shown_part, strip_closer};
use super::{Source_, StreamParser};
use crate::core::formats::{self, Data};
use crate::core::model::{Answer, ContentKind};
use crate::core::resolve::{merge_source, resolve, resolve_pending};

impl StreamParser {
    /// The whole answer parsed at once (fallback for non-incremental formats).
    pub(super) fn whole(&self) -> Answer {
        let data_owned;
        let (answer, data) = match &self.data {
            Source_::Sse { acc, .. } if acc.provider_draft().is_some() => {
                return self.provider_answer(false);
            }
            Source_::Sse { .. } => {
                data_owned = self.sse_stream_text();
                (None, Data::Text(&data_owned))
            }
            Source_::Json(Some(v)) => (Some(self.raw.as_str()), Data::Json(v)),
            Source_::Json(None) => (Some(self.raw.as_str()), Data::None),
        };
        self.count_resolved(self.raw.len());
        crate::core::parse_lenient(answer, data, &self.options)
    }

    /// Like [`whole`](Self::whole), but unresolved markers stay pending while the
    /// stream runs (they must not show as literal text), and the end of the streamed
    /// text is held back as an incremental stream's open block is ([`shown_part`]): a
    /// partial marker never shows, whatever the data's format.
    pub(super) fn whole_pending(&self) -> Answer {
        let draft = match &self.data {
            Source_::Json(v) => {
                let d = match v {
                    Some(v) => Data::Json(v),
                    None => Data::None,
                };
                formats::parse_draft(Some(&self.raw), d, &self.options)
            }
            Source_::Sse { acc, .. } if acc.provider_draft().is_some() => {
                return self.provider_answer(true);
            }
            Source_::Sse { .. } => {
                let t = self.sse_stream_text();
                formats::parse_draft(None, Data::Text(&t), &self.options)
            }
        };
        let Ok(mut draft) = draft else {
            return self.whole();
        };
        // Only streamed text is still arriving: with none yet, the text is the data's
        // own, complete.
        let closer = match (draft.grammar, draft.content_kind) {
            (Some(g), ContentKind::Markdown | ContentKind::Plain | ContentKind::Html)
                if !self.raw.is_empty() =>
            {
                let (len, closer) = shown_part(&draft.text, &g);
                cut_draft(&mut draft, len);
                closer.filter(|_| draft.content_kind == ContentKind::Markdown)
            }
            _ => None,
        };
        if let Some(c) = &closer {
            draft.text.push_str(c);
        }
        self.count_resolved(draft.text.len());
        let mut a = resolve_pending(draft, &self.options);
        strip_closer(&mut a, closer.as_deref());
        a
    }

    /// A provider stream's answer from its reader's draft, which holds the whole
    /// answer so far (no read of the stream again): as a one-shot parse gives it, or,
    /// while it streams (`pending`), with unresolved markers pending and the end of the
    /// text held back as [`whole_pending`](Self::whole_pending) does.
    fn provider_answer(&self, pending: bool) -> Answer {
        let Source_::Sse { acc, .. } = &self.data else {
            return self.whole();
        };
        let Some(draft) = acc.provider_draft() else {
            return self.whole();
        };
        let mut draft = draft.clone();
        self.count_resolved(draft.text.len());
        if !pending {
            if draft.text.is_empty() && !draft.sources.is_empty() {
                draft.diagnostics.push(crate::core::model::Diagnostic::warning(
                    "no-answer",
                    format!(
                        "the answer is empty and the {} data holds no text: pass the answer's text as `answer`",
                        draft.format.name()
                    ),
                ));
            }
            return resolve(draft, &self.options);
        }
        let closer = match draft.grammar {
            Some(g) if !draft.text.is_empty() => {
                let (len, closer) = shown_part(&draft.text, &g);
                cut_draft(&mut draft, len);
                closer
            }
            _ => None,
        };
        if let Some(c) = &closer {
            draft.text.push_str(c);
        }
        let mut a = resolve_pending(draft, &self.options);
        strip_closer(&mut a, closer.as_deref());
        a
    }

    fn sse_stream_text(&self) -> String {
        match &self.data {
            Source_::Sse { stream, .. } => stream.clone(),
            Source_::Json(_) => String::new(),
        }
    }

    pub(super) fn footnote_draft_sources(&self) -> Vec<crate::core::draft::DraftSource> {
        let mut out = Vec::new();
        for b in &self.blocks {
            for s in &b.answer.sources {
                if s.kind == "footnote" && !self.base_resolved.sources.iter().any(|x| x.id == s.id)
                {
                    let mut label = s.id.as_str();
                    while let Some(rest) = label.strip_prefix("fn-") {
                        label = rest;
                    }
                    let label = label.to_string();
                    let mut src = s.clone();
                    src.number = 0;
                    src.cited = false;
                    src.cite_count = 0;
                    if let Some(prev) = out
                        .iter_mut()
                        .find(|d: &&mut crate::core::draft::DraftSource| d.source.id == src.id)
                    {
                        merge_source(&mut prev.source, src);
                        continue;
                    }
                    out.push(crate::core::draft::DraftSource {
                        source: src,
                        keys: vec![crate::core::markers::SourceKey::Name(format!("^{label}"))],
                        given_number: crate::core::str_ops::uint_as(&label),
                    });
                }
            }
        }
        out
    }
}
