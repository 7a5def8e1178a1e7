//! The import graph of `src/` between modules (one node per module, i.e.
//! per source file), read from the text: every `use` tree and every path
//! that starts at `crate`, `super`, `self`, a child module or a module
//! alias, resolved through the module tree and through `pub use`
//! re-exports (named and glob) to the module that defines the item. Code
//! in comments, string literals and `#[cfg(test)]` items is not read.
//!
//! A path that names a module only (`use crate::harness::report;`) adds
//! no edge by itself: the uses through its alias (`report::sig`) do, each
//! resolved to its defining module. A parent's `mod child;` is not an
//! edge; its uses of the child's items are.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path from the crate root, e.g. `["harness", "report"]`.
pub type ModPath = Vec<String>;

/// `harness::report` style name of a module path (`crate` for the root).
pub fn name(m: &[String]) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

/// One import of a module by another.
#[derive(Debug, Clone, PartialEq)]
pub struct Edge {
    pub from: ModPath,
    pub to: ModPath,
    /// The file (relative to the repository) and line of the use.
    pub file: PathBuf,
    pub line: usize,
    /// The path as written.
    pub path: String,
}

impl Edge {
    pub fn describe(&self) -> String {
        format!(
            "{}:{}: {} -> {} ({})",
            self.file.display(),
            self.line,
            name(&self.from),
            name(&self.to),
            self.path
        )
    }
}

/// What a module declares: its children, its items, its re-exports.
#[derive(Debug, Default)]
struct Module {
    file: PathBuf,
    code: String,
    children: BTreeSet<String>,
    items: BTreeSet<String>,
    /// `pub use` leaves: the name they bind -> the path they name.
    reexports: BTreeMap<String, Vec<String>>,
    /// `pub use path::*`: the paths whose names it re-exports.
    globs: Vec<Vec<String>>,
    /// Every use-tree leaf: (line, path segments, bound name or None for a glob, public).
    uses: Vec<UseLeaf>,
}

#[derive(Debug, Clone)]
struct UseLeaf {
    line: usize,
    segments: Vec<String>,
    /// The name the leaf binds (its last segment or its `as` name); None for `*`.
    binds: Option<String>,
    public: bool,
}

/// The parsed tree of `src/`.
pub struct Graph {
    modules: BTreeMap<ModPath, Module>,
    /// Every edge between two different modules.
    pub edges: Vec<Edge>,
}

/// `text` with comments and the contents of string and character literals
/// replaced by spaces (newlines kept, so lines still count).
pub fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = c.clone();
    let blank = |out: &mut Vec<char>, from: usize, to: usize| {
        for ch in &mut out[from..to.min(c.len())] {
            if *ch != '\n' {
                *ch = ' ';
            }
        }
    };
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut i = 0;
    while i < c.len() {
        let prev_ident = i > 0 && ident(c[i - 1]);
        if c[i] == '/' && c.get(i + 1) == Some(&'/') {
            let end = (i..c.len()).find(|&k| c[k] == '\n').unwrap_or(c.len());
            blank(&mut out, i, end);
            i = end;
        } else if c[i] == '/' && c.get(i + 1) == Some(&'*') {
            let (mut depth, mut k) = (1, i + 2);
            while k < c.len() && depth > 0 {
                if c[k] == '/' && c.get(k + 1) == Some(&'*') {
                    depth += 1;
                    k += 1;
                } else if c[k] == '*' && c.get(k + 1) == Some(&'/') {
                    depth -= 1;
                    k += 1;
                }
                k += 1;
            }
            blank(&mut out, i, k);
            i = k;
        } else if !prev_ident && (c[i] == 'r' || (c[i] == 'b' && c.get(i + 1) == Some(&'r'))) {
            let start = if c[i] == 'b' { i + 2 } else { i + 1 };
            let hashes = (start..c.len()).take_while(|&k| c[k] == '#').count();
            if c.get(start + hashes) == Some(&'"') {
                let body = start + hashes + 1;
                let close = (body..c.len())
                    .find(|&k| c[k] == '"' && (1..=hashes).all(|h| c.get(k + h) == Some(&'#')))
                    .unwrap_or(c.len());
                blank(&mut out, body, close);
                i = close + 1 + hashes;
            } else {
                i += 1;
            }
        } else if c[i] == '"' {
            let mut k = i + 1;
            while k < c.len() && c[k] != '"' {
                k += if c[k] == '\\' { 2 } else { 1 };
            }
            blank(&mut out, i + 1, k);
            i = k + 1;
        } else if c[i] == '\'' && c.get(i + 1) == Some(&'\\') {
            let close = (i + 2..c.len()).find(|&k| c[k] == '\'').unwrap_or(c.len());
            blank(&mut out, i + 1, close);
            i = close + 1;
        } else if c[i] == '\'' && c.get(i + 2) == Some(&'\'') {
            blank(&mut out, i + 1, i + 2);
            i += 3;
        } else {
            i += 1;
        }
    }
    out.into_iter().collect()
}

