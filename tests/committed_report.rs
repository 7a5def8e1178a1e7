//! The committed report describes the committed code: the commit named in
//! report/README.md's provenance section has no later changes under
//! `src/`, `experiments/` or `reference-data/`. After such a change,
//! regenerate it with `cargo run -- experiments/all` and commit `report/`
//! and `results/history/`.

use std::path::PathBuf;
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(repo())
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The first run of 40 hexadecimal digits in `text`.
fn full_hash(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    (0..bytes.len().saturating_sub(39)).find_map(|i| {
        let w = &text[i..i + 40];
        let boundary = |j: usize| j >= bytes.len() || !bytes[j].is_ascii_hexdigit();
        (w.bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
            && (i == 0 || boundary(i - 1))
            && boundary(i + 40))
        .then_some(w)
    })
}

#[test]
fn the_committed_report_describes_the_committed_code() {
    let readme = std::fs::read_to_string(repo().join("report/README.md"))
        .expect("report/README.md is committed");
    let provenance = readme
        .split("## Provenance")
        .nth(1)
        .expect("the report has a provenance section");
    let hash = full_hash(provenance).expect("the provenance names the full commit hash");
    let commit_line = provenance
        .lines()
        .find(|l| l.contains(hash))
        .unwrap_or_default();
    assert!(
        !commit_line.contains("dirty"),
        "the committed report was made from a working tree with uncommitted changes ({commit_line}); regenerate it from a clean tree: cargo run -- experiments/all"
    );
    if git(&["rev-parse", "--git-dir"]).is_none() {
        eprintln!("NOTICE: not a git checkout; the report's commit cannot be compared");
        return;
    }
    if git(&["cat-file", "-e", &format!("{hash}^{{commit}}")]).is_none() {
        let shallow = git(&["rev-parse", "--is-shallow-repository"]).as_deref() == Some("true");
        assert!(
            shallow,
            "the report was made at commit {hash}, which is not in this repository's history"
        );
        eprintln!("NOTICE: shallow clone without commit {hash}; not compared");
        return;
    }
    let changed = git(&[
        "diff",
        "--name-only",
        hash,
        "HEAD",
        "--",
        "src",
        "experiments",
        "reference-data",
    ])
    .expect("git diff runs");
    assert!(
        changed.is_empty(),
        "the committed report was made at {hash}, and these files changed since:\n{changed}\nregenerate it: cargo run -- experiments/all (then commit report/ and results/history/)"
    );
}

#[test]
fn the_hash_finder_takes_whole_hashes_only() {
    let h = "e1bb68e309d62f8591380d70cc1bfa0d91af82df";
    assert_eq!(full_hash(&format!("Commit: `x` (full: `{h}`)")), Some(h));
    assert_eq!(full_hash(&format!("{h}0")), None);
    assert_eq!(full_hash("no hash here"), None);
}
