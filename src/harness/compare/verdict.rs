//! Judging one benchmark's change between two revisions.
//!
//! - Deterministic measures (`instructions`, `estimated_cycles` under
//!   callgrind) have one value per revision: the ratio head / base is exact,
//!   its interval is the ratio itself, and a move beyond
//!   [`COUNT_BAND`] (1 %) is a change.
//! - CPU times (`cpu_s`) come from R interleaved rounds. Each round gives a
//!   ratio r_i = head_i / base_i; the estimate is their geometric mean
//!   exp(mean log r_i), and its 95 % interval the 2.5 and 97.5 percentiles
//!   of that mean over [`BOOTSTRAP_RESAMPLES`] bootstrap resamples of the
//!   rounds (fixed seed: the same data give the same interval). The noise
//!   is measured in the same run: the relative range (max - min) / median
//!   of each revision's own R times, the larger of the two, and at least
//!   the run's noise floor ([`noise_floor`]: the median of that range over
//!   every timed job of the run, since the range of three times of one job
//!   often understates its spread). A change is
//!   called only when the interval lies wholly outside 1 ± noise, i.e.
//!   `lo > 1 + noise` (slower) or `hi < 1 / (1 + noise)` (faster). One
//!   round gives no interval and no noise: never a change.

/// The band of a deterministic count: a ratio beyond 1 ± 1 % is a change.
pub const COUNT_BAND: f64 = 0.01;

/// Bootstrap resamples of the interleaved rounds.
pub const BOOTSTRAP_RESAMPLES: usize = 2000;

/// What a comparison concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Head is faster.
    Faster,
    /// Head is slower.
    Slower,
    /// No change beyond the band or the noise.
    Unchanged,
}

impl Verdict {
    /// The name in compare.csv.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Faster => "faster",
            Verdict::Slower => "slower",
            Verdict::Unchanged => "unchanged",
        }
    }
}

/// One benchmark's judged change.
#[derive(Debug, Clone, PartialEq)]
pub struct Judged {
    /// The base's value (the median over rounds for CPU times).
    pub base: f64,
    /// The head's value.
    pub head: f64,
    /// The estimated ratio head / base.
    pub ratio: f64,
    /// Its 95 % interval.
    pub lo: f64,
    /// Its 95 % interval.
    pub hi: f64,
    /// The relative noise the interval was held against (0 for counts).
    pub noise: f64,
    /// The conclusion.
    pub verdict: Verdict,
}

/// A deterministic count: base and head measured once each.
pub fn judge_count(base: f64, head: f64) -> Judged {
    let ratio = head / base;
    let verdict = if !(ratio.is_finite() && base > 0.0) {
        Verdict::Unchanged
    } else if ratio > 1.0 + COUNT_BAND {
        Verdict::Slower
    } else if ratio < 1.0 - COUNT_BAND {
        Verdict::Faster
    } else {
        Verdict::Unchanged
    };
    Judged {
        base,
        head,
        ratio,
        lo: ratio,
        hi: ratio,
        noise: 0.0,
        verdict,
    }
}

/// The run's noise floor: the median, over the timed jobs' sides (base and
/// head of each job) with at least two rounds, of the relative range of
/// their times; 0 when there are none.
pub fn noise_floor<'a>(sides: impl IntoIterator<Item = &'a [f64]>) -> f64 {
    let ranges: Vec<f64> = sides
        .into_iter()
        .filter(|v| v.len() >= 2)
        .map(relative_range)
        .filter(|r| r.is_finite())
        .collect();
    if ranges.is_empty() {
        0.0
    } else {
        median(&ranges)
    }
}

/// CPU times of interleaved rounds: `base[i]` and `head[i]` were measured
/// in round i (module doc), judged against at least the noise `floor`.
/// Rounds with a non-positive or non-finite time on either side are left
/// out.
pub fn judge_times(base: &[f64], head: &[f64], floor: f64) -> Judged {
    let pairs: Vec<(f64, f64)> = base
        .iter()
        .zip(head)
        .map(|(&b, &h)| (b, h))
        .filter(|&(b, h)| b.is_finite() && h.is_finite() && b > 0.0 && h > 0.0)
        .collect();
    let b: Vec<f64> = pairs.iter().map(|p| p.0).collect();
    let h: Vec<f64> = pairs.iter().map(|p| p.1).collect();
    let logs: Vec<f64> = pairs.iter().map(|(b, h)| (h / b).ln()).collect();
    let (base_median, head_median) = (median(&b), median(&h));
    if logs.len() < 2 {
        let ratio = head_median / base_median;
        return Judged {
            base: base_median,
            head: head_median,
            ratio,
            lo: f64::NAN,
            hi: f64::NAN,
            noise: f64::NAN,
            verdict: Verdict::Unchanged,
        };
    }
    let ratio = mean(&logs).exp();
    let (lo, hi) = bootstrap_interval(&logs);
    let noise = relative_range(&b).max(relative_range(&h)).max(floor);
    let verdict = if lo > 1.0 + noise {
        Verdict::Slower
    } else if hi < 1.0 / (1.0 + noise) {
        Verdict::Faster
    } else {
        Verdict::Unchanged
    };
    Judged {
        base: base_median,
        head: head_median,
        ratio,
        lo,
        hi,
        noise,
        verdict,
    }
}

