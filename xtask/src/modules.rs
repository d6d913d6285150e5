//! `cargo xtask modules`: the module graph of every crate of the workspace, read from the
//! sources, and its cycles. A module's node is its top-level module in its crate (`eval`,
//! `firmware`, `shell` in `tibasic`); an edge A → B means code of A names `crate::B...` (in a
//! `use` or a path) or reaches B through `super::`. Test code (`#[cfg(test)]` items) does not
//! count: a test may look anywhere. Items of the crate root itself (`crate::Thing` defined or
//! re-exported in `lib.rs`) are not a module and make no edge.
//!
//! `--check` fails when any cycle remains; without it the graph's cycles are listed.
//! `--files` also lists the longest files (over 800 lines) and whether each says at its top
//! why it is that long.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

/// Files longer than this must say why at their top.
pub const LONG_FILE: usize = 800;

/// One crate's sources: its name and the folder of its `lib.rs` or `main.rs`.
struct CrateSrc {
    name: String,
    src: PathBuf,
}

/// Every crate of the workspace: `crates/*/src`, the binary's `src` and `xtask/src`.
fn crates(root: &Path) -> Result<Vec<CrateSrc>> {
    let mut out = vec![
        CrateSrc {
            name: "ti82".into(),
            src: root.join("src"),
        },
        CrateSrc {
            name: "xtask".into(),
            src: root.join("xtask/src"),
        },
    ];
    let dir = root.join("crates");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .with_context(|| format!("{}: cannot list", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("src").is_dir())
        .collect();
    names.sort();
    for p in names {
        out.push(CrateSrc {
            name: p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            src: p.join("src"),
        });
    }
    Ok(out)
}

/// Every `.rs` file under `dir`, with its module path (`["firmware", "home"]`; the crate
/// root's files have an empty path). Files of `src/bin` and `src/fuzz`-like binaries are
/// roots of their own and skipped.
fn files(dir: &Path) -> Result<Vec<(PathBuf, Vec<String>)>> {
    let mut out = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), Vec::<String>::new())];
    while let Some((d, prefix)) = stack.pop() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&d)
            .with_context(|| format!("{}: cannot list", d.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for p in entries {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if p.is_dir() {
                if prefix.is_empty() && name == "bin" {
                    continue;
                }
                let mut m = prefix.clone();
                m.push(name);
                stack.push((p, m));
            } else if let Some(stem) = name.strip_suffix(".rs") {
                let mut m = prefix.clone();
                match stem {
                    "lib" | "main" if prefix.is_empty() => {}
                    "mod" => {}
                    _ => m.push(stem.to_string()),
                }
                out.push((p, m));
            }
        }
    }
    Ok(out)
}

/// `text` with comments, string and character literals blanked (lengths and lines kept),
/// and the bodies of `#[cfg(test)]` items removed.
pub fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, c: u8| out.push(if c == b'\n' { b'\n' } else { b' ' });
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                out.push(b' ');
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, b[i]);
                    i += 1;
                }
            }
        } else if c == b'r'
            && (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#'))
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push(c);
                i += 1;
                continue;
            }
            out.extend(std::iter::repeat_n(b' ', j + 1 - i));
            i = j + 1;
            while i < b.len() {
                if b[i] == b'"'
                    && b[i + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&h| h == b'#')
                        .count()
                        == hashes
                {
                    out.extend(std::iter::repeat_n(b' ', hashes + 1));
                    i += hashes + 1;
                    break;
                }
                blank(&mut out, b[i]);
                i += 1;
            }
        } else if c == b'"' {
            out.push(b' ');
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' && i + 1 < b.len() {
                    blank(&mut out, b[i]);
                    i += 1;
                }
                blank(&mut out, b[i]);
                i += 1;
            }
            out.push(b' ');
            i += 1;
        } else if c == b'\'' {
            // A character literal ('a', '\n', '\u{1F}') or a lifetime ('a).
            let end = if b.get(i + 1) == Some(&b'\\') {
                b[i + 2..]
                    .iter()
                    .position(|&x| x == b'\'')
                    .map(|p| i + 2 + p)
            } else {
                let ch_len = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                (b.get(i + 1 + ch_len) == Some(&b'\'')).then_some(i + 1 + ch_len)
            };
            match end {
                Some(e) => {
                    out.extend(std::iter::repeat_n(b' ', e + 1 - i));
                    i = e + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    let code = String::from_utf8_lossy(&out).into_owned();
    strip_test_items(&code)
}

/// Removes every item marked `#[cfg(test)]` (up to its closing brace or semicolon).
fn strip_test_items(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        let mut depth = 0usize;
        let mut end = after.len();
        for (k, ch) in after.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = k + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = k + 1;
                    break;
                }
                _ => {}
            }
        }
        // Keep the line count.
        out.extend(after[..end].chars().filter(|&c| c == '\n'));
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

