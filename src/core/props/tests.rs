use super::*;
use crate::core::options::{MarkerStyle, Numbering};

/// A props map from JSON text.
fn map(json: &str) -> Map<String, Value> {
    match serde_json::from_str(json) {
        Ok(Value::Object(m)) => m,
        other => panic!("not an object: {other:?}"),
    }
}

#[test]
fn mount_reads_options_and_display_apart() {
    let (props, options) = Props::mount(&map(
        r#"{"numbering": "given", "panel": true, "injectCss": null}"#,
    ))
    .expect("valid props");
    assert_eq!(options.numbering, Numbering::Given);
    assert_eq!(
        props.display,
        Display {
            panel: true,
            ..Display::default()
        }
    );
    // The display settings are not kept among the options.
    assert_eq!(props.options, map(r#"{"numbering": "given"}"#));
    let (props, options) = Props::mount(&Map::new()).expect("no props");
    assert_eq!(
        (props.display, options),
        (Display::default(), Options::default())
    );
}

#[test]
fn update_replaces_only_the_keys_present() {
    let (mut props, _) = Props::mount(&map(
        r#"{"numbering": "given", "markerStyle": "grouped", "panel": true, "footnotes": false}"#,
    ))
    .expect("valid props");
    let options = props
        .update(&map(r#"{"markerStyle": "domain", "footnotes": true}"#))
        .expect("valid update");
    assert_eq!(
        options.numbering,
        Numbering::Given,
        "an option not given stays"
    );
    assert_eq!(options.marker_style, MarkerStyle::Domain);
    assert_eq!(
        props.display,
        Display {
            panel: true,
            footnotes: true,
            ..Display::default()
        },
        "a display setting not given stays"
    );
    // An option set to null goes back to its default.
    let options = props
        .update(&map(r#"{"numbering": null}"#))
        .expect("valid update");
    assert_eq!(options.numbering, Numbering::default());
    assert_eq!(options.marker_style, MarkerStyle::Domain);
}

#[test]
fn set_options_replaces_every_option_but_keeps_absent_display_settings() {
    let (mut props, _) = Props::mount(&map(
        r#"{"numbering": "given", "panel": true, "copyButton": true}"#,
    ))
    .expect("valid props");
    let options = props
        .replace(&map(r#"{"markerStyle": "grouped", "copyButton": false}"#))
        .expect("valid options");
    assert_eq!(
        options.numbering,
        Numbering::default(),
        "an absent option is reset"
    );
    assert_eq!(options.marker_style, MarkerStyle::Grouped);
    assert_eq!(
        props.display,
        Display {
            panel: true,
            copy_button: false,
            ..Display::default()
        }
    );
    assert_eq!(props.options, map(r#"{"markerStyle": "grouped"}"#));
}

#[test]
fn a_bad_value_names_its_prop_and_changes_nothing() {
    let (mut props, _) =
        Props::mount(&map(r#"{"panel": true, "numbering": "given"}"#)).expect("valid props");
    let before = props.clone();
    let err = props.update(&map(r#"{"panel": "yes"}"#)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "option `panel` must be true or false, not a string"
    );
    let err = props
        .update(&map(r#"{"footnotes": false, "numbering": "last"}"#))
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("invalid option `numbering`: unknown value `last`"),
        "{err}"
    );
    assert_eq!(props, before, "a bad value changes nothing");
    let err = props.replace(&map(r#"{"numbering": "last"}"#)).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("invalid option `numbering`: unknown value `last`"),
        "{err}"
    );
    assert_eq!(
        Props::mount(&map(r#"{"footnotes": 1}"#)).unwrap_err(),
        PropError("option `footnotes` must be true or false, not a number".into())
    );
}

#[test]
fn render_props_default_to_no_panel_and_the_cite_prefix() {
    let r = RenderProps::of(&Map::new()).expect("no options");
    assert_eq!((r.panel, r.id_prefix.as_str()), (false, "cite"));
    let r = RenderProps::of(&map(
        r#"{"panel": true, "idPrefix": "a1", "numbering": "given"}"#,
    ))
    .expect("valid options");
    assert_eq!((r.panel, r.id_prefix.as_str()), (true, "a1"));
    assert_eq!(r.options.numbering, Numbering::Given);
    // An id prefix that is not a string is the default one.
    let r = RenderProps::of(&map(r#"{"idPrefix": 3}"#)).expect("valid options");
    assert_eq!(r.id_prefix, "cite");
}

#[test]
fn lone_surrogates_name_the_inputs_that_had_them() {
    assert_eq!(lone_surrogates(false, false), None);
    let d = lone_surrogates(true, false).expect("a diagnostic");
    assert_eq!(d.code, INVALID_UTF16);
    assert!(
        d.message.starts_with("the answer contained"),
        "{}",
        d.message
    );
    let d = lone_surrogates(false, true).expect("a diagnostic");
    assert!(d.message.starts_with("the data contained"), "{}", d.message);
    let d = lone_surrogates(true, true).expect("a diagnostic");
    assert!(
        d.message.starts_with("the answer and the data"),
        "{}",
        d.message
    );
}

#[test]
fn lone_surrogate_escapes_are_replaced() {
    let fix = fix_lone_surrogate_escapes;
    assert_eq!(fix(r#"{"a":"x"}"#), None);
    assert_eq!(fix(r#"{"a":"\ud83d\ude00"}"#), None);
    assert_eq!(fix(r#"{"a":"\\ud800"}"#), None);
    assert_eq!(
        fix(r#"{"a":"\ud800x"}"#).as_deref(),
        Some(r#"{"a":"\ufffdx"}"#)
    );
    assert_eq!(
        fix(r#"{"\udc00":"é\ud83d"}"#).as_deref(),
        Some(r#"{"\ufffd":"é\ufffd"}"#)
    );
    assert_eq!(
        fix(r#"["\ud800\ud800\udc00"]"#).as_deref(),
        Some(r#"["\ufffd\ud800\udc00"]"#)
    );
    assert_eq!(fix("\\u12"), None);
    assert_eq!(fix("\\"), None);
}

#[test]
fn a_data_error_is_warned_once_until_another_comes() {
    let mut w = DataWarning::default();
    assert_eq!(w.next(None), None);
    let first = w.next(Some(("bad source".into(), 3))).expect("a warning");
    assert_eq!(
        first,
        "citekit: the citation data could not be read as given: bad source (and 2 more); the answer shows without those citations"
    );
    assert_eq!(
        w.next(Some(("bad source".into(), 4))),
        None,
        "the same first error"
    );
    let other = w
        .next(Some(("other".into(), 1)))
        .expect("a new first error");
    assert!(other.contains(": other; the answer"), "{other}");
    // Once the data reads, the same error later is new again.
    assert_eq!(w.next(None), None);
    assert!(w.next(Some(("other".into(), 1))).is_some());
}
