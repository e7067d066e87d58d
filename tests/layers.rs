//! The direction of the crate's imports, read from the sources as text (so code behind
//! any `cfg`, which no single build compiles, is read too).
//!
//! The layers, from the ground up (docs/architecture.md, "Layers"):
//! - `core` (`src/core`): the model, the formats, the CommonMark parser, the marker
//!   scanner, resolution. Pure: no browser, no Leptos. Its CommonMark parser
//!   (`core::commonmark`) is the one place that decides the markdown structure, at the
//!   ground of the layer: it reads only core's string, hash-map and Unicode helpers, and the
//!   scanner, the stream and the renderer read it.
//! - `render` (`src/render`): what every component's markup shares (escaping, class
//!   names, options, the pieces several components write). Pure too.
//! - `dom` (`src/dom`): what every component shares in a browser, without Leptos (the
//!   page's listeners, the state of a mounted answer, morphing, DOM helpers).
//! - `web` (`src/web`, the public Leptos API) and `js` (`src/js.rs`, the npm package's
//!   bindings): two hosts side by side, neither importing the other.
//!
//! The components (`src/components/<name>/`: the answer, the card, the panel, the
//! footnotes) hold files of three layers each: their `dom.rs` (or `dom/`) is of `dom`,
//! their `leptos.rs` (or `leptos/`) of `web`, and the rest (their markup, `html.rs` or
//! `html/`, and the `mod.rs` files that declare them) of `render`; the Leptos context
//! they share (`components/context.rs`) is of `web`. So the answer's driver, the npm
//! package's view (`components/answer/dom/driver/`), is of `dom`, and the Leptos
//! `CitedAnswer` (`components/answer/leptos/`) of `web`.
//!
//! A file may import its own layer and the layers below it (what the browser supplies to
//! the pure layers, the entity and Unicode tables, is handed in from above at start-up),
//! and no files import each other in a loop. Folder by folder, `src/components` sits
//! above `src/render` and `src/dom` and below the hosts: no file outside it imports it
//! but the hosts' (`src/web`, `src/js.rs`, `src/lib.rs`), and it imports neither host.
//!
//! An import is a path the code names: from
//! `crate::`, `super::`, `self::` or a child module's name, in a `use` or in an
//! expression, taken to the file of the deepest module it names. A module's use of its
//! own ancestors (`super::Event` in a child of the module that defines `Event`) is not
//! an import here: a parent and the children it declares are one module tree, and a
//! child reads its parent's shared items; a parent's use of a child is one.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A module path from the crate root (`["core", "markers", "inline"]`).
type ModPath = Vec<String>;