/// `code` (from [`code_only`]) with every `#[cfg(test)]` item blanked, and
/// the names of the out-of-line test modules it declares (`mod tests;`).
pub fn without_test_items(code: &str) -> (String, Vec<String>) {
    const ATTR: &str = "#[cfg(test)]";
    let mut out: Vec<char> = code.chars().collect();
    let mut test_modules = Vec::new();
    let text: Vec<char> = out.clone();
    let attr: Vec<char> = ATTR.chars().collect();
    let mut i = 0;
    while i + attr.len() <= text.len() {
        if text[i..i + attr.len()] != attr[..] {
            i += 1;
            continue;
        }
        let mut k = i + attr.len();
        let mut depth = 0i32;
        while k < text.len() {
            match text[k] {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' => depth -= 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                ';' if depth == 0 => break,
                _ => {}
            }
            k += 1;
        }
        let item: String = text[i + attr.len()..k.min(text.len())].iter().collect();
        let words: Vec<&str> = item.split_whitespace().collect();
        if let [.., "mod", name] = words[..] {
            test_modules.push(name.to_string());
        }
        for ch in &mut out[i..(k + 1).min(text.len())] {
            if *ch != '\n' {
                *ch = ' ';
            }
        }
        i = k + 1;
    }
    (out.into_iter().collect(), test_modules)
}

fn is_ident(ch: char) -> bool {
    ch.is_alphanumeric() || ch == '_'
}

/// Whether `c[pos..]` starts the word `w` (not inside a longer name or path).
fn word_at(c: &[char], pos: usize, w: &str) -> bool {
    let w: Vec<char> = w.chars().collect();
    c.len() >= pos + w.len()
        && c[pos..pos + w.len()] == w[..]
        && (pos == 0 || !(is_ident(c[pos - 1]) || c[pos - 1] == ':' || c[pos - 1] == '$'))
        && c.get(pos + w.len()).is_none_or(|&ch| !is_ident(ch))
}

fn line_at(c: &[char], pos: usize) -> usize {
    1 + c[..pos].iter().filter(|&&ch| ch == '\n').count()
}

/// The leaves of a use tree (`a::{b, c::{d as e, self}, f::*}`), each with
/// its segments and the name it binds.
fn use_tree(text: &str) -> Vec<(Vec<String>, Option<String>)> {
    fn parse(
        t: &[char],
        i: &mut usize,
        prefix: &[String],
        out: &mut Vec<(Vec<String>, Option<String>)>,
    ) {
        let mut segs = prefix.to_vec();
        loop {
            while *i < t.len() && t[*i].is_whitespace() {
                *i += 1;
            }
            if *i >= t.len() {
                return;
            }
            if t[*i] == '{' {
                *i += 1;
                loop {
                    parse(t, i, &segs, out);
                    while *i < t.len() && t[*i].is_whitespace() {
                        *i += 1;
                    }
                    match t.get(*i) {
                        Some(',') => {
                            *i += 1;
                            while *i < t.len() && t[*i].is_whitespace() {
                                *i += 1;
                            }
                            if t.get(*i) == Some(&'}') {
                                *i += 1;
                                return;
                            }
                        }
                        Some('}') => {
                            *i += 1;
                            return;
                        }
                        _ => return,
                    }
                }
            }
            if t[*i] == '*' {
                *i += 1;
                out.push((segs, None));
                return;
            }
            let start = *i;
            while *i < t.len() && is_ident(t[*i]) {
                *i += 1;
            }
            let id: String = t[start..*i].iter().collect();
            if id.is_empty() {
                return;
            }
            while *i < t.len() && t[*i].is_whitespace() {
                *i += 1;
            }
            if t.get(*i) == Some(&':') && t.get(*i + 1) == Some(&':') {
                *i += 2;
                segs.push(id);
                continue;
            }
            // A leaf: `id`, `id as alias`, or `self`.
            let mut binds = id.clone();
            if id == "self" {
                binds = segs.last().cloned().unwrap_or_default();
            } else {
                segs.push(id);
            }
            let rest: String = t[*i..].iter().take(64).collect();
            let rest = rest.trim_start();
            if let Some(after) = rest.strip_prefix("as ") {
                let alias: String = after
                    .trim_start()
                    .chars()
                    .take_while(|&c| is_ident(c))
                    .collect();
                let skip = rest.len() - after.trim_start().len() + alias.len();
                *i += t[*i..].iter().take_while(|c| c.is_whitespace()).count() + skip;
                binds = alias;
            }
            out.push((segs, Some(binds)));
            return;
        }
    }
    let t: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    parse(&t, &mut i, &[], &mut out);
    out
}

