//! The result rows a run produces and every writer reads: checks, claims,
//! work-precision points and speed-ups (the rows of `checks.csv`,
//! `claims.csv`, `work-precision.csv` and `speedup.csv`). Plain data; the
//! code that fills them (checks, claims, sweep) and the code that writes
//! them (results, report, history) both import this module, never each
//! other.

use serde::Deserialize;

/// One evaluated claim: a row of `claims.csv`.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimRow {
    /// Study name.
    pub study: String,
    /// Claim id.
    pub claim: String,
    /// The seed paper.
    pub seed: String,
    /// The verdict of the results.
    pub verdict: Verdict,
    /// The verdict the spec expects.
    pub expect: Verdict,
    /// The deciding value: the first failing criterion's, else the first
    /// criterion's (its worst row, or the median).
    pub value: f64,
    /// Every criterion in words with its value.
    pub criterion: String,
    /// The seed's words.
    pub words: String,
    /// Why the expectation (the spec's `why`, a prediction with its
    /// reason), then what the run showed (its `reason`), if given.
    pub reason: String,
    /// What the verdict was judged on.
    pub formulation: Formulation,
    /// One line: why the claim is not reproduced (the spec's `cause`, else
    /// the failing criterion in words); empty when it is.
    pub cause: String,
    /// The fraction of the study's assumption box where the claim holds
    /// and its 95 % interval (`PATH --robustness N`); None without one.
    pub holds_in: Option<(f64, f64, f64)>,
    /// The claim over the assumption box in one sentence (where it holds,
    /// what decides it; `harness::robustness`); empty without one.
    pub robustness: String,
}

impl ClaimRow {
    /// Whether the verdict is the expected one.
    pub fn as_expected(&self) -> bool {
        self.verdict == self.expect
    }

    /// A row of study `s` for the unit tests: `claim` with `verdict`,
    /// expected reproduced, value 1, everything else empty.
    #[cfg(test)]
    pub(crate) fn example(claim: &str, verdict: Verdict) -> Self {
        Self {
            study: "s".into(),
            claim: claim.into(),
            seed: "p".into(),
            verdict,
            expect: Verdict::Reproduced,
            value: 1.0,
            criterion: String::new(),
            words: String::new(),
            reason: String::new(),
            formulation: Formulation::Model,
            cause: String::new(),
            holds_in: None,
            robustness: String::new(),
        }
    }
}

/// What a claim's verdict was judged on (claims.csv `formulation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Formulation {
    /// The seed's own method as the seed describes it (e.g. a regularised
    /// ODE with no sticking limit).
    Seed,
    /// The harness's reference formulation of the same physics (e.g. true
    /// sticking by Moreau time stepping).
    Exact,
    /// The one model both share.
    #[default]
    Model,
}

impl Formulation {
    /// Spelling in specs and `claims.csv`.
    pub fn name(self) -> &'static str {
        match self {
            Formulation::Seed => "seed",
            Formulation::Exact => "exact",
            Formulation::Model => "model",
        }
    }
}

/// A seed sentence and the claim rows that judge it (every row with the
/// same `words`, in order): it counts once in the report's headline.
#[derive(Debug, Clone, PartialEq)]
pub struct Sentence<'a> {
    /// The seed's words.
    pub words: &'a str,
    /// Its measures.
    pub rows: Vec<&'a ClaimRow>,
}

impl Sentence<'_> {
    /// `reproduced` when every measure is, `not reproduced` when none is,
    /// else `partly (k of n)`.
    pub fn verdict(&self) -> String {
        let rows: Vec<ClaimRow> = self.rows.iter().map(|r| (*r).clone()).collect();
        study_verdict(&rows)
    }

    /// Whether every measure is reproduced.
    pub fn reproduced(&self) -> bool {
        self.rows.iter().all(|r| r.verdict == Verdict::Reproduced)
    }
}

/// The seed sentences of `rows`, in order of first appearance.
pub fn sentences<'a>(rows: impl IntoIterator<Item = &'a ClaimRow>) -> Vec<Sentence<'a>> {
    let mut out: Vec<Sentence<'a>> = Vec::new();
    for r in rows {
        match out.iter_mut().find(|s| s.words == r.words) {
            Some(s) => s.rows.push(r),
            None => out.push(Sentence {
                words: &r.words,
                rows: vec![r],
            }),
        }
    }
    out
}

/// The two verdicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The harness's results say what the seed says.
    Reproduced,
    /// They do not.
    NotReproduced,
}

impl Verdict {
    /// Spelling in specs and `claims.csv`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Reproduced => "reproduced",
            Verdict::NotReproduced => "not-reproduced",
        }
    }
}

