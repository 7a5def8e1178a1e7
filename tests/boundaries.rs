//! The module boundaries and the map of them. The import graph of `src/`
//! (`tests/common/module_graph.rs`: every `use` tree and path, resolved
//! through the module tree and `pub use` re-exports to the defining
//! module, outside comments, strings and `#[cfg(test)]` items) must
//!
//! - hold no import circle between any two modules (files), at any depth;
//! - keep the layers: the numerics never import the harness or the kinds,
//!   the integrators no model, the models no integrator or driver, the
//!   problem layer only `sparse`, `contact` and `error`, the harness no
//!   numerics module at all;
//! - equal ARCHITECTURE.md's edge list between top-level modules.
//!
//! ARCHITECTURE.md names every source file and test file by its path, and
//! no path that does not exist. The "how to add" section's file counts
//! are checked: a friction law's family variants and spec names, and a
//! gap-system method's variants and spec names, live in their files.
//!
//! `cargo test --test boundaries -- --nocapture` prints the graph.

#[path = "common/module_graph.rs"]
mod module_graph;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use module_graph::{Edge, Graph, circles, code_only, name, rust_files, without_test_items};

/// The numerical modules: below the harness and the kinds.
const NUMERICS: [&str; 9] = [
    "lcp",
    "sparse",
    "problem",
    "integrators",
    "contact",
    "multibody",
    "models",
    "drivers",
    "fixtures",
];

/// What the problem layer may import.
const PROBLEM_MAY_IMPORT: [&str; 3] = ["sparse", "contact", "error"];

/// The leaves every layer may import (and all the harness may import).
const LEAVES: [&str; 3] = ["error", "deadline", "guard"];

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn top(m: &[String]) -> &str {
    m.first().map_or("crate", String::as_str)
}

/// Why an edge between top-level modules `from` and `to` is forbidden.
fn forbidden(from: &str, to: &str) -> Option<&'static str> {
    if from == to || from == "crate" {
        return None;
    }
    if NUMERICS.contains(&from) && (to == "harness" || to == "studies") {
        return Some("the numerics import neither the harness nor the study kinds");
    }
    if from == "integrators" && to == "models" {
        return Some("an integrator takes problem types (crate::problem), never a model");
    }
    if from == "models" && (to == "integrators" || to == "drivers") {
        return Some("a model is plain data over the problem types; it runs no integrator");
    }
    if from == "harness" && !LEAVES.contains(&to) {
        return Some(
            "the harness imports no kind and no numerics module (the kinds and their kernels come in as a Registry)",
        );
    }
    if from == "problem" && !PROBLEM_MAY_IMPORT.contains(&to) {
        return Some("the problem layer imports only sparse, contact and error");
    }
    None
}

/// Every violation: forbidden edges and the edges of every circle, each as
/// `file:line: from -> to (path): why`.
fn violations(edges: &[Edge]) -> Vec<String> {
    let mut out = Vec::new();
    for e in edges {
        if let Some(why) = forbidden(top(&e.from), top(&e.to)) {
            out.push(format!("{}: {why}", e.describe()));
        }
    }
    for (members, inner) in circles(edges) {
        let names: Vec<String> = members.iter().map(|m| name(m)).collect();
        for e in inner {
            out.push(format!(
                "{}: part of an import circle between {}",
                e.describe(),
                names.join(", ")
            ));
        }
    }
    out
}

/// The edges between top-level modules (leaves included), `from -> to`.
fn top_edges(edges: &[Edge]) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for e in edges {
        let (f, t) = (top(&e.from), top(&e.to));
        if f != t && f != "crate" && t != "crate" {
            out.entry(f.to_string()).or_default().insert(t.to_string());
        }
    }
    out
}

#[test]
fn src_has_no_import_circle_and_keeps_its_layers() {
    let g = Graph::read(&repo());
    println!("module graph (top level):");
    for (from, to) in top_edges(&g.edges) {
        println!(
            "  {from} -> {}",
            to.into_iter().collect::<Vec<_>>().join(", ")
        );
    }
    assert!(g.modules().len() > 150, "too few modules read");
    assert!(
        g.edges.len() > 1000,
        "too few edges read: {}",
        g.edges.len()
    );
    let bad = violations(&g.edges);
    assert!(bad.is_empty(), "forbidden imports:\n{}", bad.join("\n"));
}

