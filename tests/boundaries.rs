//! The module boundaries: dependencies point one way. Every `crate::` path
//! in `src/**/*.rs` (and every `super::` path that leaves its top-level
//! module), outside comments, string literals and `#[cfg(test)]` items, is
//! an edge between two top-level modules of `src/lib.rs`. The test fails,
//! naming the file and line of each edge, on
//!
//! - the numerics (`lcp`, `sparse`, `problem`, `integrators`, `contact`,
//!   `multibody`, `models`) importing the harness or the study kinds;
//! - the integrators importing a model (they take the problem types);
//! - the harness importing the study kinds (the kinds come in as a registry);
//! - the problem layer importing anything but `sparse` and `error`;
//! - any loop between top-level modules;
//! - a `crate::` path that names no module of `src/lib.rs` (the reader
//!   misread the source).
//!
//! `cargo test --test boundaries -- --nocapture` prints the module graph.
//!
//! A second test keeps ARCHITECTURE.md true to the tree: it names every
//! module of `src/` (as a whole word) and every file of `tests/`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The numerical modules: below the harness and the kinds.
const NUMERICS: [&str; 7] = [
    "lcp",
    "sparse",
    "problem",
    "integrators",
    "contact",
    "multibody",
    "models",
];

/// What the problem layer may import.
const PROBLEM_MAY_IMPORT: [&str; 2] = ["sparse", "error"];

/// One use of another top-level module.
#[derive(Debug, Clone, PartialEq)]
struct Edge {
    from: String,
    to: String,
    file: PathBuf,
    line: usize,
    /// The path as written, e.g. `crate::models`.
    path: String,
}

/// Why an edge from `from` to `to` is forbidden, if it is.
fn forbidden(from: &str, to: &str) -> Option<&'static str> {
    if from == to {
        return None;
    }
    if NUMERICS.contains(&from) && (to == "harness" || to == "studies") {
        return Some("the numerics import neither the harness nor the study kinds");
    }
    if from == "integrators" && to == "models" {
        return Some("an integrator takes problem types (crate::problem), never a model");
    }
    if from == "harness" && to == "studies" {
        return Some("the harness knows no study kind (the kinds come in as a Registry)");
    }
    if from == "problem" && !PROBLEM_MAY_IMPORT.contains(&to) {
        return Some("the problem layer imports only sparse and error");
    }
    None
}

/// Every violation: forbidden edges, then the edges of every loop between
/// modules, each as `file:line: from -> to (path): why`.
fn violations(edges: &[Edge]) -> Vec<String> {
    let mut out = Vec::new();
    for e in edges {
        if let Some(why) = forbidden(&e.from, &e.to) {
            out.push(format!("{}: {why}", describe(e)));
        }
    }
    let looped = modules_on_loops(edges);
    let mut reported = BTreeSet::new();
    for e in edges {
        let same_loop = e.from != e.to
            && looped.get(&e.from).is_some_and(|set| set.contains(&e.to))
            && looped.get(&e.to).is_some_and(|set| set.contains(&e.from));
        if same_loop && reported.insert((e.from.clone(), e.to.clone())) {
            let members = looped[&e.from].iter().cloned().collect::<Vec<_>>();
            out.push(format!(
                "{}: part of a loop between {}",
                describe(e),
                members.join(", ")
            ));
        }
    }
    out
}

fn describe(e: &Edge) -> String {
    format!(
        "{}:{}: {} -> {} ({})",
        e.file.display(),
        e.line,
        e.from,
        e.to,
        e.path
    )
}