/// The names of the items `code` defines at any depth (fn, struct, enum,
/// trait, type, const, static, macro_rules, union), which is what a path
/// into this module can name.
fn defined_items(code: &str) -> BTreeSet<String> {
    let c: Vec<char> = code.chars().collect();
    let mut out = BTreeSet::new();
    for kw in [
        "fn", "struct", "enum", "trait", "type", "const", "static", "union",
    ] {
        for pos in 0..c.len() {
            if word_at(&c, pos, kw) {
                let mut k = pos + kw.len();
                while k < c.len() && c[k].is_whitespace() {
                    k += 1;
                }
                if kw == "static" && word_at(&c, k, "mut") {
                    k += 3;
                    while k < c.len() && c[k].is_whitespace() {
                        k += 1;
                    }
                }
                let id: String = c[k..].iter().take_while(|&&ch| is_ident(ch)).collect();
                if !id.is_empty() {
                    out.insert(id);
                }
            }
        }
    }
    for pos in 0..c.len() {
        if word_at(&c, pos, "macro_rules") {
            let rest: String = c[pos + 11..].iter().take(80).collect();
            let id: String = rest
                .trim_start_matches(|ch: char| ch == '!' || ch.is_whitespace())
                .chars()
                .take_while(|&ch| is_ident(ch))
                .collect();
            out.insert(id);
        }
    }
    out
}

/// Every `use` item of `code`: (position, whether it is `pub`, its tree text).
fn use_items(code: &str) -> Vec<(usize, bool, String)> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    for pos in 0..c.len() {
        if !word_at(&c, pos, "use") {
            continue;
        }
        let end = (pos..c.len()).find(|&k| c[k] == ';').unwrap_or(c.len());
        let before: String = c[pos.saturating_sub(16)..pos].iter().collect();
        let public = before.trim_end().ends_with("pub")
            || before.trim_end().ends_with(')') && before.contains("pub(");
        out.push((pos, public, c[pos + 3..end].iter().collect()));
    }
    out
}

fn module_path(rel: &Path) -> ModPath {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.pop()
        && last != "mod.rs"
        && last != "lib.rs"
        && last != "main.rs"
    {
        parts.push(last.trim_end_matches(".rs").to_string());
    }
    parts
}

/// Every `.rs` file below `dir`, sorted.
pub fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The children a file declares (`mod x;`, `pub mod x;`, ...), test items excluded.
fn declared_children(code: &str) -> BTreeSet<String> {
    code.split(';')
        .filter_map(|item| {
            let words: Vec<&str> = item.split_whitespace().collect();
            match words[..] {
                [.., "mod", name] => Some(name.to_string()),
                _ => None,
            }
        })
        .collect()
}