fn edge(from: &str, to: &str, line: usize) -> Edge {
    let path = |s: &str| s.split("::").map(String::from).collect::<Vec<_>>();
    Edge {
        from: path(from),
        to: path(to),
        file: PathBuf::from(format!("src/{}.rs", from.replace("::", "/"))),
        line,
        path: format!("crate::{to}"),
    }
}

/// A circle a -> b -> c -> a between modules at any depth is reported
/// edge by edge with file and line; an edge into it from outside and a DAG
/// are not.
#[test]
fn a_circle_is_reported_with_its_files_and_lines() {
    let edges = [
        edge("harness::report", "harness::report::sections", 1),
        edge("harness::report::sections", "harness::report::tables", 2),
        edge("harness::report::tables", "harness::report", 3),
        edge("harness::runner", "harness::report", 4),
    ];
    let bad = violations(&edges);
    assert_eq!(bad.len(), 3, "{bad:?}");
    for line in 1..=3 {
        assert!(
            bad.iter()
                .any(|b| b.contains(&format!(".rs:{line}:")) && b.contains("import circle")),
            "{line}: {bad:?}"
        );
    }
    assert!(
        violations(&[
            edge("lcp::solver", "lcp::run", 1),
            edge("lcp::auto", "lcp::run", 2),
            edge("lcp::solver", "lcp::auto", 3),
        ])
        .is_empty()
    );
}

/// Each forbidden direction is reported; the allowed ones are not.
#[test]
fn forbidden_edges_are_reported() {
    for (from, to) in [
        ("integrators::newmark", "models::belt"),
        ("models::belt", "integrators::moreau"),
        ("models::belt", "drivers::friction"),
        ("harness::runner", "studies::keys"),
        ("harness::kernels", "models::belt"),
        ("harness::kernels", "integrators::rk"),
        ("harness::kernels", "multibody::system"),
        ("harness::kernels", "lcp::solver"),
        ("fixtures::chain", "harness::study"),
        ("lcp::auto", "studies::keys"),
        ("problem::ode", "integrators::rk"),
        ("problem::ode", "models::belt"),
    ] {
        let bad = violations(&[edge(from, to, 7)]);
        assert_eq!(bad.len(), 1, "{from} -> {to}: {bad:?}");
        assert!(bad[0].contains(":7:"), "{bad:?}");
    }
    for (from, to) in [
        ("drivers::friction", "integrators::moreau"),
        ("integrators::moreau", "problem::moreau"),
        ("studies::keys", "harness::spec"),
        ("problem::moreau", "contact::impulse"),
        ("harness::runner", "error"),
        ("fixtures::chain", "models::gap_system"),
    ] {
        assert!(
            violations(&[edge(from, to, 1)]).is_empty(),
            "{from} -> {to}"
        );
    }
}

/// The reader sees `use` trees and paths in code, resolved to the module
/// that defines what they name, and nothing in comments, strings or test
/// items.
#[test]
fn the_reader_skips_comments_strings_and_test_items() {
    let text = r####"//! see crate::harness
use crate::lcp::Lcp;
/* crate::studies /* nested crate::studies */ */
const S: &str = "crate::studies";
fn f() { crate::deadline::check(); }
#[cfg(test)]
mod tests {
    use crate::studies::y;
}
"####;
    let (code, tests) = without_test_items(&code_only(text));
    assert!(tests.is_empty());
    assert!(!code.contains("studies"), "{code}");
    assert!(code.contains("crate::lcp::Lcp") && code.contains("crate::deadline::check"));
}