/// For every module on a loop, the modules of its loop (itself included):
/// those it reaches that reach it back.
fn modules_on_loops(edges: &[Edge]) -> BTreeMap<String, BTreeSet<String>> {
    let mut next: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for e in edges.iter().filter(|e| e.from != e.to) {
        next.entry(&e.from).or_default().insert(&e.to);
    }
    let reach = |start: &str| {
        let mut seen = BTreeSet::new();
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
    let reached: BTreeMap<&str, BTreeSet<&str>> = next.keys().map(|&m| (m, reach(m))).collect();
    let mut out = BTreeMap::new();
    for (&m, set) in &reached {
        if set.contains(m) {
            let members = set
                .iter()
                .filter(|n| reached.get(*n).is_some_and(|r| r.contains(m)))
                .map(|n| n.to_string())
                .collect();
            out.insert(m.to_string(), members);
        }
    }
    out
}

/// `text` with comments and the contents of string and character literals
/// replaced by spaces (newlines kept, so lines still count).
fn code_only(text: &str) -> String {
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
fn without_test_items(code: &str) -> (String, Vec<String>) {
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

/// The top-level modules that `code` of a file at module path `module`
/// (e.g. `["integrators", "newmark"]`) names, with their lines and the
/// paths as written: `crate::x`, `crate::{x::a, y}`, and `super::` chains
/// that reach the crate root.
fn uses(code: &str, module: &[String]) -> Vec<(usize, String, String)> {
    let c: Vec<char> = code.chars().collect();
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let line_at = |pos: usize| 1 + c[..pos].iter().filter(|&&ch| ch == '\n').count();
    let word_at = |pos: usize, w: &str| {
        let w: Vec<char> = w.chars().collect();
        c.len() >= pos + w.len()
            && c[pos..pos + w.len()] == w[..]
            && (pos == 0 || !(ident(c[pos - 1]) || c[pos - 1] == ':'))
            && c.get(pos + w.len()).is_none_or(|&ch| !ident(ch))
    };
    let skip_ws = |mut k: usize| {
        while k < c.len() && c[k].is_whitespace() {
            k += 1;
        }
        k
    };
    let after_colons = |k: usize| {
        let k = skip_ws(k);
        (c.get(k) == Some(&':') && c.get(k + 1) == Some(&':')).then(|| skip_ws(k + 2))
    };
    let read_ident = |k: usize| {
        c[k..]
            .iter()
            .take_while(|&&ch| ident(ch))
            .collect::<String>()
    };
    let mut found = Vec::new();
    for pos in 0..c.len() {
        let (mut k, root) = if word_at(pos, "crate") {
            match after_colons(pos + 5) {
                Some(k) => (k, true),
                None => continue,
            }
        } else if word_at(pos, "super") {
            let (mut k, mut up) = (pos, 0);
            while c[k..].starts_with(&['s', 'u', 'p', 'e', 'r'])
                && c.get(k + 5).is_none_or(|&ch| !ident(ch))
            {
                match after_colons(k + 5) {
                    Some(next) => {
                        up += 1;
                        k = next;
                    }
                    None => break,
                }
            }
            (k, up > 0 && up == module.len())
        } else {
            continue;
        };
        if !root {
            continue;
        }
        let written: String = c[pos..k].iter().filter(|ch| !ch.is_whitespace()).collect();
        if c.get(k) == Some(&'{') {
            let mut depth = 0;
            let mut item_start = k + 1;
            while k < c.len() {
                match c[k] {
                    '{' => depth += 1,
                    '}' | ',' if depth == 1 => {
                        let s = skip_ws(item_start);
                        let name = read_ident(s);
                        if !name.is_empty() && name != "self" {
                            found.push((line_at(s), name.clone(), format!("{written}{{{name}}}")));
                        }
                        item_start = k + 1;
                        if c[k] == '}' {
                            break;
                        }
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
                k += 1;
            }
        } else {
            let name = read_ident(k);
            if !name.is_empty() {
                found.push((line_at(pos), name.clone(), format!("{written}{name}")));
            }
        }
    }
    found
}

/// The module path of a source file under `src/` (`mod.rs` is its folder).
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.pop()
        && last != "mod.rs"
    {
        parts.push(last.trim_end_matches(".rs").to_string());
    }
    parts
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
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

/// Every edge between top-level modules in `src` (file paths relative to
/// the repository), and the paths that name no top-level module.
fn read_src(repo: &Path) -> (Vec<Edge>, Vec<String>) {
    let src = repo.join("src");
    let lib = code_only(&std::fs::read_to_string(src.join("lib.rs")).expect("src/lib.rs"));
    let top: BTreeSet<String> = lib
        .split(';')
        .filter_map(
            |item| match item.split_whitespace().collect::<Vec<_>>()[..] {
                [.., "mod", name] => Some(name.to_string()),
                _ => None,
            },
        )
        .collect();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut test_files = BTreeSet::new();
    let (mut edges, mut unknown) = (Vec::new(), Vec::new());
    for file in &files {
        let rel = file.strip_prefix(&src).expect("under src");
        let module = module_path(rel);
        if module.len() <= 1 && (module == ["lib"] || module == ["main"]) {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("readable source");
        let (code, tests) = without_test_items(&code_only(&text));
        let folder = if rel.ends_with("mod.rs") {
            file.parent().expect("folder").to_path_buf()
        } else {
            file.with_extension("")
        };
        for t in tests {
            test_files.insert(folder.join(format!("{t}.rs")));
            test_files.insert(folder.join(&t).join("mod.rs"));
        }
        if test_files.contains(file) {
            continue;
        }
        let shown = Path::new("src").join(rel);
        for (line, to, path) in uses(&code, &module) {
            if !top.contains(&to) {
                unknown.push(format!(
                    "{}:{line}: {path} names no module of src/lib.rs",
                    shown.display()
                ));
                continue;
            }
            edges.push(Edge {
                from: module[0].clone(),
                to,
                file: shown.clone(),
                line,
                path,
            });
        }
    }
    (edges, unknown)
}

#[test]
fn src_dependencies_point_one_way() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let (edges, unknown) = read_src(&repo);
    let mut graph: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for e in edges.iter().filter(|e| e.from != e.to) {
        *graph.entry((&e.from, &e.to)).or_default() += 1;
    }
    println!("module graph (from -> to: uses):");
    for ((from, to), n) in &graph {
        println!("  {from} -> {to}: {n}");
    }
    assert!(graph.len() > 10, "too few edges read: {graph:?}");
    let mut bad = violations(&edges);
    bad.extend(unknown);
    assert!(bad.is_empty(), "forbidden imports:\n{}", bad.join("\n"));
}

fn edge(from: &str, to: &str, line: usize) -> Edge {
    Edge {
        from: from.into(),
        to: to.into(),
        file: PathBuf::from(format!("src/{from}/x.rs")),
        line,
        path: format!("crate::{to}"),
    }
}

/// A loop a -> b -> c -> a is reported edge by edge with file and line;
/// the edge into the loop from outside (d -> a) and a DAG are not.
#[test]
fn a_loop_is_reported_with_its_files_and_lines() {
    let edges = [
        edge("a", "b", 1),
        edge("b", "c", 2),
        edge("c", "a", 3),
        edge("d", "a", 4),
        edge("a", "a", 5),
    ];
    let bad = violations(&edges);
    assert_eq!(bad.len(), 3, "{bad:?}");
    for (e, line) in [("a -> b", 1), ("b -> c", 2), ("c -> a", 3)] {
        assert!(
            bad.iter()
                .any(|b| b.contains(e) && b.contains(&format!("x.rs:{line}:"))),
            "{e}: {bad:?}"
        );
    }
    assert!(
        bad.iter().all(|b| b.contains("loop between a, b, c")),
        "{bad:?}"
    );
    assert!(violations(&[edge("a", "b", 1), edge("b", "c", 2), edge("a", "c", 3)]).is_empty());
}

/// Each forbidden direction is reported; the allowed ones are not.
#[test]
fn forbidden_edges_are_reported() {
    for (from, to) in [
        ("integrators", "models"),
        ("harness", "studies"),
        ("models", "harness"),
        ("lcp", "studies"),
        ("problem", "integrators"),
        ("problem", "models"),
    ] {
        let bad = violations(&[edge(from, to, 7)]);
        assert_eq!(bad.len(), 1, "{from} -> {to}: {bad:?}");
        assert!(bad[0].starts_with(&format!("src/{from}/x.rs:7: {from} -> {to}")));
    }
    for (from, to) in [
        ("models", "integrators"),
        ("integrators", "problem"),
        ("studies", "harness"),
        ("problem", "sparse"),
        ("problem", "problem"),
    ] {
        assert!(
            violations(&[edge(from, to, 1)]).is_empty(),
            "{from} -> {to}"
        );
    }
}

/// The reader sees `crate::` and root-reaching `super::` paths in code,
/// grouped or not, and nothing in comments, strings or test items.
#[test]
fn the_reader_skips_comments_strings_and_test_items() {
    let text = r####"//! see crate::harness
use crate::lcp::Lcp;
use crate::{sparse::csr::Csr, error::InputError};
use super::super::contact::friction;
use super::sibling::Thing;
/* crate::studies /* nested crate::studies */ */
const S: &str = "crate::studies";
const R: &str = r#"crate::studies "quoted""#;
const C: char = '"';
fn f<'a>(x: &'a str) -> crate::guard::G { crate::deadline::check(); }
#[cfg(test)]
use crate::harness::x;
#[cfg(test)]
mod tests {
    use crate::studies::y;
}
#[cfg(test)]
mod more;
"####;
    let (code, tests) = without_test_items(&code_only(text));
    assert_eq!(tests, ["more"]);
    let module = ["integrators".to_string(), "newmark".to_string()];
    let found: Vec<(usize, String)> = uses(&code, &module)
        .into_iter()
        .map(|(line, to, _)| (line, to))
        .collect();
    let expect = [
        (2, "lcp"),
        (3, "sparse"),
        (3, "error"),
        (4, "contact"),
        (10, "guard"),
        (10, "deadline"),
    ];
    assert_eq!(
        found,
        expect.map(|(l, m)| (l, m.to_string())).to_vec(),
        "{code}"
    );
}

/// The module name of a source file: its stem, or its folder's name for a
/// `mod.rs`.
fn module_name(path: &Path) -> String {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    if stem == "mod" {
        path.parent()
            .and_then(Path::file_name)
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned()
    } else {
        stem.into_owned()
    }
}

/// Whether `doc` has `word` as a whole word (not inside a longer name).
fn names_word(doc: &str, word: &str) -> bool {
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_';
    doc.match_indices(word).any(|(i, _)| {
        let before = doc[..i].chars().next_back();
        let after = doc[i + word.len()..].chars().next();
        !before.is_some_and(is_name) && !after.is_some_and(is_name)
    })
}

/// The files whose module `doc` does not name: every source module by its
/// name, every integration test by its file name.
fn unnamed(doc: &str, sources: &[PathBuf], tests: &[PathBuf]) -> Vec<String> {
    let mut out: Vec<String> = sources
        .iter()
        .filter(|p| !names_word(doc, &module_name(p)))
        .map(|p| p.display().to_string())
        .collect();
    out.extend(
        tests
            .iter()
            .filter(|p| {
                let name = p.file_name().unwrap_or_default().to_string_lossy();
                !doc.contains(name.as_ref())
            })
            .map(|p| p.display().to_string()),
    );
    out
}

/// ARCHITECTURE.md names every module of `src/` and every test file of
/// `tests/` (issue 18: the architecture document matches the code).
#[test]
fn the_architecture_document_names_every_module_and_test() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(repo.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let mut sources = Vec::new();
    rust_files(&repo.join("src"), &mut sources);
    let mut tests = Vec::new();
    rust_files(&repo.join("tests"), &mut tests);
    assert!(sources.len() > 100 && tests.len() > 20);
    let missing = unnamed(&doc, &sources, &tests);
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md does not name:\n{}",
        missing.join("\n")
    );
}

/// The check finds a module and a test the document does not name, and is
/// not fooled by a longer name that contains the module's.
#[test]
fn an_unnamed_module_or_test_is_found() {
    let doc = "lcp/ (lemke.rs, pivoting), tests: cli.rs; friction_law.rs";
    let sources = [
        PathBuf::from("src/lcp/mod.rs"),
        PathBuf::from("src/lcp/lemke.rs"),
        PathBuf::from("src/lcp/pgs.rs"),
        PathBuf::from("src/studies/friction.rs"),
    ];
    let tests = [
        PathBuf::from("tests/cli.rs"),
        PathBuf::from("tests/kernels.rs"),
    ];
    assert_eq!(
        unnamed(doc, &sources, &tests),
        [
            "src/lcp/pgs.rs",
            "src/studies/friction.rs",
            "tests/kernels.rs"
        ]
    );
}
