//! Kind `gap-system`: a reference file that runs the same discrete scheme
//! (`reference.same_scheme`) gives agreement scalars, not errors.

mod common;
use common::{run_in, stderr};

const SPEC: &str = r#"
[[study]]
name = "gap"
kind = "gap-system"
[study.system]
mass = [[1.0]]
damping = [[0.05]]
stiffness = [[1.0]]
[[study.system.gaps]]
direction = [1.0]
gap = 0.5
stiffness = 4.0
[study.excitation]
amplitude = [1.0]
omega = 0.8
[study.initial]
x = [0.0]
v = [0.0]
[study.integrator]
method = "newmark-lcp"
dt = 0.01
t_end = 5.0
lcp_solver = "lemke"
"#;

/// The header of `out/gap/summary.csv`.
fn summary_header(dir: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("out/gap/summary.csv")).expect("summary.csv");
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
    std::fs::copy(d.join("first/gap/gap.csv"), d.join("peer.csv")).expect("copy");

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
    let readme = std::fs::read_to_string(d.join("out/gap/README.md")).expect("README");
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