fn ident_at(s: &str) -> Option<&str> {
    let end = s
        .char_indices()
        .find(|(_, c)| !(c.is_alphanumeric() || *c == '_'))
        .map_or(s.len(), |(i, _)| i);
    (end > 0).then(|| &s[..end])
}

/// The first segments of every path after `crate::` in `code`, and of every `super::` path
/// resolved from module `module` (as top-level module names; the crate root is skipped).
pub fn referenced(code: &str, module: &[String]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let bytes = code.as_bytes();
    let word_start =
        |i: usize| i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
    let mut i = 0;
    while i < code.len() {
        let rest = &code[i..];
        if rest.starts_with("crate::") && word_start(i) {
            firsts(&rest[7..], &mut out);
            i += 7;
        } else if rest.starts_with("super::") && word_start(i) {
            // Count the supers, then resolve from the module's path.
            let mut ups = 0;
            let mut r = rest;
            while let Some(t) = r.strip_prefix("super::") {
                ups += 1;
                r = t.trim_start();
            }
            // A file's own module is `module`; `super` is its parent. Inside an inline module
            // this is an approximation (the file's own path is used).
            if ups < module.len() {
                out.insert(module[0].clone());
            } else if ups == module.len() {
                firsts(r, &mut out);
            }
            i += 7 * ups;
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    out
}

/// The first segment of a path's tail (`a::b`, `{a::b, c}`).
fn firsts(tail: &str, out: &mut BTreeSet<String>) {
    let tail = tail.trim_start();
    if let Some(group) = tail.strip_prefix('{') {
        let mut depth = 0;
        let mut start = 0;
        for (k, ch) in group.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    if let Some(id) = ident_at(group[start..k].trim_start()) {
                        out.insert(id.to_string());
                    }
                    return;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    if let Some(id) = ident_at(group[start..k].trim_start()) {
                        out.insert(id.to_string());
                    }
                    start = k + 1;
                }
                _ => {}
            }
        }
    } else if let Some(id) = ident_at(tail) {
        out.insert(id.to_string());
    }
}

/// A crate's module graph: top-level module → the top-level modules it uses.
pub type Graph = BTreeMap<String, BTreeSet<String>>;

fn graph(src: &Path) -> Result<Graph> {
    let files = files(src)?;
    let tops: BTreeSet<String> = files
        .iter()
        .filter_map(|(_, m)| m.first().cloned())
        .collect();
    let mut g = Graph::new();
    for (path, module) in &files {
        let Some(top) = module.first() else {
            continue;
        };
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("{}: cannot read", path.display()))?;
        let uses = referenced(&code_only(&text), module);
        let e = g.entry(top.clone()).or_default();
        for u in uses {
            if &u != top && tops.contains(&u) {
                e.insert(u);
            }
        }
    }
    Ok(g)
}

/// The graph's strongly connected components of more than one module (Tarjan's algorithm),
/// each sorted, in name order.
pub fn cycles(g: &Graph) -> Vec<Vec<String>> {
    struct Tarjan<'a> {
        g: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, v: &'a str) {
            self.index.insert(v, self.next);
            self.low.insert(v, self.next);
            self.next += 1;
            self.stack.push(v);
            self.on.insert(v);
            for w in self.g.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(lw);
                } else if self.on.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut comp = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on.remove(w);
                    comp.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    self.out.push(comp);
                }
            }
        }
    }
    let mut t = Tarjan {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in g.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.out.sort();
    t.out
}

