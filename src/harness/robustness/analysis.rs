//! A claim over the samples of its study's assumption box: where it holds
//! (the fraction with its 95 % Wilson interval), which parameter decides
//! it (Spearman's rank correlation of each parameter with the verdict, and
//! the best single split of the box), and the sentence the report gives.

use crate::harness::spec::{Assumption, Scale};

/// The normal quantile of a two-sided 95 % interval.
/// Why a sample leaves a claim unjudged, in the words of the sentence,
/// the robustness table's column doc and the figures' legend.
pub const NOT_JUDGED_WHY: &str =
    "a job it depends on failed, or a quantity it needs was not produced";

const Z95: f64 = 1.959_963_984_540_054;

/// The best single split of the box: the claim holds on one side of a
/// threshold of one parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct Split {
    /// The assumption (index in the study's list).
    pub assumption: usize,
    /// The threshold, in the parameter's units (between the two samples it
    /// separates: their mean, or their geometric mean on a log scale).
    pub threshold: f64,
    /// Whether the claim holds below the threshold (else above).
    pub holds_below: bool,
    /// The fraction of the judged samples on the side the split predicts.
    pub accuracy: f64,
}

/// A claim's robustness over the samples.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimRobustness {
    /// The claim id.
    pub claim: String,
    /// Samples where it holds.
    pub holds: usize,
    /// Samples judged (those where every job finished).
    pub judged: usize,
    /// Samples not judged (a job the claim depends on failed, or a quantity
    /// it needs was not produced).
    pub failed: usize,
    /// holds / judged with its 95 % Wilson interval.
    pub fraction: (f64, f64, f64),
    /// Spearman's rank correlation of each assumption's value with the
    /// verdict (1 holds, 0 not), in the study's order (NaN when the verdict
    /// or the parameter does not vary).
    pub correlation: Vec<f64>,
    /// The best single split, None when the verdict does not vary.
    pub split: Option<Split>,
}

/// k of n with its 95 % Wilson score interval (E. B. Wilson, JASA 22
/// (1927) 209): (p, lo, hi); NaN for n = 0.
pub fn wilson(k: usize, n: usize) -> (f64, f64, f64) {
    if n == 0 {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    (p, (centre - half).max(0.0), (centre + half).min(1.0))
}

/// Ranks with ties given their mean rank (1-based).
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut out = vec![0.0; values.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && values[order[j + 1]] == values[order[i]] {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            out[k] = mean;
        }
        i = j + 1;
    }
    out
}

/// Spearman's rank correlation of x and y: Pearson's of their ranks; NaN
/// when either does not vary.
pub fn spearman(x: &[f64], y: &[f64]) -> f64 {
    let (rx, ry) = (ranks(x), ranks(y));
    let n = rx.len() as f64;
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let mut sxy = 0.0;
    let mut sxx = 0.0;
    let mut syy = 0.0;
    for (a, b) in rx.iter().zip(&ry) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    if sxx == 0.0 || syy == 0.0 {
        return f64::NAN;
    }
    sxy / (sxx * syy).sqrt()
}

/// The best split of samples (values, holds) over every assumption: the
/// threshold between two consecutive distinct values, and the side, that
/// put the most samples on their predicted side (ties: the stronger
/// correlation, then the earlier assumption). None when `holds` does not
/// vary.
fn best_split(
    assumptions: &[Assumption],
    values: &[&[f64]],
    holds: &[bool],
    correlation: &[f64],
) -> Option<Split> {
    let n = holds.len();
    let total = holds.iter().filter(|&&h| h).count();
    if total == 0 || total == n {
        return None;
    }
    let mut best: Option<(usize, f64, Split)> = None;
    for (a, assumption) in assumptions.iter().enumerate() {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&i, &j| values[i][a].total_cmp(&values[j][a]));
        let mut holds_below = 0;
        for cut in 1..n {
            holds_below += usize::from(holds[order[cut - 1]]);
            let (lo, hi) = (values[order[cut - 1]][a], values[order[cut]][a]);
            if lo == hi {
                continue;
            }
            // Below: holds below the cut, fails above it.
            let below = holds_below + (n - cut - (total - holds_below));
            let above = n - below;
            let (correct, side) = if below >= above {
                (below, true)
            } else {
                (above, false)
            };
            let threshold = match assumption.scale {
                Scale::Linear => (lo + hi) / 2.0,
                Scale::Log => (lo * hi).sqrt(),
            };
            let strength = correlation[a].abs();
            let better = match &best {
                None => true,
                Some((c, s, _)) => correct > *c || (correct == *c && strength > *s),
            };
            if better {
                best = Some((
                    correct,
                    strength,
                    Split {
                        assumption: a,
                        threshold,
                        holds_below: side,
                        accuracy: correct as f64 / n as f64,
                    },
                ));
            }
        }
    }
    best.map(|(_, _, s)| s)
}

