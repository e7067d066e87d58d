//! Updates of a mounted answer: new data or a new message, a streamed chunk appended
//! (or the stream restarted when the text no longer extends what was shown), the end of
//! a stream, and the settling in place that patches only the markers and blocks that
//! changed.

use super::{Display, Driver, MessageSeen};
use crate::components::answer::dom::blocks::{patch_markers, render_stream_tail, show_answer};
use crate::components::answer::dom::highlight::apply_highlight;
use crate::components::answer::html::answer_blocks;
use crate::components::card::dom::show_card;
use crate::core::formats::{CiteData, Data};
use crate::core::live::{change, split_message, Change, StreamInfo};
use crate::core::model::{Answer, ContentKind};
use crate::core::stream::StreamParser;
use crate::dom::state::kept_card;
use crate::render::{self, RenderOptions};
use serde_json::Value;
use std::sync::Arc;

impl Driver {
    /// New data: the lists are drawn again even where the sources' numbers, counts and
    /// states stay (the same ids with new titles, urls or snippets).
    pub(super) fn data_replaced(&self) {
        if let Ok(mut key) = self.0.notes_key.try_borrow_mut() {
            key.stale = true;
        }
    }

    /// Adds streamed text: to the answer, or (format `sse`) to the event stream. The
    /// first append starts the stream.
    pub fn append(&self, text: &str) {
        if text.is_empty() {
            return;
        }
        self.flush_deferred();
        let i = &self.0;
        if self.is_sse() {
            match &mut *i.data.borrow_mut() {
                CiteData::Text(t) => t.push_str(text),
                other => *other = CiteData::Text(text.to_string()),
            }
        } else {
            i.answer.borrow_mut().push_str(text);
        }
        if !i.streaming.get() {
            self.start_stream();
            return;
        }
        let prev_stable = self.stable_len();
        let pushed = match i.parser.borrow_mut().as_mut() {
            Some(p) => {
                p.push(text);
                true
            }
            None => false,
        };
        if !pushed {
            // No parser (the data was refused): the whole text parsed again.
            self.parse_whole();
        }
        self.show_appended(self.redrawn_from(prev_stable));
    }

    /// Starts a stream over the answer and data held now (shown from the start when
    /// nothing showed, else settled from what showed).
    pub(super) fn start_stream(&self) {
        let i = &self.0;
        i.streaming.set(true);
        let old = self.current();
        let old_r = i.render.borrow().clone();
        let shown_before = !old.text.is_empty();
        self.restart_stream();
        let info = StreamInfo {
            streaming: true,
            prev_stable: 0,
            reread: true,
        };
        if shown_before {
            self.settle(&old, &old_r, StreamInfo::default(), info, false);
        } else {
            self.show_appended(0);
        }
    }

    /// Shows a Vercel AI SDK message (format `ai-sdk`: a `UIMessage`, its parts or the
    /// messages array) given whole on every change, as `useChat` hands it.
    ///
    /// While `live`, each message is a later state of the one before: when its answer
    /// text extends the text so far, only the new tail is appended (the blocks shown
    /// stay), and its data is read again only when something besides the text changed
    /// (a new source, a part's provider metadata, the message metadata); text that is
    /// not an extension (another message) starts the stream again. The first live
    /// message starts the stream, even with no text yet (Perplexity's sources come
    /// first). Not `live`: a running stream ends with this message (the answer then
    /// equals a one-shot parse of it); otherwise the message is shown whole. The same
    /// message again changes nothing, whatever `live` says, but ends a running stream
    /// when it is false.
    pub fn set_message(&self, message: Value, live: bool, display: Display) {
        self.flush_deferred();
        let i = &self.0;
        let unchanged = i
            .message
            .borrow()
            .as_ref()
            .is_some_and(|m| m.value == message);
        if unchanged {
            // The same message again: only the end of its stream is news. (A chat page
            // passes `streaming` to every message while the last one streams: the
            // others stay as they are.)
            if !live {
                self.finish();
            }
            return;
        }
        let (text, rest) = split_message(&message);
        let same_rest = i.message.borrow().as_ref().is_some_and(|m| m.rest == rest);
        let grows = matches!(
            change(&i.answer.borrow(), &text, true, true, false),
            Change::Same | Change::Append(_)
        );
        *i.message.borrow_mut() = Some(MessageSeen {
            value: message.clone(),
            rest,
        });
        let data = CiteData::Json(message);
        if !live {
            let running = i.streaming.get();
            // The stream ends with the whole message as data (the running parser may
            // hold an earlier state of its parts' text).
            self.update(Some(text), Some(data), None, display);
            if running {
                self.finish();
            }
            return;
        }
        if !i.streaming.get() {
            *i.answer.borrow_mut() = text;
            self.data_replaced();
            *i.data.borrow_mut() = data;
            self.start_stream();
            return;
        }
        // Only text that grew: appended, the data kept. Anything else is read again.
        let data = (!same_rest || !grows).then_some(data);
        self.update(Some(text), data, None, display);
    }