/// The graph resolves through `pub use` re-exports: `crate::harness::
/// checks::Metric` is defined in `harness/checks/resolve.rs`, and a
/// child's `super::` path to a sibling goes to the sibling.
#[test]
fn paths_resolve_to_their_defining_module() {
    let g = Graph::read(&repo());
    let to = |from: &str, target: &str| {
        g.edges
            .iter()
            .any(|e| name(&e.from) == from && name(&e.to) == target)
    };
    assert!(to("harness::claims", "harness::checks::resolve"));
    assert!(!to("harness::claims", "harness::checks"));
    assert!(to(
        "harness::report::perf::detail",
        "harness::report::perf::text"
    ));
}

/// The fenced `edges` block of ARCHITECTURE.md: `from -> a, b, c` lines.
fn documented_edges(doc: &str) -> BTreeMap<String, BTreeSet<String>> {
    let start = doc
        .find("```edges")
        .expect("ARCHITECTURE.md has an ```edges block");
    let body = &doc[start + "```edges".len()..];
    let body = &body[..body.find("```").expect("the edges block ends")];
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in body.lines().filter(|l| !l.trim().is_empty()) {
        let (from, to) = line.split_once("->").expect("`from -> to, ...`");
        out.entry(from.trim().to_string())
            .or_default()
            .extend(to.split(',').map(|t| t.trim().to_string()));
    }
    out
}

/// The differences between two edge maps, as `from -> to` lines.
fn edge_differences(
    doc: &BTreeMap<String, BTreeSet<String>>,
    code: &BTreeMap<String, BTreeSet<String>>,
) -> Vec<String> {
    let flat = |m: &BTreeMap<String, BTreeSet<String>>| -> BTreeSet<(String, String)> {
        m.iter()
            .flat_map(|(f, ts)| ts.iter().map(move |t| (f.clone(), t.clone())))
            .collect()
    };
    let (d, c) = (flat(doc), flat(code));
    let mut out: Vec<String> = c
        .difference(&d)
        .map(|(f, t)| format!("in the code, not in ARCHITECTURE.md: {f} -> {t}"))
        .collect();
    out.extend(
        d.difference(&c)
            .map(|(f, t)| format!("in ARCHITECTURE.md, not in the code: {f} -> {t}")),
    );
    out
}

/// ARCHITECTURE.md's edge list is the computed graph's, edge for edge.
#[test]
fn the_architecture_document_lists_the_import_edges() {
    let doc = std::fs::read_to_string(repo().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let g = Graph::read(&repo());
    let diff = edge_differences(&documented_edges(&doc), &top_edges(&g.edges));
    assert!(diff.is_empty(), "{}", diff.join("\n"));
}

/// A missing and an extra edge are both found.
#[test]
fn an_edge_list_that_differs_is_found() {
    let doc = "```edges\nmodels -> problem, sparse\nharness -> error\n```";
    let mut code = documented_edges(doc);
    assert!(edge_differences(&documented_edges(doc), &code).is_empty());
    code.get_mut("models").unwrap().insert("integrators".into());
    code.get_mut("harness").unwrap().remove("error");
    let diff = edge_differences(&documented_edges(doc), &code);
    assert_eq!(diff.len(), 2, "{diff:?}");
    assert!(diff[0].contains("models -> integrators"));
    assert!(diff[1].contains("harness -> error"));
}

/// The `.rs` paths the document names in backticks: `lcp/solver.rs`,
/// `tests/cli.rs`.
fn named_paths(doc: &str) -> BTreeSet<String> {
    doc.split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| {
            s.ends_with(".rs")
                && !s.contains(' ')
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_/.-".contains(c))
        })
        .map(String::from)
        .collect()
}

/// What the document misses or names wrongly: source files by their path
/// under `src/`, test files by `tests/...`; a named path of neither kind
/// that does not exist.
fn unnamed(named: &BTreeSet<String>, sources: &[String], tests: &[String]) -> Vec<String> {
    let mut out: Vec<String> = sources
        .iter()
        .filter(|p| !named.contains(*p))
        .map(|p| format!("src/{p} is not named (as `{p}`)"))
        .collect();
    out.extend(
        tests
            .iter()
            .filter(|p| !named.contains(*p))
            .map(|p| format!("{p} is not named")),
    );
    out.extend(
        named
            .iter()
            .filter(|n| !sources.contains(n) && !tests.contains(n) && !n.starts_with("benches/"))
            .map(|n| format!("`{n}` names no file")),
    );
    out
}