/// The robustness of claim `claim` from its verdict on each sample
/// (`Some(holds)`, None where a job the claim depends on failed) and the samples' values.
pub fn analyse(
    claim: &str,
    assumptions: &[Assumption],
    values: &[Vec<f64>],
    verdicts: &[Option<bool>],
) -> ClaimRobustness {
    let judged: Vec<(&[f64], bool)> = values
        .iter()
        .zip(verdicts)
        .filter_map(|(v, h)| h.map(|h| (v.as_slice(), h)))
        .collect();
    let holds: Vec<bool> = judged.iter().map(|p| p.1).collect();
    let points: Vec<&[f64]> = judged.iter().map(|p| p.0).collect();
    let y: Vec<f64> = holds.iter().map(|&h| f64::from(u8::from(h))).collect();
    let correlation: Vec<f64> = (0..assumptions.len())
        .map(|a| {
            let x: Vec<f64> = points.iter().map(|p| p[a]).collect();
            if x.len() < 2 {
                f64::NAN
            } else {
                spearman(&x, &y)
            }
        })
        .collect();
    let k = holds.iter().filter(|&&h| h).count();
    ClaimRobustness {
        claim: claim.to_string(),
        holds: k,
        judged: holds.len(),
        failed: verdicts.len() - holds.len(),
        fraction: wilson(k, holds.len()),
        split: best_split(assumptions, &points, &holds, &correlation),
        correlation,
    }
}

/// A number for a sentence: 3 significant digits.
fn number(v: f64) -> String {
    if v != 0.0 && (v.abs() >= 1e4 || v.abs() < 1e-2) {
        format!("{v:.2e}")
    } else {
        let digits = (2 - v.abs().log10().floor() as i32).max(0) as usize;
        format!("{v:.digits$}")
    }
}

/// `holds_in` with its interval in percent, e.g. `83 % (74-90 %)`: the
/// sentence's opening and the report's column.
pub fn holds_percent((p, lo, hi): (f64, f64, f64)) -> String {
    format!("{:.0} % ({:.0}-{:.0} %)", 100.0 * p, 100.0 * lo, 100.0 * hi)
}