/// One evaluated check: a row of `checks.csv`.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckRow {
    /// Study name.
    pub study: String,
    /// Case name, `*` for a study-level check, or the group of cases of a
    /// per-group study scalar.
    pub case: String,
    /// Method label; empty for a case or study quantity.
    pub method: String,
    /// Check name from the spec.
    pub check: String,
    /// Metric, e.g. `max-abs`.
    pub metric: String,
    /// What the value was compared with, e.g. `exact` or `value 2`.
    pub reference: String,
    /// The measured value of the metric (NaN when it could not be computed).
    pub value: f64,
    /// The tolerance (or bound, for `at-least` / `at-most`).
    pub tolerance: f64,
    /// Whether the check passed. A NaN value never passes.
    pub passed: bool,
    /// Why it failed or what it compared (empty when nothing to add).
    pub detail: String,
    /// Why the tolerance is what it is (the spec's `why`).
    pub why: String,
}

/// One point of a work-precision diagram: a method run of a case at one
/// value of the swept cost parameter (a row of `work-precision.csv`).
#[derive(Debug, Clone, PartialEq)]
pub struct WorkPrecisionRow {
    /// Case name.
    pub case: String,
    /// Method label.
    pub method: String,
    /// The swept cost key, e.g. `integrator.dt`.
    pub parameter: String,
    /// Its value in this case.
    pub value: f64,
    /// The study's accuracy measure of the run.
    pub error: f64,
    /// Median CPU seconds of the run.
    pub cpu_s: f64,
    /// Half the range of the CPU seconds of the timed runs.
    pub cpu_s_spread: f64,
    /// The group of cases (the other swept keys' values), empty without.
    pub group: String,
}

/// A speed-up at equal accuracy (a row of `speedup.csv`): the baseline's
/// CPU time over the method's, both interpolated log-log at `error`.
#[derive(Debug, Clone, PartialEq)]
pub struct SpeedupRow {
    /// Method label.
    pub method: String,
    /// Baseline label.
    pub baseline: String,
    /// The error level compared.
    pub error: f64,
    /// CPU time of the baseline over that of the method at that error.
    pub speedup: f64,
    /// The group of cases, empty without.
    pub group: String,
}

/// The error ranges behind the speed-ups of one (method, baseline, group)
/// at equal accuracy: each method's converged range (the error levels in
/// its asymptotic range of convergence, `harness::sweep::converged_range`)
/// and their intersection, over which alone speed-ups are reported.
#[derive(Debug, Clone, PartialEq)]
pub struct SpeedupRange {
    /// Method label.
    pub method: String,
    /// Baseline label.
    pub baseline: String,
    /// The group of cases, empty without.
    pub group: String,
    /// The method's converged error range (smallest, largest), None when
    /// it has none.
    pub method_range: Option<(f64, f64)>,
    /// The baseline's converged error range, None when it has none.
    pub baseline_range: Option<(f64, f64)>,
    /// Their intersection, None when empty: then no speed-up is reported.
    pub common: Option<(f64, f64)>,
    /// The rule's verdict in words: both ranges, the orders they were
    /// judged against, and why a range is missing or the speed-up refused.
    pub detail: String,
}

/// The summary verdict of a study from its claims: `reproduced`,
/// `partly (k of n)`, `not reproduced`, or `beyond the paper` (no claim).
pub fn study_verdict(rows: &[ClaimRow]) -> String {
    let n = rows.len();
    let k = rows
        .iter()
        .filter(|r| r.verdict == Verdict::Reproduced)
        .count();
    match (n, k) {
        (0, _) => "beyond the paper".into(),
        (n, k) if k == n => "reproduced".into(),
        (_, 0) => "not reproduced".into(),
        (n, k) => format!("partly ({k} of {n})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_study_verdict_counts_the_claims() {
        let claim = |verdict| ClaimRow::example("c", verdict);
        assert_eq!(study_verdict(&[]), "beyond the paper");
        let yes = claim(Verdict::Reproduced);
        let no = claim(Verdict::NotReproduced);
        assert_eq!(study_verdict(&[yes.clone(), yes.clone()]), "reproduced");
        assert_eq!(study_verdict(&[yes.clone(), no.clone()]), "partly (1 of 2)");
        assert_eq!(study_verdict(std::slice::from_ref(&no)), "not reproduced");
        assert!(!no.as_expected());
    }

    /// Rows with the same words are one sentence: reproduced when every
    /// measure is, partly when some are.
    #[test]
    fn claims_with_the_same_words_are_one_sentence() {
        let row = |claim: &str, words: &str, verdict| ClaimRow {
            expect: verdict,
            words: words.into(),
            ..ClaimRow::example(claim, verdict)
        };
        let rows = [
            row("a-exact", "A.", Verdict::NotReproduced),
            row("b", "B.", Verdict::Reproduced),
            row("a-seed", "A.", Verdict::Reproduced),
        ];
        let s = sentences(&rows);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].rows.len(), 2);
        assert_eq!(s[0].verdict(), "partly (1 of 2)");
        assert!(!s[0].reproduced() && s[1].reproduced());
    }
}