/// Whether a judged change is a slowdown beyond `threshold` (a fraction,
/// 0.05 for 5 %): slower, with the ratio's whole interval above 1 +
/// threshold.
pub fn slower_beyond(j: &Judged, threshold: f64) -> bool {
    j.verdict == Verdict::Slower && j.lo > 1.0 + threshold
}

/// The 95 % percentile interval of exp(mean) of `logs` over bootstrap
/// resamples (splitmix64 with a fixed seed).
fn bootstrap_interval(logs: &[f64]) -> (f64, f64) {
    let n = logs.len();
    let mut state: u64 = 0x5eed_c0de_2026_1207;
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut means: Vec<f64> = (0..BOOTSTRAP_RESAMPLES)
        .map(|_| {
            (0..n)
                .map(|_| logs[(next() % n as u64) as usize])
                .sum::<f64>()
                / n as f64
        })
        .collect();
    means.sort_by(f64::total_cmp);
    let at = |q: f64| means[((q * (means.len() - 1) as f64).round() as usize).min(means.len() - 1)];
    (at(0.025).exp(), at(0.975).exp())
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

fn median(v: &[f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    crate::harness::timing::median(v)
}

/// (max - min) / median of `v`; 0 for fewer than two values.
fn relative_range(v: &[f64]) -> f64 {
    if v.len() < 2 {
        return 0.0;
    }
    let max = v.iter().copied().fold(f64::MIN, f64::max);
    let min = v.iter().copied().fold(f64::MAX, f64::min);
    (max - min) / median(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_change_beyond_one_percent() {
        assert_eq!(judge_count(100.0, 101.5).verdict, Verdict::Slower);
        assert_eq!(judge_count(100.0, 98.5).verdict, Verdict::Faster);
        assert_eq!(judge_count(100.0, 100.9).verdict, Verdict::Unchanged);
        assert_eq!(judge_count(0.0, 100.0).verdict, Verdict::Unchanged);
        let j = judge_count(200.0, 100.0);
        assert_eq!((j.ratio, j.lo, j.hi), (0.5, 0.5, 0.5));
        assert!(slower_beyond(&judge_count(100.0, 106.0), 0.05));
        assert!(!slower_beyond(&judge_count(100.0, 104.0), 0.05));
    }

    #[test]
    fn times_are_judged_against_their_own_noise() {
        // Twice as fast in every round, 2 % noise: faster.
        let j = judge_times(&[1.0, 1.02, 0.99], &[0.5, 0.51, 0.495], 0.0);
        assert_eq!(j.verdict, Verdict::Faster, "{j:?}");
        assert!((j.ratio - 0.5).abs() < 1e-9 && j.hi < 0.51, "{j:?}");
        // A 10 % rise inside 30 % noise: unchanged.
        let j = judge_times(&[1.0, 1.3, 1.0], &[1.1, 1.43, 1.1], 0.0);
        assert_eq!(j.verdict, Verdict::Unchanged, "{j:?}");
        // The same rise in quiet rounds: slower, and beyond 5 %.
        let j = judge_times(&[1.0, 1.01, 1.0], &[1.1, 1.11, 1.1], 0.0);
        assert_eq!(j.verdict, Verdict::Slower, "{j:?}");
        assert!(slower_beyond(&j, 0.05) && !slower_beyond(&j, 0.2));
        // Rounds that disagree in direction: unchanged.
        let j = judge_times(&[1.0, 1.0, 1.0], &[1.2, 0.8, 1.0], 0.0);
        assert_eq!(j.verdict, Verdict::Unchanged, "{j:?}");
        // One round: no interval, never a change.
        let j = judge_times(&[1.0], &[3.0], 0.0);
        assert_eq!(j.verdict, Verdict::Unchanged);
        assert!(j.lo.is_nan() && (j.ratio - 3.0).abs() < 1e-12);
        // Quiet rounds but a noisy run: the floor holds the change back.
        let j = judge_times(&[1.0, 1.01, 1.0], &[1.1, 1.11, 1.1], 0.15);
        assert_eq!(j.verdict, Verdict::Unchanged, "{j:?}");
        assert_eq!(j.noise, 0.15);
        let floor = noise_floor([
            &[1.0, 1.1][..],
            &[1.0, 1.2, 1.0][..],
            &[3.0][..],
            &[1.0, 1.3][..],
        ]);
        assert!((floor - 0.2).abs() < 1e-12, "{floor}");
        assert_eq!(noise_floor([&[1.0][..]]), 0.0);
        // The interval is reproducible.
        assert_eq!(
            judge_times(&[1.0, 1.1, 0.9, 1.05], &[1.2, 1.0, 1.1, 1.3], 0.0),
            judge_times(&[1.0, 1.1, 0.9, 1.05], &[1.2, 1.0, 1.1, 1.3], 0.0)
        );
    }
}
