//! An `update` that gives a view's streamed input whole again, as `<cited-answer>` and
//! the React wrapper do on every change: what the append-or-restart rule
//! ([`change_first`]) makes of it, for the driver.

use super::Mounted;
use crate::core::formats::CiteData;
use crate::core::live::{change_first, Change};
use crate::core::options::FormatChoice;

/// What [`follow`] does with a new value of the streamed input.
enum Step {
    /// The same value: nothing.
    Same,
    /// It grew: what comes after this byte is appended.
    Append(usize),
    /// Another value while a stream runs or the answer is streaming.
    Restart,
    /// Another value, no stream: read whole.
    Replace,
}

/// The inputs of an `update` (the answer, and whether it was `null`; the data), made
/// ready for the driver's `update`. With `streaming` (and no message) the streamed
/// input, the answer or for a raw event stream the data, is given whole again, as
/// `<cited-answer>` and the React wrapper do on every change, and [`change_first`]
/// decides from the input held, whether a stream runs, `streaming` and whether the
/// view was finished: growth is appended (a stream starts when none runs), so it is
/// taken out of the inputs and returned; another value starts the stream again from it
/// (the input left empty, the value returned to append), ending it at once when the
/// answer is not streaming (the flag returned); anything else is read whole. The other
/// input (late data, an answer beside an event stream) stays a plain update.
pub(super) fn follow(
    m: &mut Mounted,
    format: FormatChoice,
    (answer, null): (&mut Option<String>, bool),
    data: &mut Option<CiteData>,
    streaming: Option<bool>,
) -> Option<(String, bool)> {
    let running = m.driver.running();
    let (ended, no_answer) = (m.ended, m.no_answer);
    let (events, step) = m.driver.with_inputs(|held_answer, held_data| {
        let events =
            crate::core::formats::streams_events(format, data.as_ref().unwrap_or(held_data));
        let (prev, next) = match (events, &*answer, &*data) {
            (true, _, Some(CiteData::Text(next))) => (
                match held_data {
                    CiteData::Text(t) => Some(t.as_str()),
                    _ => None,
                },
                next,
            ),
            (false, Some(next), _) => ((!no_answer).then_some(held_answer), next),
            _ => return (events, None),
        };
        let step =
            streaming.map(
                |streaming| match change_first(prev, next, running, streaming, ended) {
                    Change::Same => Step::Same,
                    Change::Append(more) => Step::Append(next.len() - more.len()),
                    Change::Restart => Step::Restart,
                    Change::Replace => Step::Replace,
                },
            );
        (events, step)
    });
    if !events && answer.is_some() {
        m.no_answer = null;
    }
    let step = step?;
    let slot = if events {
        data.take()
            .map(|d| match d {
                CiteData::Text(t) => t,
                _ => String::new(),
            })
            .unwrap_or_default()
    } else {
        answer.take().unwrap_or_default()
    };
    let (value, then) = match step {
        Step::Same => (None, None),
        Step::Append(from) => {
            let mut next = slot;
            (None, Some((next.split_off(from), false)))
        }
        Step::Replace => (Some(slot), None),
        Step::Restart => (Some(String::new()), Some((slot, streaming == Some(false)))),
    };
    if let Some(value) = value {
        if events {
            *data = Some(CiteData::Text(value));
        } else {
            *answer = Some(value);
        }
    }
    if let Some((_, finish)) = &then {
        // A stream that ends with the new answer keeps what `finish()` said.
        m.ended &= *finish;
    }
    then
}
