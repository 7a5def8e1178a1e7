//! A comparison's rows: each benchmark both revisions measured, judged,
//! sorted by the size of its change.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::measure::Benchmark;
use super::revision;
use super::verdict::{self, Judged};

/// Each side's values: `(benchmark, measure) -> values` (one count, or one
/// CPU time per round).
pub type Values = BTreeMap<(Benchmark, String), Vec<f64>>;

/// One row of compare.csv.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The benchmark.
    pub benchmark: Benchmark,
    /// `instructions`, `estimated_cycles` or `cpu_s`.
    pub measure: String,
    /// Its judged change.
    pub judged: Judged,
}

/// A comparison's result.
#[derive(Debug, Clone)]
pub struct Comparison {
    /// The base as built.
    pub base: revision::Revision,
    /// The head as built.
    pub head: revision::Revision,
    /// Every benchmark both revisions measured.
    pub rows: Vec<Row>,
    /// Benchmarks only one revision has: (benchmark, `base` or `head`),
    /// each benchmark once whatever its measures.
    pub unmatched: Vec<(Benchmark, &'static str)>,
    /// Where compare.csv was written.
    pub csv: PathBuf,
}

impl Comparison {
    /// The rows slower beyond `threshold`.
    pub fn slower_beyond(&self, threshold: f64) -> Vec<&Row> {
        self.rows
            .iter()
            .filter(|r| verdict::slower_beyond(&r.judged, threshold))
            .collect()
    }
}

/// Whether `name` passes the filters.
pub fn selected(name: &str, filters: &[String]) -> bool {
    filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str()))
}

/// The judged rows of the benchmarks both sides measured, and those only
/// one side has ([`Comparison::unmatched`]).
pub fn judge<'a>(values: &'a [Values; 2]) -> (Vec<Row>, Vec<(Benchmark, &'static str)>) {
    let [base, head] = values;
    let mut rows = Vec::new();
    let mut unmatched = Vec::new();
    let times = |side: &'a Values| {
        side.iter()
            .filter(|((_, m), _)| m == "cpu_s")
            .map(|(_, v)| v.as_slice())
    };
    let floor = verdict::noise_floor(times(base).chain(times(head)));
    for ((name, measure), b) in base {
        let Some(h) = head.get(&(name.clone(), measure.clone())) else {
            unmatched.push((name.clone(), "base"));
            continue;
        };
        let judged = if measure == "cpu_s" {
            verdict::judge_times(b, h, floor)
        } else {
            verdict::judge_count(b[0], h[0])
        };
        rows.push(Row {
            benchmark: name.clone(),
            measure: measure.clone(),
            judged,
        });
    }
    for (name, measure) in head.keys() {
        if !base.contains_key(&(name.clone(), measure.clone())) {
            unmatched.push((name.clone(), "head"));
        }
    }
    rows.sort_by(|a, b| {
        b.judged
            .ratio
            .ln()
            .abs()
            .total_cmp(&a.judged.ratio.ln().abs())
            .then_with(|| a.benchmark.cmp(&b.benchmark))
    });
    unmatched.dedup();
    (rows, unmatched)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn benchmarks_are_paired_and_sorted_by_the_size_of_their_change() {
        let mut base = BTreeMap::new();
        let mut head = BTreeMap::new();
        let k = |n: &str, m: &str| (n.to_string(), m.to_string());
        base.insert(k("kernels/a/x", "instructions"), vec![100.0]);
        head.insert(k("kernels/a/x", "instructions"), vec![105.0]);
        base.insert(k("kernels/b/y", "instructions"), vec![100.0]);
        head.insert(k("kernels/b/y", "instructions"), vec![50.0]);
        base.insert(k("s/c/m", "cpu_s"), vec![1.0, 1.0, 1.0]);
        head.insert(k("s/c/m", "cpu_s"), vec![1.0, 1.0, 1.0]);
        base.insert(k("kernels/gone/z", "instructions"), vec![1.0]);
        head.insert(k("kernels/new/w", "instructions"), vec![1.0]);
        let (rows, unmatched) = judge(&[base, head]);
        let names: Vec<(&str, &str)> = rows
            .iter()
            .map(|r| (r.benchmark.as_str(), r.judged.verdict.name()))
            .collect();
        assert_eq!(
            names,
            [
                ("kernels/b/y", "faster"),
                ("kernels/a/x", "slower"),
                ("s/c/m", "unchanged")
            ]
        );
        assert_eq!(
            unmatched,
            [
                ("kernels/gone/z".to_string(), "base"),
                ("kernels/new/w".to_string(), "head")
            ]
        );
        assert!(selected("kernels/a/x", &[]));
        assert!(selected("kernels/a/x", &["a/".to_string()]));
        assert!(!selected("kernels/a/x", &["b/".to_string()]));
    }
}
