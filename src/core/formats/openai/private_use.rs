//! The `openai` format's private-use markers (ChatGPT): a message's text with
//! `\u{e200}cite\u{e202}turn0search0\u{e201}` markers and its metadata's search result
//! groups and content references (see the module docs of `openai`).

use crate::core::draft::Draft;
use crate::core::formats::support::{self, classify_link, Link};
use crate::core::json_fields::{wrong_type, Fields};
use crate::core::markers::{SourceKey, TextSyntax};
use crate::core::model::{Diagnostic, Format, Source};
use crate::core::ordered_hash::OrderedHashSet;
use crate::core::untrusted_text::{clean_text, domain_of, normalize_url};
use serde_json::{Map, Value};

use super::{Builder, PROVIDER};

/// Builds the draft of a ChatGPT message with private-use markers.
pub(super) fn private_use(answer: Option<&str>, meta: Option<&Map<String, Value>>) -> Draft {
    let mut draft = Draft::new(Format::Openai, answer.unwrap_or(""));
    draft.grammar = Some(support::every_marker(TextSyntax::Markdown));
    let Some(o) = meta else {
        return draft;
    };
    let mut diags = Vec::new();
    let mut b = Builder::default();
    let mut f = Fields::new(o, "");
    match f.value("search_result_groups") {
        Some(Value::Array(groups)) => {
            for (g, group) in groups.iter().enumerate() {
                let gpath = format!("search_result_groups[{g}]");
                let Value::Object(go) = group else {
                    diags.push(wrong_type(&gpath, "a result group", group));
                    continue;
                };
                let domain = go
                    .get("domain")
                    .and_then(Value::as_str)
                    .map(|d| clean_text(d).to_ascii_lowercase())
                    .map(|d| d.strip_prefix("www.").map(str::to_string).unwrap_or(d))
                    .filter(|d| !d.is_empty());
                match go.get("entries") {
                    Some(Value::Array(entries)) => {
                        for (e, entry) in entries.iter().enumerate() {
                            let epath = format!("{gpath}.entries[{e}]");
                            web_entry(&mut b, entry, &epath, domain.as_deref(), &mut diags);
                        }
                    }
                    None | Some(Value::Null) => {}
                    Some(other) => {
                        diags.push(wrong_type(&format!("{gpath}.entries"), "an array", other))
                    }
                }
            }
        }
        Some(other) => diags.push(wrong_type("search_result_groups", "an array", other)),
        None => {}
    }
    match f.value("content_references") {
        Some(Value::Array(refs)) => {
            for (r, cr) in refs.iter().enumerate() {
                let rpath = format!("content_references[{r}]");
                let Value::Object(ro) = cr else {
                    diags.push(wrong_type(&rpath, "a content reference", cr));
                    continue;
                };
                let ty = ro.get("type").and_then(Value::as_str).unwrap_or("");
                let list = match ty {
                    "sources_footnote" => "sources",
                    t if t.starts_with("grouped_webpages") || t == "webpage" => "items",
                    _ => continue,
                };
                let Some(Value::Array(items)) = ro.get(list) else {
                    continue;
                };
                for (i, item) in items.iter().enumerate() {
                    let ipath = format!("{rpath}.{list}[{i}]");
                    web_entry(&mut b, item, &ipath, None, &mut diags);
                    if let Some(Value::Array(more)) = item.get("supporting_websites") {
                        for (m, w) in more.iter().enumerate() {
                            let wpath = format!("{ipath}.supporting_websites[{m}]");
                            web_entry(&mut b, w, &wpath, None, &mut diags);
                        }
                    }
                }
            }
        }
        Some(other) => diags.push(wrong_type("content_references", "an array", other)),
        None => {}
    }
    draft.metadata = f.rest();
    draft.sources = b.sources;
    draft.diagnostics = diags;
    support::cap_sources(&mut draft);
    draft
}

/// Unix seconds (ChatGPT's `pub_date`) as an ISO 8601 UTC time, `2024-10-01T00:00:00Z`.
pub(super) fn unix_to_iso(secs: f64) -> Option<String> {
    if !secs.is_finite() || !(0.0..=253_402_300_799.0).contains(&secs) {
        return None;
    }
    let secs = secs as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    Some(format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3_600,
        rem % 3_600 / 60,
        rem % 60
    ))
}

