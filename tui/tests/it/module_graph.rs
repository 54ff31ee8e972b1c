//! The terminal app's modules (`tui/src/app`) depend on each other without
//! a cycle, so each can be read, and changed, knowing only those below it.
//! The graph is read from the sources: every `super::…`, `self::…` and
//! `crate::app::…` path in code (comments aside), `use` lines and paths
//! written out in expressions alike, and in the app's root the bare paths
//! of its own submodules. A module's files are one node: `view/*` is
//! `view`, `update/*` is `update`, and an inline `mod tests { … }` is part
//! of its file's node. A module using its own submodules is no cycle; a
//! submodule using a sibling of its parent that uses it back is.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// One source file of the app: its module path below `app` (`[]` is the
/// app's `mod.rs`, `["view", "course"]` is `view/course.rs`) and its text.
struct Source {
    module: Vec<String>,
    text: String,
}

/// The node a module belongs to: its first segment below `app`, or `app`.
fn node(module: &[String]) -> String {
    module.first().cloned().unwrap_or_else(|| "app".to_owned())
}

fn read_sources(dir: &Path, module: &[String], into: &mut Vec<Source>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            let mut inner = module.to_vec();
            inner.push(name);
            read_sources(&path, &inner, into);
        } else if let Some(stem) = name.strip_suffix(".rs") {
            let mut own = module.to_vec();
            if stem != "mod" {
                own.push(stem.to_owned());
            }
            into.push(Source {
                module: own,
                text: std::fs::read_to_string(&path).unwrap(),
            });
        }
    }
}

/// `line` without its comment: from the first `//` outside a string.
fn code_of(line: &str) -> &str {
    let mut quotes = 0;
    let bytes = line.as_bytes();
    for (at, byte) in bytes.iter().enumerate() {
        match byte {
            b'"' if at == 0 || bytes[at - 1] != b'\\' => quotes += 1,
            b'/' if quotes % 2 == 0 && bytes.get(at + 1) == Some(&b'/') => return &line[..at],
            _ => {}
        }
    }
    line
}

/// The name of the inline module `line` opens (`mod tests {`), if any.
fn inline_module(line: &str) -> Option<&str> {
    let rest = line.trim_start();
    let rest = rest
        .strip_prefix("pub(crate) ")
        .or_else(|| rest.strip_prefix("pub "))
        .unwrap_or(rest);
    rest.strip_prefix("mod ")?.strip_suffix(" {")
}

fn is_ident_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// The first segment of each path of the group or path at `code[at..]`
/// (`{a, b::{c}, self}` gives `a`, `b`, `self`; `a::b` gives `a`).
fn first_segments(code: &str, at: usize) -> Vec<String> {
    let bytes = code.as_bytes();
    let rest = &code[at..];
    if rest.starts_with('*') {
        return vec!["*".to_owned()];
    }
    if !rest.starts_with('{') {
        let end = rest
            .bytes()
            .position(|b| !is_ident_byte(b))
            .unwrap_or(rest.len());
        return vec![rest[..end].to_owned()];
    }
    let mut segments = Vec::new();
    let mut depth = 0;
    let mut item_start = true;
    for (offset, byte) in bytes[at..].iter().enumerate() {
        match byte {
            b'{' => {
                depth += 1;
                item_start = depth == 1;
                continue;
            }
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            b',' if depth == 1 => {
                item_start = true;
                continue;
            }
            _ => {}
        }
        if item_start && depth == 1 && !byte.is_ascii_whitespace() {
            item_start = false;
            let segment = first_segments(code, at + offset);
            segments.extend(segment);
        }
    }
    segments
}

/// The modules `source` refers to, each as a path below `app`: a path
/// whose first segment names no module refers to the module it starts in.
fn references(source: &Source, modules: &BTreeSet<Vec<String>>) -> Vec<Vec<String>> {
    // The code, comments removed, and the module each line is in.
    let mut code = String::new();
    let mut line_module: Vec<(usize, Vec<String>)> = Vec::new();
    let mut inline: Vec<(String, String)> = Vec::new();
    for line in source.text.lines() {
        let indent: String = line.chars().take_while(|c| *c == ' ').collect();
        if inline
            .last()
            .is_some_and(|(open, _)| line == format!("{open}}}"))
        {
            inline.pop();
        }
        let mut module = source.module.clone();
        module.extend(inline.iter().map(|(_, name)| name.clone()));
        line_module.push((code.len(), module));
        code.push_str(code_of(line));
        code.push('\n');
        if let Some(name) = inline_module(code_of(line)) {
            inline.push((indent, name.to_owned()));
        }
    }
    let module_at = |at: usize| -> Vec<String> {
        let index = line_module.partition_point(|(start, _)| *start <= at) - 1;
        line_module[index].1.clone()
    };
    let child = |base: &[String], name: &str| -> Option<Vec<String>> {
        let mut path = base.to_vec();
        path.push(name.to_owned());
        modules.contains(&path).then_some(path)
    };
    let resolve = |base: Vec<String>, segments: Vec<String>| -> Vec<Vec<String>> {
        segments
            .into_iter()
            .map(|segment| child(&base, &segment).unwrap_or_else(|| base.clone()))
            .collect()
    };
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let boundary = at == 0 || !(is_ident_byte(bytes[at - 1]) || bytes[at - 1] == b':');
        if !boundary || !is_ident_byte(bytes[at]) {
            at += 1;
            continue;
        }
        let rest = &code[at..];
        let module = module_at(at);
        if let Some(after) = rest.strip_prefix("crate::app::") {
            let start = code.len() - after.len();
            found.extend(resolve(Vec::new(), first_segments(&code, start)));
            at = start;
        } else if rest.starts_with("super::") {
            let mut base = module;
            let mut tail = rest;
            while let Some(after) = tail.strip_prefix("super::") {
                base.pop();
                tail = after;
            }
            let start = code.len() - tail.len();
            found.extend(resolve(base, first_segments(&code, start)));
            at = start;
        } else if let Some(after) = rest.strip_prefix("self::") {
            let start = code.len() - after.len();
            found.extend(resolve(module, first_segments(&code, start)));
            at = start;
        } else {
            // A bare path into one of this module's own submodules.
            let end = rest
                .bytes()
                .position(|b| !is_ident_byte(b))
                .unwrap_or(rest.len());
            if rest[end..].starts_with("::")
                && let Some(path) = child(&module, &rest[..end])
            {
                found.push(path);
            }
            at += end;
        }
    }
    found
}

