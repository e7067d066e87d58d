//! Class names that the renderer writes and the components look for, spelled once:
//! each as a class (`MARKER_LINK`) and as its selector (`MARKER_LINK_SEL`). The
//! stylesheet (the sheets `style/sheets.txt` lists) uses the same names.

/// Defines each class and its `.class` selector from one literal.
macro_rules! classes {
    ($($(#[$doc:meta])* $name:ident, $sel:ident = $class:literal;)*) => {$(
        $(#[$doc])*
        pub const $name: &str = $class;
        #[doc = concat!("The selector `.", $class, "`.")]
        pub const $sel: &str = concat!(".", $class);
    )*};
}

classes! {
    /// A marker's `<sup>` (its citation index in `data-cite`).
    MARKER, MARKER_SEL = "cite-marker";
    /// One link of a marker (a source of its citation).
    MARKER_LINK, MARKER_LINK_SEL = "cite-marker__link";
    /// The hidden anchor where a citation's span starts (its index in `data-s`).
    SPAN_START, SPAN_START_SEL = "cite-s";
    /// The hover card.
    CARD, CARD_SEL = "cite-card";
    /// The card's pager buttons (`data-nav` prev or next).
    CARD_NAV, CARD_NAV_SEL = "cite-card__nav";
    /// A source of the panel (its number in `data-source`).
    SOURCE, SOURCE_SEL = "cite-source";
    /// The button that expands a panel source.
    SOURCE_TOGGLE, SOURCE_TOGGLE_SEL = "cite-source__toggle";
    /// The answer column (its body, the copy button, the footnotes).
    ANSWER, ANSWER_SEL = "cite-answer";
    /// The element holding the answer's rendered blocks.
    ANSWER_BODY, ANSWER_BODY_SEL = "cite-answer__body";
    /// The footnotes section.
    FOOTNOTES, FOOTNOTES_SEL = "cite-footnotes";
    /// The footnotes' list.
    FOOTNOTES_LIST, FOOTNOTES_LIST_SEL = "cite-footnotes__list";
    /// The source panel.
    PANEL, PANEL_SEL = "cite-panel";
    /// The panel's list of sources.
    PANEL_LIST, PANEL_LIST_SEL = "cite-panel__list";
    /// Markers and sources lit by a hover (set by the components only).
    ACTIVE, ACTIVE_SEL = "cite-active";
    /// The source selected in the panel (set by the components only).
    SELECTED, SELECTED_SEL = "cite-selected";
}
