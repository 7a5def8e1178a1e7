//! The spectral radius of the Bossak-Newmark step against omega dt, the
//! point of a Bossak study (issue 20, class 6), with its analytic curve as
//! the reference drawn under the measured points.
//!
//! On the undamped mode x'' + w^2 x = 0 the Bossak-Newmark step (Wood,
//! Bossak & Zienkiewicz, IJNME 15 (1980) 1562-1566) with
//! beta = (1 - a)^2 / 4, gamma = 1/2 - a (a = alpha_b) is
//!   (1 - a) A1 + a A0 + W^2 x1 = 0,
//!   x1 = x0 + V0 + (1/2 - beta) A0 + beta A1,
//!   V1 = V0 + (1 - gamma) A0 + gamma A1
//! in the state (x, V = h v, A = h^2 a), W = w h. Solving for A1 gives the
//! 3 x 3 amplification matrix; its spectral radius is the largest
//! |eigenvalue|, computed here by nalgebra's Schur decomposition: a closed
//! form independent of the integrator's code (`integrators::newmark`),
//! which the measured `spectral_radius` (fitted to the trajectory) checks.

use nalgebra::Matrix3;

use crate::harness::figure::{Axis, Figure, Series, Style};
use crate::harness::format::sig;
use crate::harness::study::{CaseOutput, StudySummary};
use crate::harness::sweep::label::short;
use crate::studies::gap_system::spec::CaseConfig;

/// The amplification matrix of the step in (x, h v, h^2 a) at W = w h.
pub fn amplification(alpha_b: f64, omega_dt: f64) -> Matrix3<f64> {
    let a = alpha_b;
    let beta = (1.0 - a).powi(2) / 4.0;
    let gamma = 0.5 - a;
    let w2 = omega_dt * omega_dt;
    let d = 1.0 - a + beta * w2;
    // A1 = r . (x0, V0, A0)
    let r = [-w2 / d, -w2 / d, -(a + w2 * (0.5 - beta)) / d];
    Matrix3::new(
        1.0 + beta * r[0],
        1.0 + beta * r[1],
        0.5 - beta + beta * r[2],
        gamma * r[0],
        1.0 + gamma * r[1],
        1.0 - gamma + gamma * r[2],
        r[0],
        r[1],
        r[2],
    )
}

/// The largest |eigenvalue| of [`amplification`].
pub fn spectral_radius(alpha_b: f64, omega_dt: f64) -> f64 {
    amplification(alpha_b, omega_dt)
        .complex_eigenvalues()
        .iter()
        .map(|z| z.norm())
        .fold(0.0, f64::max)
}

/// omega dt of a free SDOF case (sqrt(k/m) dt); None otherwise.
fn omega_dt(cfg: &CaseConfig) -> Option<f64> {
    if cfg.system.dofs() != 1 {
        return None;
    }
    let m = cfg.system.mass.get(0, 0).copied()?;
    let k = cfg.system.stiffness.get(0, 0).copied()?;
    (m > 0.0 && k > 0.0).then(|| (k / m).sqrt() * cfg.dt)
}

/// The figure, when every case measured a spectral radius: per alpha_b the
/// analytic curve over omega dt = 1e-2 ... 1e4 (dashed) and the measured
/// points (markers); the caption says how far they are apart.
pub(super) fn figure(summary: &mut StudySummary, all: &[(&CaseConfig, &CaseOutput)]) -> bool {
    let mut measured: Vec<(f64, f64, f64)> = Vec::new();
    for (cfg, o) in all {
        let Some(w) = omega_dt(cfg) else { return false };
        let Some(rho) = o
            .methods
            .first()
            .and_then(|m| m.output()?.scalar("spectral_radius"))
        else {
            return false;
        };
        measured.push((cfg.alpha_b, w, rho));
    }
    if measured.is_empty() {
        return false;
    }
    measured.sort_by(|a, b| a.0.total_cmp(&b.0));
    let grid: Vec<f64> = (0..=120)
        .map(|i| 10f64.powf(-2.0 + i as f64 / 20.0))
        .collect();
    let mut series = Vec::new();
    let mut worst = 0.0f64;
    for (k, &(a, w, rho)) in measured.iter().enumerate() {
        let curve: Vec<f64> = grid.iter().map(|&g| spectral_radius(a, g)).collect();
        series.push(
            Series::new(
                format!("analytic, alpha_b = {}", short(a)),
                &grid,
                &curve,
                Style::Dashed,
            )
            .grouped(k),
        );
        series.push(
            Series::new(
                format!("measured, alpha_b = {}", short(a)),
                &[w],
                &[rho],
                Style::Markers,
            )
            .grouped(k),
        );
        worst = worst.max((rho / spectral_radius(a, w) - 1.0).abs());
    }
    let alphas: Vec<String> = measured.iter().map(|m| short(m.0)).collect();
    let at: Vec<String> = measured.iter().map(|m| short(m.1)).collect();
    let mut at_unique = at.clone();
    at_unique.dedup();
    summary.figures.push(Figure {
        name: "spectral-radius".into(),
        title: "Spectral radius of the Bossak-Newmark step against omega dt".into(),
        x: Axis::log("omega dt [-]"),
        y: Axis::linear("spectral radius rho [-]"),
        series,
        caption: format!(
            "The high-frequency damping of Bossak-Newmark (beta = (1 - alpha_b)^2 / 4, gamma = 1/2 - alpha_b) on an undamped mode, for alpha_b = {}: dashed, the analytic spectral radius (the largest |eigenvalue| of the step's amplification matrix in (x, dt v, dt^2 a)); markers, the spectral radius measured from each run's trajectory at omega dt = {}, within {} relative of the analytic value. rho falls from 1 (resolved modes kept) to rho_inf = (1 + alpha_b) / (1 - alpha_b) (unresolved modes damped).",
            alphas.join(", "),
            at_unique.join(", "),
            sig(worst)
        ),
    });
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The trapezoidal rule (alpha_b = 0) keeps every mode (rho = 1); a
    /// resolved mode is kept by every alpha_b; at infinite frequency rho is
    /// (1 + a) / (1 - a); at omega dt = 1000, alpha_b = -1/3, rho exceeds
    /// it by 1.35e-5 relative (experiments/bossak.toml).
    #[test]
    fn the_amplification_matrix_has_the_known_limits() {
        for w in [1e-2, 1.0, 1e2, 1e4] {
            assert!((spectral_radius(0.0, w) - 1.0).abs() < 1e-12, "{w}");
        }
        for a in [-1.0 / 3.0, -0.3, -0.1] {
            assert!((spectral_radius(a, 1e-3) - 1.0).abs() < 1e-5, "{a}");
            let inf = (1.0 + a) / (1.0 - a);
            assert!((spectral_radius(a, 1e6) / inf - 1.0).abs() < 1e-9, "{a}");
        }
        let rel = spectral_radius(-1.0 / 3.0, 1e3) / 0.5 - 1.0;
        assert!((rel - 1.35e-5).abs() < 0.01e-5, "{rel:e}");
    }
}