/// The layer of a module and its rank: a file may import ranks below its own and its own
/// layer. `None` for the crate root, which declares every layer.
fn layer(m: &[String]) -> Option<(&'static str, u8)> {
    match m.first().map(String::as_str) {
        Some("core") => Some(("core", 0)),
        Some("render") => Some(("render", 1)),
        // A component's parts, each of its own layer (the module docs above), and the
        // Leptos context the components' Leptos parts share.
        Some("components") => match (m.get(1).map(String::as_str), m.get(2).map(String::as_str)) {
            (Some("context"), _) => Some(("web", 3)),
            (_, Some("dom")) => Some(("dom", 2)),
            (_, Some("leptos")) => Some(("web", 3)),
            _ => Some(("render", 1)),
        },
        Some("dom") => Some(("dom", 2)),
        Some("web") => Some(("web", 3)),
        Some("js") => Some(("js", 3)),
        _ => None,
    }
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file defines: `src/a/b.rs` and `src/a/b/mod.rs` are `a::b`.
fn module_of(src: &Path, file: &Path) -> ModPath {
    let rel = file.strip_prefix(src).expect("a file under src/");
    let mut parts: ModPath = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if !(stem == "mod" || (parts.is_empty() && stem == "lib")) {
        parts.push(stem.to_string());
    }
    parts
}

/// The code of a Rust file with comments and string and char literals blanked out, so
/// that a path named in a doc comment or a string is not taken for an import.
fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    while i < c.len() {
        let at = |k: usize| c.get(k).copied().unwrap_or('\0');
        if at(i) == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if at(i) == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if at(i) == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if at(i) == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if (at(i) == 'r' || (at(i) == 'b' && at(i + 1) == 'r'))
            && (i == 0 || !ident(c[i - 1]))
            && {
                let mut k = i + if at(i) == 'b' { 2 } else { 1 };
                while at(k) == '#' {
                    k += 1;
                }
                at(k) == '"'
            }
        {
            // A raw string: r"...", r#"..."#, br"...".
            i += if at(i) == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while at(i) == '#' {
                hashes += 1;
                i += 1;
            }
            i += 1;
            while i < c.len() {
                if at(i) == '"' && (1..=hashes).all(|h| at(i + h) == '#') {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
            out.push_str("\"\"");
        } else if at(i) == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if at(i) == '\'' && (at(i + 1) == '\\' || at(i + 2) == '\'') {
            // A char literal ('a', '\n', '\u{1F600}'); a lifetime has no closing quote.
            i += 1;
            while i < c.len() && c[i] != '\'' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// A token of the code: an identifier (or keyword), `::`, or one punctuation character.
fn tokens(code: &str) -> Vec<String> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if c[i].is_alphanumeric() || c[i] == '_' {
            let s = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push(c[s..i].iter().collect());
        } else if c[i] == ':' && c.get(i + 1) == Some(&':') {
            out.push("::".into());
            i += 2;
        } else {
            if !c[i].is_whitespace() {
                out.push(c[i].to_string());
            }
            i += 1;
        }
    }
    out
}

/// Reads a path after its first segment at `t[i]` (`a::b::{c, d::e}`), adding every
/// full path it names (groups expanded) to `out`; returns the index after it.
fn read_path(t: &[String], mut i: usize, prefix: ModPath, out: &mut Vec<ModPath>) -> usize {
    let mut path = prefix;
    loop {
        let seg = &t[i];
        if seg == "{" {
            // A group: each element continues the path so far.
            i += 1;
            while i < t.len() && t[i] != "}" {
                if t[i] == "," {
                    i += 1;
                    continue;
                }
                if t[i] == "self" || t[i] == "*" {
                    // `{self, ..}` and `::*` name the module itself.
                    out.push(path.clone());
                    i += 1;
                } else {
                    i = read_path(t, i, path.clone(), out);
                }
                // `x as y`
                if t.get(i).is_some_and(|s| s == "as") {
                    i += 2;
                }
            }
            return i + 1;
        }
        if !seg.chars().all(|ch| ch.is_alphanumeric() || ch == '_') {
            out.push(path);
            return i;
        }
        path.push(seg.clone());
        if t.get(i + 1).is_some_and(|s| s == "::") {
            i += 2;
            if i >= t.len() {
                out.push(path);
                return i;
            }
        } else {
            out.push(path);
            return i + 1;
        }
    }
}

/// What a file names: every path from `crate::`, `super::`, `self::` or one of its own
/// child modules (`html::run` in the module that declares `mod html;`), made whole from
/// the crate root; and its child modules that exist only in tests.
#[derive(Default)]
struct Names {
    paths: Vec<ModPath>,
    test_modules: Vec<ModPath>,
}

/// Whether the attribute in `attr` (the tokens between `#[` and `]`) is a `cfg` that
/// holds in tests only (`cfg(test)`, `cfg(all(test, ..))`; not `cfg(not(test))`).
fn test_only(attr: &[String]) -> bool {
    attr.first().is_some_and(|a| a == "cfg")
        && attr
            .iter()
            .enumerate()
            .any(|(k, s)| s == "test" && !(k >= 2 && attr[k - 1] == "(" && attr[k - 2] == "not"))
}

/// The index after the item that starts at `t[i]`: its `;`, its closing brace, or, for
/// a struct field, an argument or a match arm under an attribute (`#[cfg(test)] count:
/// usize,`), its `,`; a closing brace of the enclosing block ends it too, unread.
fn item_end(t: &[String], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < t.len() {
        match t[i].as_str() {
            ";" | "," if depth == 0 => return i + 1,
            "{" | "(" | "[" => depth += 1,
            "}" | ")" | "]" => {
                if depth == 0 {
                    return i;
                }
                depth -= 1;
                if depth == 0 && t[i] == "}" {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// The names a file's code takes (see [`Names`]). Test code (`#[cfg(test)]` items, the
/// unit tests at the bottom of a file) is left out: a test may drive the whole pipeline
/// from any layer, and the layering is that of what ships. Inline modules shift what
/// `super` and `self` mean inside them. `modules` are the crate's file modules.
fn references(file_mod: &ModPath, text: &str, modules: &BTreeSet<ModPath>) -> Names {
    let t = tokens(&code_only(text));
    let mut out = Names::default();
    // The brace depth at which each inline module open here closes.
    let mut inline: Vec<usize> = Vec::new();
    let mut here = file_mod.clone();
    let mut depth = 0usize;
    let mut i = 0;
    while i < t.len() {
        match t[i].as_str() {
            "{" => depth += 1,
            "}" => {
                depth = depth.saturating_sub(1);
                if inline.last() == Some(&depth) {
                    inline.pop();
                    here.pop();
                }
            }
            "#" if t.get(i + 1).is_some_and(|s| s == "[") => {
                let Some(close) = (i + 2..t.len()).find(|&k| t[k] == "]") else {
                    break;
                };
                if test_only(&t[i + 2..close]) {
                    let item = close + 1;
                    if t.get(item).is_some_and(|s| s == "mod")
                        && t.get(item + 2).is_some_and(|s| s == ";")
                    {
                        out.test_modules
                            .push([here.as_slice(), &[t[item + 1].clone()]].concat());
                    }
                    i = item_end(&t, item);
                    continue;
                }
            }
            "mod" if t.get(i + 2).is_some_and(|s| s == "{") => {
                here.push(t[i + 1].clone());
                inline.push(depth);
                depth += 1;
                i += 3;
                continue;
            }
            "crate" | "super" | "self" if t.get(i + 1).is_some_and(|s| s == "::") => {
                let preceded_by_path = i > 0 && t[i - 1] == "::";
                if !preceded_by_path {
                    let mut base = if t[i] == "crate" {
                        Vec::new()
                    } else {
                        here.clone()
                    };
                    let mut j = i;
                    // `super::super::x`, `self::x`.
                    while j + 1 < t.len()
                        && (t[j] == "super" || t[j] == "self" || t[j] == "crate")
                        && t[j + 1] == "::"
                    {
                        if t[j] == "super" {
                            base.pop();
                        }
                        j += 2;
                    }
                    if j < t.len() {
                        i = read_path(&t, j, base, &mut out.paths);
                        continue;
                    }
                }
            }
            name if t.get(i + 1).is_some_and(|s| s == "::")
                && !(i > 0 && t[i - 1] == "::")
                && modules.contains(&[here.as_slice(), &[name.to_string()]].concat()) =>
            {
                i = read_path(&t, i, here.clone(), &mut out.paths);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The crate's files, each with its module and the files it imports (with the names
/// that led there).
struct Crate {
    files: BTreeMap<ModPath, PathBuf>,
    /// file module -> imported file module -> a name taken.
    edges: BTreeMap<ModPath, BTreeMap<ModPath, String>>,
}

fn read_crate() -> Crate {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    let mut files: BTreeMap<ModPath, PathBuf> = paths
        .iter()
        .map(|p| (module_of(&src, p), p.clone()))
        .collect();
    let modules: BTreeSet<ModPath> = files.keys().cloned().collect();
    let mut names: BTreeMap<ModPath, Names> = BTreeMap::new();
    for (m, path) in &files {
        let text = fs::read_to_string(path).expect("a readable source file");
        names.insert(m.clone(), references(m, &text, &modules));
    }
    // Files that exist only in tests (`#[cfg(test)] mod tests;`) are no part of it.
    let tests: Vec<ModPath> = names
        .values()
        .flat_map(|n| n.test_modules.clone())
        .collect();
    files.retain(|m, _| !tests.iter().any(|t| m.starts_with(t)));
    let mut edges: BTreeMap<ModPath, BTreeMap<ModPath, String>> = BTreeMap::new();
    for m in files.keys() {
        let to = edges.entry(m.clone()).or_default();
        for r in &names[m].paths {
            // The longest prefix of the path that is a file's module.
            let Some(target) = (0..=r.len())
                .rev()
                .map(|k| r[..k].to_vec())
                .find(|p| files.contains_key(p))
            else {
                continue;
            };
            // Itself, or an ancestor of its own module tree: not an import.
            if m.starts_with(&target) {
                continue;
            }
            to.entry(target).or_insert_with(|| r.join("::"));
        }
    }
    Crate { files, edges }
}

/// A module's file, from the crate root (`src/core/ordered_hash.rs`).
fn shown(c: &Crate, m: &ModPath) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    c.files[m]
        .strip_prefix(root)
        .expect("under the crate")
        .display()
        .to_string()
}

/// No file of a layer imports a file of a layer above it (or of the other host):
/// `core` and `render` know nothing of the browser.
#[test]
fn imports_run_down_the_layers() {
    let c = read_crate();
    let mut wrong = Vec::new();
    for (from, to) in &c.edges {
        let Some((fl, fr)) = layer(from) else {
            continue;
        };
        for (target, name) in to {
            let Some((tl, tr)) = layer(target) else {
                continue;
            };
            if fl != tl && tr >= fr {
                wrong.push(format!(
                    "{} ({fl}) -> {} ({tl}): {name}",
                    shown(&c, from),
                    shown(&c, target)
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports that run up a layer or across to the other host:\n{}",
        wrong.join("\n")
    );
}

/// Where a file stands in the folders: the components, a host above them (`web`, `js`,
/// and the crate root, which declares every module), or a layer below them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Folder {
    Components,
    Host,
    Below,
}

fn folder(m: &[String]) -> Folder {
    match m.first().map(String::as_str) {
        Some("components") => Folder::Components,
        None | Some("web") | Some("js") => Folder::Host,
        Some(_) => Folder::Below,
    }
}

/// Folder by folder the imports run down too: `src/components` imports `src/render`,
/// `src/dom` and `src/core`, and is imported only by the hosts above it (`src/web`,
/// `src/js.rs`, `src/lib.rs`); it imports neither host. A file-level rule alone lets a
/// renderer file name a component's markup (both of the render layer), which is how
/// `render/` once re-exported the components and drew the answer's blocks with the
/// answer's markers, and `dom/` held the answer's driver.
#[test]
fn only_the_hosts_import_the_components() {
    let c = read_crate();
    let mut wrong = Vec::new();
    for (from, to) in &c.edges {
        for (target, name) in to {
            let up = matches!(
                (folder(from), folder(target)),
                (Folder::Below, Folder::Components) | (Folder::Components, Folder::Host)
            );
            if up {
                wrong.push(format!(
                    "{} -> {}: {name}",
                    shown(&c, from),
                    shown(&c, target)
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports that run up between the folders (only src/web, src/js.rs and src/lib.rs \
         import src/components, which imports neither host):\n{}",
        wrong.join("\n")
    );
}

/// The folder of a module, as [`only_the_hosts_import_the_components`] reads it.
#[test]
fn the_folders_are_the_components_the_hosts_and_the_layers_below() {
    let of = |path: &str| {
        let m: ModPath = if path.is_empty() {
            Vec::new()
        } else {
            path.split("::").map(String::from).collect()
        };
        folder(&m)
    };
    assert_eq!(of("components::answer::dom::driver"), Folder::Components);
    assert_eq!(of("components::context"), Folder::Components);
    assert_eq!(of("web"), Folder::Host);
    assert_eq!(of("js"), Folder::Host);
    assert_eq!(of(""), Folder::Host);
    assert_eq!(of("render::escape"), Folder::Below);
    assert_eq!(of("dom::page"), Folder::Below);
    assert_eq!(of("core::live"), Folder::Below);
}

/// The modules of `core` the CommonMark parser may import: helpers with no markdown in
/// them, and the limits (constants only: the nesting limit is one for the parser and
/// the marker scanner). Everything else that reads markdown structure (the marker
/// scanner, the stream hold-back, the renderer) sits above the parser and reads it,
/// never the other way.
const PARSER_GROUND: [&str; 4] = ["limits", "ordered_hash", "str_ops", "unicode"];

/// The CommonMark parser (`core::commonmark`) imports nothing of core but the helpers
/// of [`PARSER_GROUND`]: were it to read the marker scanner (as the renderer's parser
/// once read the scanner's line recognizers), the scanner could not read it back.
#[test]
fn the_commonmark_parser_is_the_ground_of_the_markdown_structure() {
    let c = read_crate();
    let parser = |m: &ModPath| m.len() >= 2 && m[0] == "core" && m[1] == "commonmark";
    assert!(
        c.files.keys().any(parser),
        "no core::commonmark: the parser is not where the layers say"
    );
    let mut wrong = Vec::new();
    for (from, to) in c.edges.iter().filter(|(m, _)| parser(m)) {
        for (target, name) in to {
            let ground = target.len() == 2
                && target[0] == "core"
                && PARSER_GROUND.contains(&target[1].as_str());
            if !parser(target) && !ground {
                wrong.push(format!(
                    "{} -> {}: {name}",
                    shown(&c, from),
                    shown(&c, target)
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "the CommonMark parser imports what reads it or sits above it:\n{}",
        wrong.join("\n")
    );
}

/// No files import each other in a loop (strongly connected files, Tarjan's algorithm).
#[test]
fn no_import_loop() {
    let c = read_crate();
    let nodes: Vec<&ModPath> = c.files.keys().collect();
    let index_of: BTreeMap<&ModPath, usize> =
        nodes.iter().enumerate().map(|(i, m)| (*m, i)).collect();
    let succ: Vec<Vec<usize>> = nodes
        .iter()
        .map(|m| {
            c.edges
                .get(*m)
                .map(|to| to.keys().map(|t| index_of[t]).collect())
                .unwrap_or_default()
        })
        .collect();

    // Iterative Tarjan.
    let n = nodes.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut loops: Vec<Vec<usize>> = Vec::new();
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut k)) = work.last_mut() {
            if *k == 0 {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = succ[v].get(*k) {
                *k += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                loop {
                    let w = stack.pop().expect("v is on the stack");
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    loops.push(component);
                }
            }
        }
    }

    // For each loop: its size and one shortest way round it, with the names taken.
    let described: Vec<String> = loops
        .iter()
        .map(|component| {
            let members: BTreeSet<usize> = component.iter().copied().collect();
            let start = *members.first().expect("a loop has files");
            // Breadth-first from `start` back to it, inside the loop.
            let mut came_from: BTreeMap<usize, usize> = BTreeMap::new();
            let mut queue = std::collections::VecDeque::from([start]);
            let mut last = start;
            'search: while let Some(v) = queue.pop_front() {
                for &w in &succ[v] {
                    if !members.contains(&w) {
                        continue;
                    }
                    if w == start {
                        last = v;
                        break 'search;
                    }
                    if let std::collections::btree_map::Entry::Vacant(e) = came_from.entry(w) {
                        e.insert(v);
                        queue.push_back(w);
                    }
                }
            }
            let mut way = vec![start, last];
            while let Some(&p) = came_from.get(way.last().expect("not empty")) {
                way.push(p);
            }
            way.reverse();
            let steps: Vec<String> = way
                .windows(2)
                .map(|s| {
                    format!(
                        "  {} -> {}: {}",
                        shown(&c, nodes[s[0]]),
                        shown(&c, nodes[s[1]]),
                        c.edges[nodes[s[0]]][nodes[s[1]]]
                    )
                })
                .collect();
            format!(
                "a loop of {} files, one way round it:\n{}",
                members.len(),
                steps.join("\n")
            )
        })
        .collect();
    assert!(
        loops.is_empty(),
        "files that import each other in a loop:\n{}",
        described.join("\n\n")
    );
}

/// A component's files take the layer of what they do: its markup is the renderer's, its
/// DOM behaviour the DOM layer's, its Leptos wrapper the components'; so a card's
/// `html.rs` that named `web_sys` code of its `dom.rs` would be an import up a layer.
#[test]
fn a_components_files_take_the_layers_of_what_they_do() {
    let of = |path: &str| layer(&path.split("::").map(String::from).collect::<Vec<_>>());
    assert_eq!(of("components::card::html"), Some(("render", 1)));
    assert_eq!(of("components::card"), Some(("render", 1)));
    assert_eq!(of("components"), Some(("render", 1)));
    assert_eq!(of("components::card::dom"), Some(("dom", 2)));
    assert_eq!(of("components::panel::dom::scroll"), Some(("dom", 2)));
    assert_eq!(of("components::card::leptos"), Some(("web", 3)));
    assert_eq!(of("components::answer::dom::driver"), Some(("dom", 2)));
    assert_eq!(of("components::answer::leptos::adopt"), Some(("web", 3)));
    assert_eq!(of("components::context"), Some(("web", 3)));
    // Every component file of the crate is read and placed.
    let c = read_crate();
    let parts: Vec<String> = c
        .files
        .keys()
        .filter(|m| m.first().is_some_and(|s| s == "components"))
        .map(|m| format!("{} ({})", m.join("::"), layer(m).map_or("?", |l| l.0)))
        .collect();
    for part in [
        "components::answer::html (render)",
        "components::answer::html::markers (render)",
        "components::answer::html::markdown (render)",
        "components::answer::html::stream_view (render)",
        "components::answer::dom (dom)",
        "components::answer::dom::events (dom)",
        "components::answer::dom::blocks (dom)",
        "components::answer::dom::driver (dom)",
        "components::answer::dom::driver::stream (dom)",
        "components::answer::leptos (web)",
        "components::answer::leptos::adopt (web)",
        "components::context (web)",
        "components::card::html (render)",
        "components::card::dom (dom)",
        "components::card::leptos (web)",
        "components::panel::html (render)",
        "components::panel::dom (dom)",
        "components::panel::leptos (web)",
        "components::footnotes::html (render)",
        "components::footnotes::leptos (web)",
    ] {
        assert!(parts.iter().any(|p| p == part), "{part} in {parts:?}");
    }
}

/// The reader itself: groups, `self`, `super` inside inline modules, a child module's
/// path, and what it must not take for a path (comments, strings, lifetimes); test-only
/// fields and statements skipped without losing the code after them.
#[test]
fn reads_use_paths() {
    let m: ModPath = vec!["render".into(), "md".into(), "inlines".into()];
    let child: ModPath = vec![
        "render".into(),
        "md".into(),
        "inlines".into(),
        "child".into(),
    ];
    let modules = BTreeSet::from([m.clone(), child]);
    let text = r##"
//! [`crate::dom::entity`] in a doc comment is no import.
use super::blocks::{self, Line};
use crate::core::{ordered_hash::OrderedHashMap, markers::inline::{autolink, Ticks as T}};
fn f<'a>(s: &'a str) -> char { let _ = "crate::web::x"; let _ = r#"crate::js"#; 'x' }
mod child;
fn g() { child::run(); other::run(); x::child::y(); }
mod inner {
    use super::super::punct::is_punct;
}
#[cfg(test)]
mod tests {
    use crate::web::Anything;
}
#[cfg(all(test, not(target_arch = "wasm32")))]
mod more_tests;
#[cfg(not(test))]
use crate::dom::shipped;
struct Counted {
    #[cfg(test)]
    count: std::cell::Cell<usize>,
}
fn h() {
    #[cfg(test)]
    crate::web::count_for_tests();
    let _ = Counted { #[cfg(test)] count: Default::default() };
    crate::core::after_test_fields();
}
"##;
    let got: Vec<String> = references(&m, text, &modules)
        .paths
        .iter()
        .map(|p| p.join("::"))
        .collect();
    assert_eq!(
        got,
        [
            "render::md::blocks",
            "render::md::blocks::Line",
            "core::ordered_hash::OrderedHashMap",
            "core::markers::inline::autolink",
            "core::markers::inline::Ticks",
            "render::md::inlines::child::run",
            "render::md::punct::is_punct",
            "dom::shipped",
            "core::after_test_fields",
        ]
    );
    let test_modules: Vec<String> = references(&m, text, &modules)
        .test_modules
        .iter()
        .map(|p| p.join("::"))
        .collect();
    assert_eq!(test_modules, ["render::md::inlines::more_tests"]);
}

/// A `#[cfg(test)]` field as the last of a struct (`StreamParser`'s resolver count) made
/// the reader count one brace too many and stop with an overflow; it is left out as
/// test code, and what follows the struct is read.
#[test]
fn a_test_only_last_field_ends_at_its_struct_brace() {
    let m: ModPath = vec!["core".into(), "stream".into()];
    let modules = BTreeSet::from([m.clone()]);
    let text = r##"
struct P {
    a: usize,
    #[cfg(test)]
    b: crate::dom::Counter,
}
fn f() -> P {
    P {
        a: 0,
        #[cfg(test)]
        b: crate::dom::Counter::new(),
    }
}
use crate::core::model::Source;
"##;
    let names = references(&m, text, &modules);
    let paths: Vec<String> = names.paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(paths, ["core::model::Source"]);
}