/// ARCHITECTURE.md names every module of `src/` and every file of
/// `tests/` by its path, and no file that does not exist.
#[test]
fn the_architecture_document_names_every_file_by_path() {
    let root = repo();
    let doc = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let rel = |base: &Path, p: &Path| {
        p.strip_prefix(base)
            .expect("under")
            .to_string_lossy()
            .into_owned()
    };
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let sources: Vec<String> = files.iter().map(|p| rel(&root.join("src"), p)).collect();
    let mut files = Vec::new();
    rust_files(&root.join("tests"), &mut files);
    let tests: Vec<String> = files.iter().map(|p| rel(&root, p)).collect();
    assert!(sources.len() > 150 && tests.len() > 25);
    let missing = unnamed(&named_paths(&doc), &sources, &tests);
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md:\n{}",
        missing.join("\n")
    );
}

/// A module named only by a word of its name (`solver` for
/// `lcp/solver.rs`) is not named; a stale path is found.
#[test]
fn an_unnamed_module_or_a_stale_path_is_found() {
    let doc = "`lcp/pgs.rs` and the solver module; `tests/cli.rs`, `lcp/gone.rs`";
    let sources = ["lcp/pgs.rs".to_string(), "lcp/solver.rs".to_string()];
    let tests = ["tests/cli.rs".to_string(), "tests/kernels.rs".to_string()];
    assert_eq!(
        unnamed(&named_paths(doc), &sources, &tests),
        [
            "src/lcp/solver.rs is not named (as `lcp/solver.rs`)",
            "tests/kernels.rs is not named",
            "`lcp/gone.rs` names no file"
        ]
    );
}

/// The code of every source file (comments, strings and test items blanked),
/// by path under `src/`, and its text without test items (strings kept).
fn sources() -> Vec<(String, String, String)> {
    let root = repo();
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    files
        .iter()
        .filter(|p| !p.ends_with("tests.rs"))
        .map(|p| {
            let text = std::fs::read_to_string(p).expect("source");
            let code = without_test_items(&code_only(&text)).0;
            let cut = text.find("#[cfg(test)]").unwrap_or(text.len());
            let rel = p.strip_prefix(root.join("src")).expect("under src");
            (
                rel.to_string_lossy().into_owned(),
                code,
                text[..cut].to_string(),
            )
        })
        .collect()
}

/// The files of `src/` whose code names any of `paths` (as whole paths)
/// or whose text (strings included, tests excluded) holds any of
/// `literals`.
fn files_knowing(paths: &[String], literals: &[String]) -> BTreeSet<String> {
    files_knowing_in(sources(), paths, literals)
}