    /// Forgets the message of [`Driver::set_message`]: an answer or data given from now
    /// on is the view's input, and the end of a stream reads no message.
    pub fn leave_message(&self) {
        self.0.message.borrow_mut().take();
    }

    /// Whether a stream runs (appends came and `finish` did not).
    pub fn running(&self) -> bool {
        self.0.streaming.get()
    }

    /// Calls `f` with the answer text and the data held (for a raw event stream, the
    /// stream so far): what a host given its inputs whole again compares them with.
    pub fn with_inputs<T>(&self, f: impl FnOnce(&str, &CiteData) -> T) -> T {
        f(&self.0.answer.borrow(), &self.0.data.borrow())
    }

    /// Ends the stream: what was held back is read, and the answer shows as a one-shot
    /// parse of the whole text would.
    pub fn finish(&self) {
        self.flush_deferred();
        let i = &self.0;
        if !i.streaming.get() {
            return;
        }
        // A message's last state may differ from the data the parser holds by its
        // parts' text only: the parser reads the last one before it resolves.
        let latest = i
            .message
            .borrow()
            .as_ref()
            .map(|m| CiteData::Json(m.value.clone()))
            .filter(|d| *d != *i.data.borrow());
        if let Some(d) = latest {
            let display = i.display.get();
            self.update(None, Some(d), None, display);
        }
        let old = self.current();
        let old_r = i.render.borrow().clone();
        let prev_stable = self.stable_len();
        i.streaming.set(false);
        let done = i.parser.borrow_mut().take().map(|mut p| p.finish().clone());
        match done {
            Some(m) => *i.model.borrow_mut() = Arc::new(m),
            None => self.parse_whole(),
        }
        let old_info = StreamInfo {
            streaming: true,
            prev_stable,
            reread: false,
        };
        let info = StreamInfo {
            streaming: false,
            prev_stable,
            reread: true,
        };
        self.settle(&old, &old_r, old_info, info, false);
    }

    /// Whether the data is a raw event stream that `append` adds to (`sse`, an `ai-sdk`
    /// UI message stream).
    pub(super) fn is_sse(&self) -> bool {
        crate::core::formats::streams_events(self.0.options.borrow().format, &self.0.data.borrow())
    }

    pub(super) fn stable_len(&self) -> usize {
        self.0
            .parser
            .borrow()
            .as_ref()
            .map_or(0, |p| p.stable_len())
    }

    /// Where the body is rendered again after a push: from the stable length before it,
    /// or from an earlier completed block the push read again (a provider's span that
    /// came after the text it covers: `StreamParser::rewritten_from`).
    pub(super) fn redrawn_from(&self, prev_stable: usize) -> usize {
        self.0
            .parser
            .borrow()
            .as_ref()
            .and_then(|p| p.rewritten_from())
            .map_or(prev_stable, |from| from.min(prev_stable))
    }

    pub(super) fn info(&self) -> StreamInfo {
        StreamInfo {
            streaming: self.0.streaming.get(),
            prev_stable: self.stable_len(),
            reread: false,
        }
    }

    /// Parses the whole answer at once (no stream, or a stream whose data was refused:
    /// then without a marker still arriving at its end).
    pub(super) fn parse_whole(&self) {
        let i = &self.0;
        let answer = i.answer.borrow();
        let data = i.data.borrow();
        let opts = i.options.borrow();
        let sse = crate::core::formats::streams_events(opts.format, &data);
        // An empty answer: the text is in the data (sse, anthropic, ...).
        let text = (!answer.is_empty() && !sse).then(|| self.shown_answer(&answer));
        let m = crate::core::parse_lenient(text, data.as_data(), &opts);
        *i.model.borrow_mut() = Arc::new(m);
    }

    /// Starts the stream again over everything received so far.
    pub(super) fn restart_stream(&self) {
        let i = &self.0;
        let sse = self.is_sse();
        let made = {
            let data = i.data.borrow();
            let start = if sse { Data::Text("") } else { data.as_data() };
            StreamParser::new(start, &i.options.borrow())
        };
        match made {
            Ok(mut p) => {
                if sse {
                    if let CiteData::Text(t) = &*i.data.borrow() {
                        p.push(t);
                    }
                } else {
                    p.push(&i.answer.borrow());
                }
                *i.parser.borrow_mut() = Some(p);
            }
            Err(e) => self.fall_back(&e),
        }
    }

    /// The data could not start a stream: the answer is parsed whole on every change,
    /// with the data's error as a diagnostic.
    pub(super) fn fall_back(&self, e: &crate::core::error::ParseError) {
        let i = &self.0;
        i.parser.borrow_mut().take();
        let answer = i.answer.borrow();
        let m = crate::core::live::refused(self.shown_answer(&answer), &i.options.borrow(), e);
        *i.model.borrow_mut() = Arc::new(m);
    }

