//! `bisect GOOD BAD --benchmark NAME`: the first commit between GOOD and
//! BAD at which kernel NAME's instruction count rose beyond the threshold
//! over GOOD's, by binary search over the commits of the ancestry path
//! GOOD..BAD (first parents, oldest first): ⌈log2 n⌉ builds and counts
//! besides the two ends, each build cached like `compare`'s.
//!
//! Instruction counts are deterministic, so one count per commit decides
//! it; a CPU time would need interleaved rounds at every step and is left
//! to `compare`.

use std::path::{Path, PathBuf};

use super::error::CompareError;
use super::measure::{self, KERNEL_PREFIX};
use super::revision::{self, Revision};
use crate::harness::atomic;
use crate::harness::frame::{CellColumn, csv_bytes, frame};
use crate::harness::kernels::callgrind::INSTRUCTIONS;

/// One measured commit.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The commit.
    pub commit: String,
    /// Its instruction count.
    pub value: f64,
    /// `good`, `bad` (slower beyond the threshold) or `first-bad`.
    pub verdict: &'static str,
}

/// What the search found.
#[derive(Debug, Clone, PartialEq)]
pub struct Bisection {
    /// The commits measured, in the order measured.
    pub steps: Vec<Step>,
    /// The first bad commit, None when BAD is not slower than GOOD.
    pub first_bad: Option<String>,
    /// Commits on the path GOOD..BAD.
    pub candidates: usize,
    /// Where bisect.csv was written.
    pub csv: PathBuf,
}

/// The search over `commits` (oldest first, BAD last) given a predicate
/// `is_bad` that measures one commit: the index of the first bad commit
/// when the last is bad, the commits measured in order.
pub fn search(
    n: usize,
    mut is_bad: impl FnMut(usize) -> Result<bool, CompareError>,
) -> Result<Option<usize>, CompareError> {
    if n == 0 || !is_bad(n - 1)? {
        return Ok(None);
    }
    // Invariant: commits[..lo] are good (GOOD itself stands before index
    // 0), commits[hi] is bad.
    let (mut lo, mut hi) = (0usize, n - 1);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if is_bad(mid)? {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Ok(Some(hi))
}

/// `bisect GOOD BAD --benchmark NAME` in the repository around the current
/// directory; writes `out/bisect.csv` (`commit,measure,value,verdict`).
pub fn bisect(
    good: &str,
    bad: &str,
    benchmark: &str,
    threshold: f64,
    out: &Path,
) -> Result<Bisection, CompareError> {
    if !(threshold.is_finite() && threshold >= 0.0) {
        return Err(CompareError::Input(format!(
            "--threshold {}: a percentage >= 0 is expected",
            threshold * 100.0
        )));
    }
    let kernel = benchmark
        .strip_prefix(KERNEL_PREFIX)
        .unwrap_or(benchmark)
        .to_string();
    let cwd = std::env::current_dir().map_err(|e| CompareError::Input(e.to_string()))?;
    let repo = revision::repository(&cwd)?;
    let good_rev = revision::resolve(&repo, Some(good))?;
    let bad_rev = revision::resolve(&repo, Some(bad))?;
    let (good_commit, bad_commit) = (
        good_rev.commit.clone().expect("a commit"),
        bad_rev.commit.clone().expect("a commit"),
    );
    if revision::git(
        &repo,
        &["merge-base", "--is-ancestor", &good_commit, &bad_commit],
    )
    .is_err()
    {
        return Err(CompareError::Input(format!(
            "{good} is not an ancestor of {bad}: bisect searches the commits between them"
        )));
    }
    let path = revision::git(
        &repo,
        &[
            "rev-list",
            "--first-parent",
            "--ancestry-path",
            "--reverse",
            &format!("{good_commit}..{bad_commit}"),
        ],
    )
    .map_err(CompareError::Input)?;
    let commits: Vec<String> = path.lines().map(String::from).collect();
    let mut steps = Vec::new();
    // The build of a commit that has the kernel (builds are cached by their
    // inputs, so building one again costs nothing).
    let built_with_kernel = |commit: &str, name: &str| -> Result<_, CompareError> {
        let rev = Revision {
            name: name.to_string(),
            commit: Some(commit.to_string()),
        };
        let built = revision::build(&repo, &rev)?;
        let known = measure::kernel_names(&built)?;
        if !known.contains(&kernel) {
            return Err(CompareError::Input(format!(
                "--benchmark {benchmark}: commit {} has no such kernel (kernels: {})",
                rev.short(),
                known.join(", ")
            )));
        }
        Ok(built)
    };
    let count = |commit: &str, name: &str| -> Result<f64, CompareError> {
        let built = built_with_kernel(commit, name)?;
        let values = measure::kernels(&built, std::slice::from_ref(&kernel), 1)?;
        Ok(values[&(format!("{KERNEL_PREFIX}{kernel}"), INSTRUCTIONS.to_string())])
    };
    // The name is checked at BAD first: the search measures BAD anyway, and
    // it is usually the newest commit, the one whose names the user read;
    // a misspelt name fails before GOOD is built.
    built_with_kernel(&bad_commit, bad)?;
    let reference = count(&good_commit, good)?;
    steps.push(Step {
        commit: good_commit.clone(),
        value: reference,
        verdict: "good",
    });
    let found = search(commits.len(), |i| {
        let value = count(&commits[i], &commits[i])?;
        let slower = value / reference > 1.0 + threshold;
        steps.push(Step {
            commit: commits[i].clone(),
            value,
            verdict: if slower { "bad" } else { "good" },
        });
        Ok(slower)
    })?;
    let first_bad = found.map(|i| commits[i].clone());
    if let Some(first) = &first_bad {
        for s in steps.iter_mut().filter(|s| &s.commit == first) {
            s.verdict = "first-bad";
        }
    }
    let csv = out.join("bisect.csv");
    write_csv(&csv, &steps)?;
    Ok(Bisection {
        steps,
        first_bad,
        candidates: commits.len(),
        csv,
    })
}

fn write_csv(path: &Path, steps: &[Step]) -> Result<(), CompareError> {
    let columns = vec![
        (
            "commit".to_string(),
            CellColumn::Text(steps.iter().map(|s| s.commit.clone()).collect()),
        ),
        (
            "measure".to_string(),
            CellColumn::Text(steps.iter().map(|_| INSTRUCTIONS.to_string()).collect()),
        ),
        (
            "value".to_string(),
            CellColumn::counters(steps.iter().map(|s| Some(s.value)).collect()),
        ),
        (
            "verdict".to_string(),
            CellColumn::Text(steps.iter().map(|s| s.verdict.to_string()).collect()),
        ),
    ];
    let err = |e: crate::error::OutputError| CompareError::Input(e.to_string());
    let mut df = frame(path, columns).map_err(err)?;
    let bytes = csv_bytes(path, &mut df).map_err(err)?;
    atomic::write_file(path, &bytes).map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_finds_the_first_bad_commit_in_log2_steps() {
        for n in 1..=9usize {
            for first in 0..n {
                let mut asked = Vec::new();
                let found = search(n, |i| {
                    asked.push(i);
                    Ok(i >= first)
                })
                .unwrap();
                assert_eq!(found, Some(first), "n {n}, first {first}");
                // The last commit, then at most ⌈log2 n⌉ more.
                let bound = 1 + (n as f64).log2().ceil() as usize;
                assert!(asked.len() <= bound, "n {n}: asked {asked:?}");
            }
            assert_eq!(search(n, |_| Ok(false)).unwrap(), None);
        }
        assert_eq!(search(0, |_| Ok(true)).unwrap(), None);
    }
}