/// Which node uses which, from `sources`.
fn graph(sources: &[Source]) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeSet<Vec<String>> = sources.iter().map(|s| s.module.clone()).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for source in sources {
        let from = node(&source.module);
        let uses = edges.entry(from.clone()).or_default();
        for target in references(source, &modules) {
            let to = node(&target);
            if to != from {
                uses.insert(to);
            }
        }
    }
    edges
}

/// A cycle of `edges`, as the nodes along it (the first repeated last).
fn cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        done: &mut BTreeSet<String>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|n| n == node) {
            let mut found = path[start..].to_vec();
            found.push(node.to_owned());
            return Some(found);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_owned());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(found) = visit(next, edges, done, path) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|node| visit(node, edges, &mut done, &mut Vec::new()))
}

fn app_graph() -> BTreeMap<String, BTreeSet<String>> {
    let mut sources = Vec::new();
    let app = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app");
    read_sources(&app, &[], &mut sources);
    graph(&sources)
}

#[test]
fn the_app_modules_import_no_cycle() {
    let edges = app_graph();
    // The reading itself works: edges the code is known to have are seen.
    for (from, to) in [
        ("view", "layout"),
        ("view", "model"),
        ("update", "measure"),
        ("measure", "view"),
        ("app", "update"),
    ] {
        assert!(
            edges.get(from).is_some_and(|uses| uses.contains(to)),
            "{from} → {to} not read; the graph read: {edges:#?}"
        );
    }
    if let Some(found) = cycle(&edges) {
        panic!(
            "the app's modules import in a cycle: {}\nthe graph: {edges:#?}",
            found.join(" → ")
        );
    }
}

fn sources_of(files: &[(&[&str], &str)]) -> Vec<Source> {
    files
        .iter()
        .map(|(module, text)| Source {
            module: module.iter().map(|s| (*s).to_owned()).collect(),
            text: (*text).to_owned(),
        })
        .collect()
}

#[test]
fn the_cycle_check_sees_each_kind_of_reference() {
    // Siblings through `use` groups across lines.
    let sources = sources_of(&[
        (&[], "mod a;\nmod b;\n"),
        (&["a"], "use super::{\n    b,\n    c::X,\n};\n"),
        (&["b"], "fn f() {\n    crate::app::a::g();\n}\n"),
    ]);
    assert_eq!(
        cycle(&graph(&sources)),
        Some(vec!["a".into(), "b".into(), "a".into()])
    );
    // A submodule of `v` using a sibling of `v` that uses it back.
    let sources = sources_of(&[
        (&["v"], "mod c;\nuse self::c::draw;\n"),
        (
            &["v", "c"],
            "use super::helper;\nuse super::super::l::areas;\n",
        ),
        (&["l"], "use super::v::c::measure;\n"),
    ]);
    assert!(cycle(&graph(&sources)).is_some());
    // A test module's `super` is its file; its `super::super`, the parent.
    let sources = sources_of(&[
        (
            &["s"],
            "use super::m;\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use super::super::t::T;\n}\n",
        ),
        (&["m"], "use super::s;\n"),
        (&["t"], "use crate::app::s::x; // use super::m;\n"),
    ]);
    let edges = graph(&sources);
    assert_eq!(edges["s"], BTreeSet::from(["m".to_owned(), "t".to_owned()]));
    assert_eq!(edges["t"], BTreeSet::from(["s".to_owned()]));
    assert!(cycle(&edges).is_some());
    // The root's bare paths into its submodules count; a module using its
    // own submodules is no cycle.
    let sources = sources_of(&[
        (&[], "fn run() { a::go(); }\n"),
        (&["a"], "use super::Launch;\n"),
        (&["v"], "use self::c::draw;\n"),
        (&["v", "c"], "use super::{section, header};\n"),
    ]);
    let edges = graph(&sources);
    assert_eq!(
        cycle(&edges),
        Some(vec!["a".into(), "app".into(), "a".into()])
    );
    assert!(edges["v"].is_empty());
}