    /// What of `answer` a view without a stream parser shows: while it streams, the text
    /// without a marker or link still arriving at its end, as a parser would hold back.
    pub(super) fn shown_answer<'a>(&self, answer: &'a str) -> &'a str {
        if self.0.streaming.get() {
            crate::core::stream::shown_without_parser(answer)
        } else {
            answer
        }
    }

    /// After a plain append: the open tail rendered again, footnotes and panel when
    /// their sources changed, the card re-anchored when its marker was redrawn.
    pub(super) fn show_appended(&self, prev_stable: usize) {
        let i = &self.0;
        let r = i.render.borrow().clone();
        let Ok(nodes) = i.nodes.try_borrow() else {
            return;
        };
        let Some(nodes) = nodes.as_ref() else { return };
        let Ok(parser) = i.parser.try_borrow() else {
            return;
        };
        // Without a parser (the data was refused) the answer so far is parsed whole.
        let whole;
        let a = match parser.as_ref() {
            Some(p) => p.snapshot(),
            None => {
                whole = i.model.borrow().clone();
                &*whole
            }
        };
        let Ok(mut blocks) = i.blocks.try_borrow_mut() else {
            return;
        };
        if a.content_kind != ContentKind::Markdown || parser.is_none() {
            // HTML or JSON answers are not block-structured, nor is a whole parse's
            // answer: rendered whole, unchanged blocks kept.
            crate::components::answer::dom::blocks::patch_blocks(
                &nodes.body,
                &mut blocks,
                answer_blocks(a, &r),
                &Some,
            );
        } else {
            let stable = prev_stable.min(a.text.len());
            // New sources (footnote definitions) can turn markers already shown live.
            if i.shown_sources.replace(a.sources.len()) != a.sources.len() {
                let fixed: Vec<usize> =
                    (0..a.citations.partition_point(|c| c.end < stable)).collect();
                patch_markers(&nodes.body, a, &r, &fixed);
            }
            if let Ok(mut defs) = i.defs.try_borrow_mut() {
                render_stream_tail(&nodes.body, &mut blocks, &mut defs, a, &r, stable, &Some);
            }
        }
        drop(blocks);
        // Footnotes and panel follow once per frame: a frame shows them up to date,
        // and the chunks between two frames (many, when text arrives fast) pay once.
        self.schedule_notes();
        // The card's marker was in the redrawn tail: anchor it again.
        if let Some(c) = i.card.get() {
            let gone = i
                .card_link
                .borrow()
                .as_ref()
                .is_none_or(|l| !l.is_connected());
            if gone {
                let c = (c.ci < a.citations.len() && !a.citations[c.ci].sources.is_empty())
                    .then_some(c);
                i.card.set(c);
                if let Ok(mut last) = i.card_link.try_borrow_mut() {
                    show_card(&nodes.card, &mut last, a, &r, c);
                }
            }
        }
        if i.lit.get() {
            i.lit
                .set(apply_highlight(&nodes.root, a, &r, i.highlight.get()));
        }
    }

    /// After new data, options or the end of a stream: the body settles from `old` to
    /// the answer now, the card stays on its citation, the rest follows.
    pub(super) fn settle(
        &self,
        old: &Answer,
        old_r: &RenderOptions,
        old_info: StreamInfo,
        info: StreamInfo,
        theme_only: bool,
    ) {
        let i = &self.0;
        let r = i.render.borrow().clone();
        let Ok(nodes) = i.nodes.try_borrow() else {
            return;
        };
        let Some(nodes) = nodes.as_ref() else { return };
        let style = render::marker_style_name(i.options.borrow().marker_style);
        if nodes.root.get_attribute("data-marker-style").as_deref() != Some(style) {
            let _ = nodes.root.set_attribute("data-marker-style", style);
        }
        self.with_model(|a| {
            if !theme_only {
                i.shown_sources.set(a.sources.len());
                if let (Ok(mut blocks), Ok(mut defs)) =
                    (i.blocks.try_borrow_mut(), i.defs.try_borrow_mut())
                {
                    show_answer(
                        &nodes.body,
                        &mut blocks,
                        &mut defs,
                        Some((old, old_r, old_info)),
                        a,
                        &r,
                        info,
                    );
                }
            }
            // The theme changes nothing the lists show: the root's class here.
            self.set_root_class(nodes, a);
            i.notes_pending.set(false);
            self.sync_notes(nodes, a, &r, !theme_only && *old_r != *r);
            if let Some(c) = i.card.get().filter(|_| !theme_only) {
                let now = kept_card(old, a, c);
                i.card.set(now);
                if let Ok(mut last) = i.card_link.try_borrow_mut() {
                    show_card(&nodes.card, &mut last, a, &r, now);
                }
            }
            if i.lit.get() {
                i.lit
                    .set(apply_highlight(&nodes.root, a, &r, i.highlight.get()));
            }
        });
    }
}
