//! Bedrock's streams (ConverseStream, RetrieveAndGenerateStream): each event applied to
//! the response the stream rebuilds (`platform_stream`), which `parse_converse` or
//! `parse_kb` then reads.

use crate::core::json_fields::as_uint;
use serde_json::{Map, Value};

use super::str_at;

/// Applies one ConverseStream event to the response it rebuilds
/// (`{output: {message: {role, content}}, stopReason, usage, metrics}`), whose
/// blocks are kept in `blocks` by `contentBlockIndex` while the stream runs. Returns
/// the text a `delta.text` added at the end of the text, when that is all it did.
pub(crate) fn apply_converse_event(
    response: &mut Value,
    event: &Map<String, Value>,
) -> Option<String> {
    let Value::Object(r) = response else {
        return None;
    };
    let (name, body) = event.iter().find(|(k, _)| !k.starts_with('$'))?;
    let index = body
        .get("contentBlockIndex")
        .and_then(as_uint)
        .and_then(|i| usize::try_from(i).ok());
    let message = r
        .entry("output")
        .or_insert_with(|| serde_json::json!({"message": {"role": "assistant", "content": []}}));
    match name.as_str() {
        "messageStart" => {
            if let (Some(role), Some(m)) = (
                body.get("role"),
                message.get_mut("message").and_then(Value::as_object_mut),
            ) {
                m.insert("role".into(), role.clone());
            }
            return None;
        }
        "contentBlockStart" | "contentBlockDelta" | "contentBlockStop" => {}
        // `messageStop` (stopReason), `metadata` (usage, metrics), events to come.
        _ => {
            if let Value::Object(m) = body {
                for (k, v) in m {
                    r.insert(k.clone(), v.clone());
                }
            }
            return None;
        }
    }
    let content = message
        .get_mut("message")
        .and_then(|m| m.get_mut("content"))
        .and_then(Value::as_array_mut)?;
    match name.as_str() {
        "contentBlockStart" => {
            let b = block_at(content, index?)?;
            if let Some(Value::Object(start)) = body.get("start") {
                for (k, v) in start {
                    b.insert(k.clone(), v.clone());
                }
            }
        }
        "contentBlockDelta" => {
            let i = index?;
            // Only text of the last block that was there already goes straight to the
            // end of the answer (a new block may start a new paragraph).
            let last = i + 1 == content.len();
            let b = block_at(content, i)?;
            let delta = body.get("delta")?.as_object()?;
            let cited = b.contains_key("citationsContent");
            if let Some(t) = delta.get("text").and_then(Value::as_str) {
                let target = if cited {
                    b.get_mut("citationsContent")
                        .and_then(|c| c.get_mut("content"))
                        .and_then(|c| c.get_mut(0))
                        .and_then(|c| c.get_mut("text"))
                } else {
                    Some(
                        b.entry("text".to_string())
                            .or_insert_with(|| Value::String(String::new())),
                    )
                };
                let mut had_text = false;
                if let Some(Value::String(s)) = target {
                    had_text = !s.is_empty();
                    s.push_str(t);
                }
                return (last && had_text).then(|| t.to_string());
            }
            if let Some(c) = delta.get("citation") {
                if !cited {
                    let text = b
                        .remove("text")
                        .unwrap_or_else(|| Value::String(String::new()));
                    b.insert(
                        "citationsContent".into(),
                        serde_json::json!({"content": [{"text": text}], "citations": []}),
                    );
                }
                if let Some(cs) = b
                    .get_mut("citationsContent")
                    .and_then(|x| x.get_mut("citations"))
                    .and_then(Value::as_array_mut)
                {
                    cs.push(c.clone());
                }
                return None;
            }
            // toolUse input, reasoning text: kept in the block as they come.
            for (k, v) in delta {
                match (b.get_mut(k), v) {
                    (Some(Value::Object(old)), Value::Object(more)) => {
                        for (kk, vv) in more {
                            match (old.get_mut(kk), vv) {
                                (Some(Value::String(a)), Value::String(m)) => a.push_str(m),
                                _ => {
                                    old.insert(kk.clone(), vv.clone());
                                }
                            }
                        }
                    }
                    _ => {
                        b.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        _ => {}
    }
    None
}

/// How far past the blocks so far a stream event's index may point (a larger index is
/// ignored: it would only fill the answer with empty blocks).
pub(crate) const MAX_INDEX_GAP: usize = 64;

/// Block `i` of a content array being rebuilt, made (empty) when not there yet.
fn block_at(content: &mut Vec<Value>, i: usize) -> Option<&mut Map<String, Value>> {
    if i > content.len() + MAX_INDEX_GAP {
        return None;
    }
    while content.len() <= i {
        content.push(Value::Object(Map::new()));
    }
    content[i].as_object_mut()
}

/// Applies one RetrieveAndGenerateStream event to the response it rebuilds
/// (`{output: {text}, citations, guardrailAction}`). Returns the text an `output`
/// event added, when that is all it did.
pub(crate) fn apply_kb_event(response: &mut Value, event: &Map<String, Value>) -> Option<String> {
    let Value::Object(r) = response else {
        return None;
    };
    let (name, body) = event.iter().find(|(k, _)| !k.starts_with('$'))?;
    match name.as_str() {
        "output" => {
            let t = str_at(body, "text")?;
            let out = r
                .entry("output")
                .or_insert_with(|| serde_json::json!({"text": ""}));
            if let Some(Value::String(s)) = out.get_mut("text") {
                s.push_str(t);
                return Some(t.to_string());
            }
        }
        "citation" => {
            // The event's own fields, or (older SDKs) its deprecated `citation`.
            let c = if body.get("generatedResponsePart").is_some()
                || body.get("retrievedReferences").is_some()
            {
                let mut c = Map::new();
                for k in ["generatedResponsePart", "retrievedReferences"] {
                    if let Some(v) = body.get(k) {
                        c.insert(k.into(), v.clone());
                    }
                }
                Value::Object(c)
            } else {
                body.get("citation").cloned()?
            };
            let cs = r
                .entry("citations")
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Some(cs) = cs.as_array_mut() {
                cs.push(c);
            }
        }
        "guardrail" => {
            if let Some(a) = body.get("action") {
                r.insert("guardrailAction".into(), a.clone());
            }
        }
        other => {
            r.insert(other.to_string(), body.clone());
        }
    }
    None
}