impl Graph {
    /// Reads every source file of `repo/src` (the library; `main.rs` apart).
    pub fn read(repo: &Path) -> Graph {
        let src = repo.join("src");
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        let mut modules: BTreeMap<ModPath, Module> = BTreeMap::new();
        let mut test_files = BTreeSet::new();
        for file in &files {
            let rel = file.strip_prefix(&src).expect("under src");
            if rel == Path::new("main.rs") || test_files.contains(file) {
                continue;
            }
            let text = std::fs::read_to_string(file).expect("readable source");
            let (code, tests) = without_test_items(&code_only(&text));
            let folder = if rel.ends_with("mod.rs") || rel == Path::new("lib.rs") {
                file.parent().expect("folder").to_path_buf()
            } else {
                file.with_extension("")
            };
            for t in &tests {
                test_files.insert(folder.join(format!("{t}.rs")));
                test_files.insert(folder.join(t).join("mod.rs"));
            }
            let module = Module {
                file: Path::new("src").join(rel),
                children: declared_children(&code),
                items: defined_items(&code),
                code,
                ..Module::default()
            };
            modules.insert(module_path(rel), module);
        }
        // Test modules read before their parent was seen are dropped here.
        modules.retain(|_, m| !test_files.contains(&repo.join(&m.file)));
        for m in modules.values_mut() {
            let c: Vec<char> = m.code.chars().collect();
            for (pos, public, tree) in use_items(&m.code) {
                for (segments, binds) in use_tree(&tree) {
                    let leaf = UseLeaf {
                        line: line_at(&c, pos),
                        segments: segments.clone(),
                        binds: binds.clone(),
                        public,
                    };
                    if public {
                        match &binds {
                            Some(b) => {
                                m.reexports.insert(b.clone(), segments);
                            }
                            None => m.globs.push(segments),
                        }
                    }
                    m.uses.push(leaf);
                }
            }
        }
        let mut graph = Graph {
            modules,
            edges: Vec::new(),
        };
        graph.edges = graph.compute_edges();
        graph
    }

    /// Every module path, in order.
    pub fn modules(&self) -> Vec<ModPath> {
        self.modules.keys().cloned().collect()
    }

    /// The file of a module.
    pub fn file(&self, m: &[String]) -> Option<&Path> {
        self.modules.get(m).map(|x| x.file.as_path())
    }

    /// Where the first segment of a path starts, seen from `at`: `crate`,
    /// `super` (chains), `self`, a child module, or a module alias.
    fn start(
        &self,
        at: &[String],
        segs: &[String],
        aliases: &BTreeMap<String, ModPath>,
    ) -> Option<(ModPath, usize)> {
        let first = segs.first()?;
        let mut cur: ModPath = at.to_vec();
        match first.as_str() {
            "crate" => return Some((Vec::new(), 1)),
            "self" => return Some((cur, 1)),
            "super" => {
                let mut k = 0;
                while segs.get(k).is_some_and(|s| s == "super") {
                    cur.pop()?;
                    k += 1;
                }
                return Some((cur, k));
            }
            _ => {}
        }
        if self
            .modules
            .get(at)
            .is_some_and(|m| m.children.contains(first))
        {
            cur.push(first.clone());
            return Some((cur, 1));
        }
        aliases.get(first).map(|m| (m.clone(), 1))
    }

    /// The module a path resolves to: the module it names, or the module
    /// that defines the item it names (through re-exports), or None for a
    /// path outside the crate.
    fn resolve(
        &self,
        at: &[String],
        segs: &[String],
        aliases: &BTreeMap<String, ModPath>,
        depth: usize,
    ) -> Option<(ModPath, bool)> {
        let (mut cur, mut k) = self.start(at, segs, aliases)?;
        while let Some(seg) = segs.get(k) {
            let module = self.modules.get(&cur)?;
            if module.children.contains(seg) {
                cur.push(seg.clone());
                k += 1;
                continue;
            }
            return Some((self.defining(&cur, seg, depth), false));
        }
        Some((cur, true))
    }

    /// The module that defines `item` as seen in module `m`: `m` itself,
    /// or where a `pub use` of `m` takes it from.
    fn defining(&self, m: &[String], item: &str, depth: usize) -> ModPath {
        let Some(module) = self.modules.get(m) else {
            return m.to_vec();
        };
        if depth > 8 || module.items.contains(item) {
            return m.to_vec();
        }
        let none = BTreeMap::new();
        if let Some(target) = module.reexports.get(item)
            && let Some((to, _)) = self.resolve(m, target, &none, depth + 1)
        {
            return to;
        }
        for glob in &module.globs {
            if let Some((g, true)) = self.resolve(m, glob, &none, depth + 1)
                && let Some(gm) = self.modules.get(&g)
                && (gm.items.contains(item) || gm.reexports.contains_key(item))
            {
                return self.defining(&g, item, depth + 1);
            }
        }
        m.to_vec()
    }

