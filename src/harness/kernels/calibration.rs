//! The calibration kernel: a fixed piece of work whose CPU time, measured
//! in the same run as the methods, is the unit the history judges CPU times
//! in (a method's `cpu_s` over the run's calibration time), and whose
//! spread over the run is the run's own measure of the machine's noise.
//!
//! The work ([`work`]) is an LU factorisation with partial pivoting of a
//! fixed 96 x 96 matrix, A_ij = 1 / (1 + |i - j|) + 96 [i = j], done
//! [`FACTORISATIONS`] times: floating-point and memory work of the kind the
//! methods do, in plain Rust (no library code that a dependency update could
//! change). **Do not change it** without changing
//! `harness::history::TIMING_METHOD`: every CPU time of the history is
//! measured against it.
//!
//! Sampling ([`sample`]): at the start and at the end of the run's jobs, one
//! thread per worker runs the work [`RUNS`] times at once (so that it meets
//! the same sharing of the cores as the jobs), each run timed on its
//! thread's CPU clock.

use crate::harness::clock::Stopwatch;
use crate::harness::timing::median;

/// The order of the matrix.
pub const ORDER: usize = 96;
/// Factorisations per run of the work.
pub const FACTORISATIONS: usize = 12;
/// Timed runs per worker thread at each sampling point.
pub const RUNS: usize = 5;

/// The fixed work; returns a checksum (the sum of the U diagonals) so that
/// nothing is optimised away.
pub fn work() -> f64 {
    let n = ORDER;
    let mut sum = 0.0;
    let mut a = vec![0.0f64; n * n];
    for _ in 0..FACTORISATIONS {
        for i in 0..n {
            for j in 0..n {
                let d = i.abs_diff(j) as f64;
                a[i * n + j] = 1.0 / (1.0 + d) + if i == j { n as f64 } else { 0.0 };
            }
        }
        for k in 0..n {
            let p = (k..n)
                .max_by(|&r, &s| a[r * n + k].abs().total_cmp(&a[s * n + k].abs()))
                .unwrap_or(k);
            if p != k {
                for j in 0..n {
                    a.swap(p * n + j, k * n + j);
                }
            }
            let pivot = a[k * n + k];
            for i in k + 1..n {
                let l = a[i * n + k] / pivot;
                a[i * n + k] = l;
                for j in k + 1..n {
                    a[i * n + j] -= l * a[k * n + j];
                }
            }
        }
        sum += (0..n).map(|k| a[k * n + k]).sum::<f64>();
    }
    sum
}

/// CPU seconds of the calibration runs of one run: every sample of every
/// sampling point.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Calibration {
    /// Thread CPU seconds of each timed run of [`work`].
    pub samples: Vec<f64>,
    /// The share of the machine's CPU other processes took while the jobs
    /// ran ([`super::load`]); None where it was not measured.
    pub others_share: Option<f64>,
}

impl Calibration {
    /// The calibration time: the median of the samples (NaN without).
    pub fn cpu_s(&self) -> f64 {
        median(&self.samples)
    }

    /// Half the range of the samples (the run's noise, as the recorded
    /// spread of a method's CPU time).
    pub fn spread(&self) -> f64 {
        let lo = self.samples.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = self
            .samples
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        if self.samples.is_empty() {
            f64::NAN
        } else {
            0.5 * (hi - lo)
        }
    }

    /// Whether it can serve as the unit: finite, positive samples.
    pub fn is_usable(&self) -> bool {
        !self.samples.is_empty() && self.samples.iter().all(|s| s.is_finite() && *s > 0.0)
    }

    /// Both sampling points' samples, and the larger of the others'
    /// shares.
    pub fn merged(mut self, other: Calibration) -> Calibration {
        self.samples.extend(other.samples);
        self.others_share = match (self.others_share, other.others_share) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        self
    }
}

/// One sampling point: `threads` threads each time [`RUNS`] runs of
/// [`work`] (after one untimed run), all at once.
pub fn sample(threads: usize) -> Calibration {
    let handles: Vec<_> = (0..threads.max(1))
        .map(|_| {
            std::thread::spawn(|| {
                std::hint::black_box(work());
                (0..RUNS)
                    .map(|_| {
                        let watch = Stopwatch::start();
                        std::hint::black_box(work());
                        watch.elapsed().1
                    })
                    .collect::<Vec<f64>>()
            })
        })
        .collect();
    let samples = handles
        .into_iter()
        .filter_map(|h| h.join().ok())
        .flatten()
        .collect();
    Calibration {
        samples,
        others_share: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_work_is_fixed_and_its_samples_are_summarised() {
        // The U diagonal of a diagonally dominant matrix without pivoting
        // swaps: each entry near 97; the checksum is reproducible.
        let a = work();
        assert_eq!(a, work());
        assert!(a > FACTORISATIONS as f64 * ORDER as f64 * 96.0, "{a}");
        let c = sample(2);
        assert_eq!(c.samples.len(), 2 * RUNS);
        assert!(c.is_usable(), "{c:?}");
        let fixed = Calibration {
            samples: vec![1.0, 3.0, 2.0],
            others_share: None,
        };
        assert_eq!((fixed.cpu_s(), fixed.spread()), (2.0, 1.0));
        assert!(!Calibration::default().is_usable());
        assert!(Calibration::default().cpu_s().is_nan());
    }
}