impl ClaimRobustness {
    /// The report's sentence, e.g. "holds in 83 % (74-90 %) of 64 samples
    /// of the plausible range; decided by spring.damping_ratio (Spearman
    /// -0.81): holds below 0.031 (92 % of the samples on that side)".
    /// `reproduced` is the claim's verdict at the spec's nominal values: a
    /// claim not reproduced there is told where in the box it would hold.
    pub fn sentence(&self, assumptions: &[Assumption], reproduced: bool) -> String {
        let (p, lo, hi) = self.fraction;
        let failed = if self.failed > 0 {
            format!(" ({} more not judged: {NOT_JUDGED_WHY})", self.failed)
        } else {
            String::new()
        };
        if self.judged == 0 {
            return format!("not judged on any of the box's samples{failed}");
        }
        let mut s = format!(
            "holds in {} of {} samples of the plausible range{failed}",
            holds_percent((p, lo, hi)),
            self.judged
        );
        match &self.split {
            None if self.holds == self.judged => {
                s.push_str("; holds in every sample: no parameter of the box decides it")
            }
            None => s.push_str("; holds nowhere in the box"),
            Some(split) => {
                let a = &assumptions[split.assumption];
                let side = if split.holds_below { "below" } else { "above" };
                s.push_str(&format!(
                    "; decided by {} (Spearman {:+.2}): {} {side} {} ({:.0} % of the samples on the side this predicts)",
                    a.key,
                    self.correlation[split.assumption],
                    if reproduced { "holds" } else { "would hold" },
                    number(split.threshold),
                    100.0 * split.accuracy
                ));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assumption(key: &str) -> Assumption {
        Assumption {
            key: key.into(),
            from: 0.0,
            to: 1.0,
            unit: "-".into(),
            scale: Scale::Linear,
            source: "test".into(),
            step: None,
            also: Vec::new(),
            integer: false,
            nominal: 0.5,
        }
    }

    #[test]
    fn wilson_matches_the_published_interval() {
        // Newcombe, Stat. Med. 17 (1998) 857, table I: 81 of 263 gives
        // 0.2553-0.3662 by Wilson's method.
        let (p, lo, hi) = wilson(81, 263);
        assert!((p - 0.30798).abs() < 1e-4);
        assert!(
            (lo - 0.2553).abs() < 5e-5 && (hi - 0.3662).abs() < 5e-5,
            "{lo} {hi}"
        );
        // 0 of 10: 0-0.2775 (the same table).
        let (_, lo, hi) = wilson(0, 10);
        assert!(lo == 0.0 && (hi - 0.2775).abs() < 5e-5, "{hi}");
    }

    #[test]
    fn spearman_of_monotone_and_tied_data() {
        assert!((spearman(&[1.0, 2.0, 3.0], &[10.0, 20.0, 40.0]) - 1.0).abs() < 1e-12);
        assert!((spearman(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
        assert!(spearman(&[1.0, 2.0, 3.0], &[1.0, 1.0, 1.0]).is_nan());
        // Ties take their mean rank: x ranks 1, 2.5, 2.5, 4.
        let r = spearman(&[1.0, 2.0, 2.0, 3.0], &[0.0, 0.0, 1.0, 1.0]);
        assert!((r - std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-12, "{r}");
    }

    #[test]
    fn the_deciding_parameter_and_its_threshold_are_found() {
        // The claim holds where b < 0.4; a is noise.
        let a = [assumption("a"), assumption("b")];
        let values: Vec<Vec<f64>> = (0..20)
            .map(|k| vec![((k * 7) % 20) as f64 / 20.0, k as f64 / 20.0 + 0.01])
            .collect();
        let verdicts: Vec<Option<bool>> = values.iter().map(|v| Some(v[1] < 0.4)).collect();
        let r = analyse("c", &a, &values, &verdicts);
        assert_eq!((r.holds, r.judged, r.failed), (8, 20, 0));
        let split = r.split.clone().unwrap();
        assert_eq!(split.assumption, 1);
        assert!(split.holds_below && split.accuracy == 1.0);
        assert!(
            (split.threshold - 0.385).abs() < 1e-12,
            "{}",
            split.threshold
        );
        assert!(r.correlation[1] < -0.8);
        let s = r.sentence(&a, true);
        assert!(s.starts_with("holds in 40 % ("), "{s}");
        assert!(
            s.contains("decided by b (Spearman -0.") && s.contains("holds below 0.385"),
            "{s}"
        );
        // A failed sample is left out of the fraction and counted.
        let mut verdicts = verdicts;
        verdicts[0] = None;
        let r = analyse("c", &a, &values, &verdicts);
        assert_eq!((r.holds, r.judged, r.failed), (7, 19, 1));
        assert!(r.sentence(&a, false).contains("1 more not judged"));
    }

    #[test]
    fn a_verdict_that_never_changes_has_no_deciding_parameter() {
        let a = [assumption("a")];
        let values: Vec<Vec<f64>> = (0..5).map(|k| vec![k as f64]).collect();
        let r = analyse("c", &a, &values, &[Some(true); 5]);
        assert_eq!(r.split, None);
        assert!(
            r.sentence(&a, true)
                .contains("no parameter of the box decides it")
        );
        let r = analyse("c", &a, &values, &[Some(false); 5]);
        assert!(r.sentence(&a, false).contains("holds nowhere in the box"));
    }
}
