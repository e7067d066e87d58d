// Reading and writing the parts of a .wasm file the build scripts rewrite: LEB128
// numbers, names, and the sections (id, where the payload starts and ends).
// Used by scripts/wasm-strip-names.mjs and scripts/wasm-short-imports.mjs.

/** The unsigned LEB128 number at `at` in `b`, and the position after it. */
export function uleb(b, at) {
  let v = 0;
  let shift = 0;
  for (;;) {
    const byte = b[at++];
    if (byte === undefined) throw new Error('truncated LEB128');
    v += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(byte & 0x80)) return [v, at];
  }
}

/** `v` as unsigned LEB128. */
export function leb(v) {
  const out = [];
  do {
    let byte = v % 128;
    v = Math.floor(v / 128);
    if (v) byte |= 0x80;
    out.push(byte);
  } while (v);
  return Buffer.from(out);
}

/** The name (length-prefixed UTF-8) at `at`, and the position after it. */
export function name(b, at) {
  const [len, start] = uleb(b, at);
  return [b.toString('utf8', start, start + len), start + len];
}

/** `s` as a wasm name: its UTF-8 length, then the bytes. */
export function nameBytes(s) {
  const bytes = Buffer.from(s, 'utf8');
  return Buffer.concat([leb(bytes.length), bytes]);
}

/** A section: `id` and its payload, `payload` already encoded. */
export function section(id, payload) {
  return Buffer.concat([Buffer.from([id]), leb(payload.length), payload]);
}

/**
 * The sections of module `b` in order: `{ id, start, body, end }` (`start` at the id
 * byte, the payload from `body` to `end`; a custom section's name is `custom`). Throws
 * when `b` is not a wasm module or a section runs past its end.
 */
export function sections(b) {
  if (b.length < 8 || b.readUInt32LE(0) !== 0x6d736100) throw new Error('not a wasm module');
  const out = [];
  let at = 8;
  while (at < b.length) {
    const start = at;
    const id = b[at];
    const [size, body] = uleb(b, at + 1);
    const end = body + size;
    if (end > b.length) throw new Error(`the section at ${start} runs past the end`);
    out.push({ id, start, body, end, custom: id === 0 ? name(b, body)[0] : undefined });
    at = end;
  }
  return out;
}