    fn compute_edges(&self) -> Vec<Edge> {
        let mut edges = Vec::new();
        for (at, module) in &self.modules {
            let mut push = |to: ModPath, line: usize, path: String| {
                if &to != at {
                    edges.push(Edge {
                        from: at.clone(),
                        to,
                        file: module.file.clone(),
                        line,
                        path,
                    });
                }
            };
            let mut aliases: BTreeMap<String, ModPath> = BTreeMap::new();
            let none = BTreeMap::new();
            for leaf in &module.uses {
                let written = leaf.segments.join("::");
                match self.resolve(at, &leaf.segments, &none, 0) {
                    Some((to, true)) => match &leaf.binds {
                        // A module alias: its uses are the edges (a public
                        // re-export of a module is an edge itself).
                        Some(b) => {
                            if leaf.public {
                                push(to.clone(), leaf.line, written);
                            }
                            aliases.insert(b.clone(), to);
                        }
                        None => push(to, leaf.line, format!("{written}::*")),
                    },
                    Some((to, false)) => push(to, leaf.line, written),
                    None => {}
                }
            }
            // Paths in code (outside `use` items).
            let c: Vec<char> = module.code.chars().collect();
            let mut in_use = vec![false; c.len()];
            for (pos, _, tree) in use_items(&module.code) {
                let end = (pos + 3 + tree.chars().count()).min(c.len());
                for f in &mut in_use[pos..end] {
                    *f = true;
                }
            }
            let mut pos = 0;
            while pos < c.len() {
                let starts = !in_use[pos]
                    && is_ident(c[pos])
                    && (pos == 0
                        || !(is_ident(c[pos - 1]) || c[pos - 1] == ':' || c[pos - 1] == '$'));
                if !starts {
                    pos += 1;
                    continue;
                }
                // Read `a::b::c` from here.
                let mut segs = Vec::new();
                let mut k = pos;
                loop {
                    let s = k;
                    while k < c.len() && is_ident(c[k]) {
                        k += 1;
                    }
                    segs.push(c[s..k].iter().collect::<String>());
                    let mut j = k;
                    while j < c.len() && c[j].is_whitespace() {
                        j += 1;
                    }
                    if c.get(j) == Some(&':') && c.get(j + 1) == Some(&':') {
                        j += 2;
                        while j < c.len() && c[j].is_whitespace() {
                            j += 1;
                        }
                        if j < c.len() && is_ident(c[j]) {
                            k = j;
                            continue;
                        }
                    }
                    break;
                }
                if segs.len() > 1
                    && let Some((to, _)) = self.resolve(at, &segs, &aliases, 0)
                {
                    push(to, line_at(&c, pos), segs.join("::"));
                }
                pos = k.max(pos + 1);
            }
        }
        edges
    }

    /// The strongly connected components with more than one module (the
    /// import circles), each sorted, with the edges inside it.
    pub fn circles(&self) -> Vec<(Vec<ModPath>, Vec<Edge>)> {
        circles(&self.edges)
    }
}

/// The import circles of `edges`: strongly connected components of more
/// than one node (Tarjan), each with its member nodes and inner edges.
pub fn circles(edges: &[Edge]) -> Vec<(Vec<ModPath>, Vec<Edge>)> {
    let mut nodes: BTreeSet<&ModPath> = BTreeSet::new();
    let mut next: BTreeMap<&ModPath, BTreeSet<&ModPath>> = BTreeMap::new();
    for e in edges.iter().filter(|e| e.from != e.to) {
        nodes.insert(&e.from);
        nodes.insert(&e.to);
        next.entry(&e.from).or_default().insert(&e.to);
    }
    // Iterative reachability is enough at this size: u and v share a
    // component when each reaches the other.
    let reach = |start: &ModPath| {
        let mut seen: BTreeSet<&ModPath> = BTreeSet::new();
        let mut stack = vec![start];
        while let Some(m) = stack.pop() {
            for &n in next.get(m).into_iter().flatten() {
                if seen.insert(n) {
                    stack.push(n);
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&ModPath, BTreeSet<&ModPath>> =
        nodes.iter().map(|&m| (m, reach(m))).collect();
    let mut done: BTreeSet<&ModPath> = BTreeSet::new();
    let mut out = Vec::new();
    for &m in &nodes {
        if done.contains(m) || !reached[m].contains(m) {
            continue;
        }
        let members: Vec<&ModPath> = reached[m]
            .iter()
            .copied()
            .filter(|n| reached[*n].contains(m))
            .collect();
        done.extend(members.iter().copied());
        let set: BTreeSet<&ModPath> = members.iter().copied().collect();
        let inner = edges
            .iter()
            .filter(|e| e.from != e.to && set.contains(&e.from) && set.contains(&e.to))
            .cloned()
            .collect();
        out.push((members.into_iter().cloned().collect(), inner));
    }
    out
}