/// The ref id of `{turn_index, ref_type, ref_index}` (or a string already written
/// `turn0search0`).
pub(super) fn ref_id(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => {
            let s = s.trim();
            let ok = !s.is_empty()
                && s.len() <= 64
                && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
            ok.then(|| s.to_string())
        }
        Value::Object(o) => {
            let turn = o
                .get("turn_index")
                .and_then(crate::core::json_fields::as_uint)?;
            let ty = o.get("ref_type").and_then(Value::as_str)?;
            let index = o
                .get("ref_index")
                .and_then(crate::core::json_fields::as_uint)?;
            let ty_ok = !ty.is_empty()
                && ty.len() <= 32
                && ty.bytes().all(|b| b.is_ascii_lowercase() || b == b'_');
            ty_ok.then(|| format!("turn{turn}{ty}{index}"))
        }
        _ => None,
    }
}

/// One search result entry (or content reference item) as a source.
fn web_entry(
    b: &mut Builder,
    entry: &Value,
    path: &str,
    group_domain: Option<&str>,
    diags: &mut Vec<Diagnostic>,
) {
    let Value::Object(o) = entry else {
        diags.push(wrong_type(path, "a search result", entry));
        return;
    };
    let mut f = Fields::new(o, path);
    f.value("type");
    f.value("supporting_websites");
    let mut keys: Vec<String> = Vec::new();
    let mut key_seen = OrderedHashSet::new();
    let mut ref_type = None;
    if let Some(v) = f.value("ref_id") {
        match ref_id(v) {
            Some(id) => {
                key_seen.insert(id.clone());
                keys.push(id);
            }
            None => diags.push(wrong_type(&f.path_of("ref_id"), "a ref id", v)),
        }
        ref_type = v.get("ref_type").and_then(Value::as_str);
    }
    if let Some(v) = f.value("refs") {
        let list: Vec<&Value> = match v {
            Value::Array(a) => a.iter().collect(),
            other => vec![other],
        };
        for (i, r) in list.into_iter().enumerate() {
            match ref_id(r) {
                Some(id) => {
                    if key_seen.insert(id.clone()) {
                        keys.push(id)
                    }
                }
                None => diags.push(wrong_type(
                    &format!("{}[{i}]", f.path_of("refs")),
                    "a ref id",
                    r,
                )),
            }
            if ref_type.is_none() {
                ref_type = r.get("ref_type").and_then(Value::as_str);
            }
        }
    }
    let mut src = Source {
        kind: if ref_type == Some("file") {
            "file"
        } else {
            "web"
        }
        .to_string(),
        provider: Some(PROVIDER.to_string()),
        ..Source::default()
    };
    if let Some(u) = f.string("url", diags) {
        match classify_link(&u) {
            Link::Url(u) => src.url = Some(u),
            Link::Unsafe(scheme) => diags.push(support::unsafe_url(&f.path_of("url"), &scheme)),
            Link::Path(p) => {
                src.metadata.insert("url".into(), Value::String(p));
            }
            Link::Empty => {}
        }
    }
    if let Some(t) = f.string("title", diags) {
        src.title = support::title(&t);
    }
    if let Some(s) = f.string("snippet", diags) {
        support::set_text(&mut src, &s);
    }
    match f.value("pub_date") {
        Some(Value::Number(n)) => src.published = n.as_f64().and_then(unix_to_iso),
        Some(Value::String(d)) => src.published = support::title(d),
        Some(other) => diags.push(wrong_type(&f.path_of("pub_date"), "a date", other)),
        None => {}
    }
    src.domain = group_domain
        .map(str::to_string)
        .or_else(|| src.url.as_deref().and_then(domain_of));
    for (k, v) in f.rest() {
        src.metadata.entry(k).or_insert(v);
    }
    src.id = match (keys.first(), &src.url) {
        (Some(k), _) => k.clone(),
        (None, Some(u)) => normalize_url(u),
        (None, None) => {
            if src.title.is_none() {
                // Nothing to show and nothing names it.
                return;
            }
            format!("ref-{}", b.sources.len() + 1)
        }
    };
    // An entry whose key is known already is that source, whatever its url.
    let existing = keys.iter().find_map(|k| b.by_id.get(k).copied());
    let keys: Vec<SourceKey> = keys.into_iter().map(SourceKey::Name).collect();
    match existing {
        Some(i) => {
            if let Some(ds) = b.sources.get_mut(i) {
                crate::core::resolve::merge_source(&mut ds.source, src);
                for k in keys {
                    if let SourceKey::Name(n) = &k {
                        b.by_id.or_insert(n.clone(), i);
                    }
                    if b.keys_seen.insert((i, k.clone())) {
                        ds.keys.push(k);
                    }
                }
            }
        }
        None => {
            let names: Vec<String> = keys
                .iter()
                .filter_map(|k| match k {
                    SourceKey::Name(n) => Some(n.clone()),
                    SourceKey::Num(_) => None,
                })
                .collect();
            let i = b.add(src, keys);
            for n in names {
                b.by_id.or_insert(n, i);
            }
        }
    }
}
