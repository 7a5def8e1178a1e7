//! Kind `gap-system`: a reference file that runs the same discrete scheme
//! (`reference.same_scheme`) gives agreement scalars, not errors.

mod common;
use common::SDOF_SPEC as SPEC;
use common::{run_in, stderr};

/// The header of `out/tiny/summary.csv`.
fn summary_header(dir: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("out/tiny/summary.csv")).expect("summary.csv");
    text.lines()
        .next()
        .expect("header")
        .split(',')
        .map(str::to_string)
        .collect()
}

/// The method's own trajectory as the reference file: with `same_scheme`
/// the scalars are `max_agreement_*` (zero here), without it the same file
/// gives `max_error_*`; `same_scheme` without a file is refused (exit 2).
#[test]
fn a_same_scheme_peer_measures_agreement_not_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::write(
        d.join("s.toml"),
        format!("{SPEC}[study.reference]\nmethod = \"none\"\n"),
    )
    .expect("write");
    let out = run_in(d, &["s.toml", "--out", "first", "--report", "rep"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    std::fs::copy(d.join("first/tiny/tiny.csv"), d.join("peer.csv")).expect("copy");

    let with = |same: &str| {
        format!("{SPEC}[study.reference]\nmethod = \"file\"\nfile = \"peer.csv\"\n{same}")
    };
    std::fs::write(d.join("s.toml"), with("same_scheme = true\n")).expect("write");
    let out = run_in(d, &["s.toml", "--out", "out", "--report", "rep"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let header = summary_header(d);
    assert!(header.iter().any(|h| h == "max_agreement_x"), "{header:?}");
    assert!(
        !header.iter().any(|h| h.starts_with("max_error")),
        "{header:?}"
    );
    let readme = std::fs::read_to_string(d.join("out/tiny/README.md")).expect("README");
    assert!(readme.contains("agreement with peer.csv"), "{readme}");

    std::fs::write(d.join("s.toml"), with("")).expect("write");
    let out = run_in(d, &["s.toml", "--out", "out", "--report", "rep"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let header = summary_header(d);
    assert!(header.iter().any(|h| h == "max_error_x"), "{header:?}");
    assert!(
        !header.iter().any(|h| h.starts_with("max_agreement")),
        "{header:?}"
    );

    std::fs::write(
        d.join("s.toml"),
        format!("{SPEC}[study.reference]\nmethod = \"none\"\nsame_scheme = true\n"),
    )
    .expect("write");
    let out = run_in(d, &["s.toml", "--out", "bad", "--report", "rep"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("reference.same_scheme"),
        "{}",
        stderr(&out)
    );
}
