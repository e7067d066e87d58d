//! Export (SPEC section 6): the answer with its citations as markdown with footnotes,
//! and as plain text with a `Sources` block.
