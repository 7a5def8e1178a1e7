//! The space-filling design of a robustness run: a Latin hypercube of N
//! points in the unit cube, the most spread (largest smallest distance
//! between two points) of [`CANDIDATES`] hypercubes drawn with a fixed
//! seed per study. A rerun, and every part of a sharded run, computes the
//! same points.
//!
//! A Latin hypercube (McKay, Beckman & Conover, Technometrics 21 (1979)
//! 239) puts exactly one point in each of the N equal slices of every
//! axis, so that each parameter is sampled evenly however many there are;
//! picking the best of several by the maximin distance (Morris & Mitchell,
//! J. Stat. Plann. Inference 43 (1995) 381) avoids clustered points.

/// Hypercubes drawn; the design is the one with the largest smallest
/// distance between two of its points.
pub const CANDIDATES: usize = 20;

/// A 64-bit generator (SplitMix64, Steele, Lea & Flood, OOPSLA 2014):
/// fixed, portable, and enough for a design.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn uniform(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A uniform index below `n` (n > 0).
    fn below(&mut self, n: usize) -> usize {
        // The bias of the modulo is below n / 2^64: none that matters.
        (self.next() % n as u64) as usize
    }
}

/// The seed of a study's design: FNV-1a of its name, so that studies get
/// different but fixed designs.
pub fn study_seed(name: &str) -> u64 {
    name.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    })
}

/// One Latin hypercube: point k has, on each axis, the slice perm[k] of
/// N and a uniform position within it.
fn hypercube(n: usize, dims: usize, rng: &mut SplitMix) -> Vec<Vec<f64>> {
    let mut points = vec![vec![0.0; dims]; n];
    for d in 0..dims {
        let mut perm: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            perm.swap(i, rng.below(i + 1));
        }
        for (k, p) in points.iter_mut().enumerate() {
            p[d] = (perm[k] as f64 + rng.uniform()) / n as f64;
        }
    }
    points
}

/// The smallest distance between two points (infinite for fewer than two).
fn min_distance(points: &[Vec<f64>]) -> f64 {
    let mut best = f64::INFINITY;
    for (i, a) in points.iter().enumerate() {
        for b in &points[i + 1..] {
            let d2: f64 = a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum();
            best = best.min(d2.sqrt());
        }
    }
    best
}

/// N points of the unit cube of `dims` dimensions (see the module doc).
pub fn latin_hypercube(n: usize, dims: usize, seed: u64) -> Vec<Vec<f64>> {
    let mut rng = SplitMix(seed);
    let mut best = hypercube(n, dims, &mut rng);
    let mut spread = min_distance(&best);
    for _ in 1..CANDIDATES {
        let candidate = hypercube(n, dims, &mut rng);
        let d = min_distance(&candidate);
        if d > spread {
            (best, spread) = (candidate, d);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_slice_of_every_axis_holds_one_point_and_the_design_is_fixed() {
        let points = latin_hypercube(16, 3, study_seed("a"));
        assert_eq!(points.len(), 16);
        for d in 0..3 {
            let mut slices: Vec<usize> = points.iter().map(|p| (p[d] * 16.0) as usize).collect();
            slices.sort_unstable();
            assert_eq!(slices, (0..16).collect::<Vec<_>>(), "axis {d}");
        }
        assert_eq!(points, latin_hypercube(16, 3, study_seed("a")));
        assert_ne!(points, latin_hypercube(16, 3, study_seed("b")));
    }

    #[test]
    fn the_best_of_the_candidates_is_more_spread_than_the_first() {
        let seed = study_seed("spread");
        let first = hypercube(12, 2, &mut SplitMix(seed));
        let best = latin_hypercube(12, 2, seed);
        assert!(min_distance(&best) >= min_distance(&first));
        assert!(min_distance(&best) > 0.05, "{}", min_distance(&best));
    }
}
