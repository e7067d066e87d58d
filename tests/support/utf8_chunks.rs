//! Cutting a stream's bytes as a network would, shared by the stream tests.

/// Splits `bytes` at `cuts` into the strings a streaming UTF-8 decoder gives: the
/// bytes of a character cut in two wait for the next chunk.
pub fn decode_chunks(bytes: &[u8], cuts: &[usize]) -> Vec<String> {
    let mut out = Vec::new();
    let mut held: Vec<u8> = Vec::new();
    let mut from = 0;
    for &cut in cuts.iter().chain(std::iter::once(&bytes.len())) {
        held.extend_from_slice(&bytes[from..cut]);
        from = cut;
        let valid = match std::str::from_utf8(&held) {
            Ok(_) => held.len(),
            Err(e) => e.valid_up_to(),
        };
        out.push(String::from_utf8(held[..valid].to_vec()).unwrap());
        held.drain(..valid);
    }
    assert!(held.is_empty());
    out
}