/// The edges of a cycle, to show where to cut: `a → b` for each pair of its members.
fn cycle_edges(g: &Graph, comp: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for a in comp {
        for b in g.get(a).into_iter().flatten() {
            if comp.contains(b) {
                out.push(format!("{a} → {b}"));
            }
        }
    }
    out
}

pub fn run(check: bool, list_files: bool) -> Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .context("xtask has no parent folder")?
        .to_path_buf();
    let mut found = 0;
    for c in crates(&root)? {
        let g = graph(&c.src)?;
        let edges: usize = g.values().map(BTreeSet::len).sum();
        let cs = cycles(&g);
        println!(
            "{}: {} modules, {} edges, {} cycles",
            c.name,
            g.len(),
            edges,
            cs.len()
        );
        for comp in &cs {
            println!("  cycle: {}", comp.join(", "));
            println!("    {}", cycle_edges(&g, comp).join("; "));
        }
        found += cs.len();
        if list_files {
            for (path, _) in files(&c.src)? {
                let text = std::fs::read_to_string(&path)?;
                let n = text.lines().count();
                if n > LONG_FILE {
                    let says = text.lines().take(30).any(|l| l.contains("lines"));
                    println!(
                        "  long file: {} ({n} lines){}",
                        path.strip_prefix(&root).unwrap_or(&path).display(),
                        if says { "" } else { ", no reason at its top" }
                    );
                }
            }
        }
    }
    println!("module cycles in the workspace: {found}");
    if check && found > 0 {
        bail!("{found} module cycles (docs/layout.md says how to cut them)");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(v: &[&str]) -> BTreeSet<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn paths_after_crate_and_super_are_found() {
        let code = code_only(
            "use crate::eval::eval;\nuse crate::{ast::Stmt, conv::{Form, x}};\n\
             fn f() { crate::matrix::det(); super::real::R; }\n",
        );
        let m = vec!["firmware".to_string()];
        assert_eq!(
            referenced(&code, &m),
            set(&["eval", "ast", "conv", "matrix", "real"])
        );
        // In firmware/home.rs, `super::` is firmware itself; `super::super::` the root.
        let m = vec!["firmware".to_string(), "home".to_string()];
        let code = code_only("use super::BasicFirmware;\nuse super::super::shell::x;\n");
        assert_eq!(referenced(&code, &m), set(&["firmware", "shell"]));
    }

    #[test]
    fn comments_strings_and_tests_do_not_count() {
        let code = code_only(
            "// crate::a::b\n/* crate::c */ let s = \"crate::d\"; let r = r#\"crate::e\"#;\n\
             let c = '\"'; fn g<'a>() {}\n#[cfg(test)]\nmod tests { use crate::f; }\nuse crate::g;\n",
        );
        assert_eq!(referenced(&code, &["x".to_string()]), set(&["g"]));
        assert_eq!(code.lines().count(), 6, "lines are kept");
    }

    /// The workspace itself: no crate has a module cycle, except the built-in runtime's
    /// three (docs/layout.md), which its split into the language and the OS removes.
    #[test]
    fn the_workspace_has_no_module_cycle_but_the_runtime_s() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        for c in crates(root).unwrap() {
            let cs = cycles(&graph(&c.src).unwrap());
            if c.name == "tibasic" {
                assert!(cs.len() <= 3, "tibasic: {cs:?}");
            } else {
                assert!(cs.is_empty(), "{}: {cs:?}", c.name);
            }
        }
    }

    #[test]
    fn cycles_are_the_strongly_connected_components() {
        let mut g = Graph::new();
        for (a, b) in [
            ("eval", "matrix"),
            ("matrix", "eval"),
            ("interp", "table"),
            ("table", "interp"),
            ("table", "eval"),
            ("firmware", "shell"),
            ("lonely", "eval"),
        ] {
            g.entry(a.into()).or_default().insert(b.into());
        }
        assert_eq!(
            cycles(&g),
            vec![vec!["eval", "matrix"], vec!["interp", "table"]]
        );
    }
}