/// [`files_knowing`] over the given (path, code, text) triples.
fn files_knowing_in(
    sources: Vec<(String, String, String)>,
    paths: &[String],
    literals: &[String],
) -> BTreeSet<String> {
    let whole = |code: &str, p: &str| {
        code.match_indices(p).any(|(i, _)| {
            let after = code[i + p.len()..].chars().next();
            !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
    };
    sources
        .into_iter()
        .filter(|(_, code, text)| {
            paths.iter().any(|p| whole(code, p)) || literals.iter().any(|l| text.contains(l))
        })
        .map(|(rel, _, _)| rel)
        .collect()
}

/// "How to add a friction law" (ARCHITECTURE.md): every law's family
/// variant is named in its family's file only, and every law's spec name
/// is dispatched in `studies/shared/friction.rs` only; so a new law of a
/// family touches its family file, the `[friction]` parser and the docs.
#[test]
fn a_friction_law_is_known_to_three_files() {
    let families = [
        (
            "contact/friction/set_valued.rs",
            "SetValued",
            &["Constant", "Coulomb"][..],
        ),
        (
            "contact/friction/regularized.rs",
            "Regularized",
            &["Tanh", "Adams", "MicroSlip"][..],
        ),
        (
            "contact/friction/exponential.rs",
            "Exponential",
            &["Ansys", "Stribeck"][..],
        ),
    ];
    for (file, family, variants) in families {
        let paths: Vec<String> = variants.iter().map(|v| format!("{family}::{v}")).collect();
        let knowing = files_knowing(&paths, &[]);
        assert_eq!(
            knowing,
            BTreeSet::from([file.to_string()]),
            "the variants of {family} are matched outside {file}"
        );
    }
    let text = std::fs::read_to_string(repo().join("src/studies/shared/friction.rs"))
        .expect("friction.rs");
    let names: Vec<String> = [
        "coulomb",
        "constant",
        "tanh",
        "adams",
        "micro-slip",
        "ansys",
        "stribeck",
    ]
    .iter()
    .map(|n| format!("\"{n}\" =>"))
    .collect();
    for n in &names {
        assert!(
            text.contains(n.as_str()),
            "the [friction] parser dispatches {n}"
        );
    }
    assert_eq!(
        files_knowing(&[], &names),
        BTreeSet::from(["studies/shared/friction.rs".to_string()]),
        "a friction law's spec name is dispatched outside the [friction] parser"
    );
}

/// "How to add a gap-system integrator": of the kinds' files, only
/// `studies/gap_system/method.rs` names the `GapMethod` variants and the
/// spec names, and `studies/gap_system/kernels.rs` the spec names its
/// kernels measure; a new one is its step solver in
/// `integrators/newmark.rs`, a variant there, its kernel, and its line in
/// the docs.
#[test]
fn a_gap_system_method_is_known_to_its_files() {
    let paths = [
        "GapMethod::NewmarkLcp".to_string(),
        "GapMethod::NewmarkSsn".to_string(),
    ];
    let literals = ["\"newmark-lcp\"".to_string(), "\"newmark-ssn\"".to_string()];
    // The integrator names itself in its errors; the kinds dispatch.
    let kinds: BTreeSet<String> = files_knowing(&paths, &literals)
        .into_iter()
        .filter(|f| f.starts_with("studies/"))
        .collect();
    // The kind's kernels name the methods they measure a step of.
    assert_eq!(
        kinds,
        BTreeSet::from([
            "studies/gap_system/kernels.rs".to_string(),
            "studies/gap_system/method.rs".to_string(),
        ])
    );
}

/// The file-count checks see a variant matched outside its family and a
/// dispatch on a spec name outside its parser.
#[test]
fn the_file_count_checks_can_fail() {
    let file = |rel: &str, code: &str| (rel.to_string(), code.to_string(), code.to_string());
    let sources = vec![
        file(
            "contact/friction/regularized.rs",
            "Regularized::Tanh(l) => l.coefficient(s),",
        ),
        file(
            "studies/other.rs",
            "match f { Regularized::Tanh(_) => 1, _ => 0 }",
        ),
        file("studies/none.rs", "Regularized::TanhLike(x)"),
        file("studies/shared/friction.rs", r#""tanh" => tanh(&k, raw)?,"#),
        file(
            "studies/parser_twin.rs",
            r#"match n { "tanh" => 1, _ => 2 }"#,
        ),
    ];
    assert_eq!(
        files_knowing_in(sources.clone(), &["Regularized::Tanh".to_string()], &[]),
        BTreeSet::from([
            "contact/friction/regularized.rs".to_string(),
            "studies/other.rs".to_string()
        ])
    );
    assert_eq!(
        files_knowing_in(sources, &[], &["\"tanh\" =>".to_string()]),
        BTreeSet::from([
            "studies/parser_twin.rs".to_string(),
            "studies/shared/friction.rs".to_string()
        ])
    );
    // On the repository, the reader sees the family file's own variants.
    assert!(
        files_knowing(&["SetValued::Coulomb".to_string()], &[])
            .contains("contact/friction/set_valued.rs")
    );
}
