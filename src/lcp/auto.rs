//! The default solver: Lemke with fallbacks, complete for small n.
//!
//! 1. q >= 0: z = 0.
//! 2. Lemke, lexicographic, d = e. A terminal z above the tolerance is
//!    polished by Newton-min from it (the active set is right; one step).
//! 3. On ray termination with M + M^T positive semidefinite, M is
//!    copositive-plus and the ray proves that {z >= 0 : M z + q >= 0} is
//!    empty (Cottle, Pang & Stone 1992, theorem 4.4.13); for n <= 100 the
//!    phase-1 LP of [`enumerate::feasible_point`] must agree before
//!    `Infeasible` is reported.
//! 4. Otherwise: Lemke with other covering vectors, Newton-FB from several
//!    starts (the warm start, 0, e, Lemke's last point), then the complete
//!    [`enumerate::enumerate`] (n <= 30), which returns a solution or proves
//!    that none exists. Beyond that, `Failed` with the best point found.

use std::ops::ControlFlow;

use crate::lcp::enumerate;
use crate::lcp::lemke::{LemkeError, LemkeParams, lemke};
use crate::lcp::newton::Complementarity;
use crate::lcp::problem::Lcp;
use crate::lcp::run::{LcpOptions, failed, graded, run_enumerate, run_lemke, run_newton};
use crate::lcp::solution::{LcpSolution, LcpStatus};

/// Largest n for which the LP confirms an infeasibility certificate.
const LP_CONFIRM_MAX_DIM: usize = 100;

/// Solves with the strategy of the module doc. `iterations` is that of the
/// step that produced z (pivots, Newton steps or enumeration nodes);
/// `solver` names it, e.g. `auto(lemke)`.
pub fn auto(lcp: &Lcp, options: &LcpOptions, warm_start: Option<&[f64]>) -> LcpSolution {
    let n = lcp.q.len();
    if !lcp.m.iter().chain(lcp.q.iter()).all(|v| v.is_finite()) {
        return failed(
            lcp,
            vec![0.0; n],
            0,
            "auto",
            Some("M or q contains a non-finite number".into()),
        );
    }
    if lcp.q.iter().all(|&v| v >= 0.0) {
        return graded(lcp, vec![0.0; n], 0, "auto(trivial)", options, None);
    }
    let mut best = Best::default();
    let mut notes: Vec<String> = Vec::new();

    // 2. Lemke with d = e.
    let lemke_point = match lemke_stage(lcp, options, &mut best, &mut notes) {
        ControlFlow::Break(s) => return s,
        ControlFlow::Continue(z) => z,
    };

    // 4a. Lemke with other covering vectors.
    if let ControlFlow::Break(s) = covering_stage(lcp, options, &mut best, &mut notes) {
        return s;
    }

    // 4b. Newton-FB from several starts.
    let starts = fb_starts(n, warm_start, lemke_point);
    if let ControlFlow::Break(s) = newton_fb_stage(lcp, options, &starts, &mut best, &mut notes) {
        return s;
    }

    // 4c. Complete enumeration.
    let s = run_enumerate(lcp, options, "auto(enumerate)");
    if matches!(s.status, LcpStatus::Solved | LcpStatus::Infeasible) {
        return s;
    }
    if let Some(m) = &s.message {
        notes.push(m.clone());
    }
    best.offer(s);
    let mut out = best
        .0
        .unwrap_or_else(|| failed(lcp, vec![0.0; n], 0, "auto", None));
    out.status = LcpStatus::Failed;
    out.solver = "auto";
    out.message = Some(notes.join("; "));
    out
}

/// Stage 2: Lemke with d = e; a point it finds that is not accurate
/// enough is polished by Newton-min. `Break` with a solution or an
/// infeasibility certificate, else `Continue` with the point Lemke ended
/// at (a start for Newton-FB), if any.
fn lemke_stage(
    lcp: &Lcp,
    options: &LcpOptions,
    best: &mut Best,
    notes: &mut Vec<String>,
) -> ControlFlow<LcpSolution, Option<Vec<f64>>> {
    let mut params = LemkeParams::default();
    if options.max_iterations.is_some() {
        params.max_pivots = options.max_iterations;
    }
    match lemke(lcp, &params) {
        Ok(info) => {
            let s = graded(lcp, info.z, info.pivots, "auto(lemke)", options, None);
            if s.status == LcpStatus::Solved {
                return ControlFlow::Break(s);
            }
            let polished = run_newton(
                lcp,
                Complementarity::Min,
                options,
                Some(&s.z),
                "auto(lemke+newton-min)",
            );
            if polished.status == LcpStatus::Solved {
                return ControlFlow::Break(polished);
            }
            notes.push(format!("lemke: residual {:e}", s.residual));
            let z = s.z.clone();
            best.offer(s);
            ControlFlow::Continue(Some(z))
        }
        Err(LemkeError::RayTermination { pivots, z, .. }) => {
            notes.push(format!("lemke: ray after {pivots} pivots"));
            if let Some(certificate) = psd_ray_certificate(lcp, pivots, notes) {
                return ControlFlow::Break(certificate);
            }
            ControlFlow::Continue(Some(z))
        }
        Err(e) => {
            notes.push(e.to_string());
            ControlFlow::Continue(None)
        }
    }
}

/// Lemke's ray with M + M^T positive semidefinite: the LCP is infeasible
/// (copositive-plus), confirmed by a phase-1 LP up to [`LP_CONFIRM_MAX_DIM`]
/// unknowns. `None` when M + M^T is not PSD or the LP finds a point.
fn psd_ray_certificate(lcp: &Lcp, pivots: usize, notes: &mut Vec<String>) -> Option<LcpSolution> {
    if !symmetric_part_is_psd(lcp) {
        return None;
    }
    let n = lcp.q.len();
    let confirmed = n > LP_CONFIRM_MAX_DIM || enumerate::feasible_point(lcp, 1e-9).is_none();
    if confirmed {
        let z0 = vec![0.0; n];
        return Some(LcpSolution {
            status: LcpStatus::Infeasible,
            residual: lcp.residual(&z0),
            z: z0,
            iterations: pivots,
            solver: "auto(lemke)",
            message: Some(format!(
                "Lemke ray termination after {pivots} pivots with M + M^T positive \
                 semidefinite (copositive-plus): no z >= 0 with Mz + q >= 0{}",
                if n > LP_CONFIRM_MAX_DIM {
                    ""
                } else {
                    " (confirmed by a phase-1 LP)"
                }
            )),
        });
    }
    notes.push("PSD ray not confirmed by the LP".into());
    None
}

/// Stage 4a: Lemke with three other covering vectors.
fn covering_stage(
    lcp: &Lcp,
    options: &LcpOptions,
    best: &mut Best,
    notes: &mut Vec<String>,
) -> ControlFlow<LcpSolution> {
    let n = lcp.q.len();
    let scale = lcp.q.amax().max(f64::MIN_POSITIVE);
    let coverings: [Vec<f64>; 3] = [
        (0..n).map(|i| 1.0 + i as f64).collect(),
        (0..n).map(|i| (n - i) as f64).collect(),
        lcp.q.iter().map(|&v| v.abs() / scale + 1e-3).collect(),
    ];
    for d in coverings {
        let params = LemkeParams {
            covering: Some(d),
            ..LemkeParams::default()
        };
        let s = run_lemke(lcp, options, &params, "auto(lemke-d)");
        if s.status == LcpStatus::Solved {
            return ControlFlow::Break(s);
        }
        best.offer(s);
    }
    notes.push("lemke with 3 other covering vectors: no solution".into());
    ControlFlow::Continue(())
}

/// The starts of Newton-FB: the warm start, zero, ones and Lemke's point.
fn fb_starts(n: usize, warm_start: Option<&[f64]>, lemke_point: Option<Vec<f64>>) -> Vec<Vec<f64>> {
    let mut starts: Vec<Vec<f64>> = Vec::new();
    if let Some(w) = warm_start {
        starts.push(w.to_vec());
    }
    starts.push(vec![0.0; n]);
    starts.push(vec![1.0; n]);
    if let Some(z) = lemke_point {
        starts.push(z);
    }
    starts
}

/// Stage 4b: Newton-FB from each start.
fn newton_fb_stage(
    lcp: &Lcp,
    options: &LcpOptions,
    starts: &[Vec<f64>],
    best: &mut Best,
    notes: &mut Vec<String>,
) -> ControlFlow<LcpSolution> {
    for start in starts {
        let s = run_newton(
            lcp,
            Complementarity::FischerBurmeister,
            options,
            Some(start),
            "auto(newton-fb)",
        );
        if s.status == LcpStatus::Solved {
            return ControlFlow::Break(s);
        }
        best.offer(s);
    }
    notes.push(format!(
        "newton-fb from {} starts: no solution",
        starts.len()
    ));
    ControlFlow::Continue(())
}

/// The attempt with the smallest residual so far.
#[derive(Default)]
struct Best(Option<LcpSolution>);

impl Best {
    fn offer(&mut self, s: LcpSolution) {
        let better = match &self.0 {
            None => true,
            Some(b) => s.residual < b.residual || b.residual.is_nan(),
        };
        if better {
            self.0 = Some(s);
        }
    }
}

/// Whether M + M^T is positive semidefinite: Cholesky of
/// S = (M + M^T) / 2 + delta I with delta = 1e-10 max|S_ij| (faer).
pub fn symmetric_part_is_psd(lcp: &Lcp) -> bool {
    let n = lcp.q.len();
    let mut s = faer::Mat::<f64>::from_fn(n, n, |i, j| 0.5 * (lcp.m[(i, j)] + lcp.m[(j, i)]));
    let mut amax = 0.0f64;
    for j in 0..n {
        for i in 0..n {
            amax = amax.max(s[(i, j)].abs());
        }
    }
    let delta = 1e-10 * amax.max(f64::MIN_POSITIVE);
    for i in 0..n {
        s[(i, i)] += delta;
    }
    s.llt(faer::Side::Lower).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{DMatrix, DVector};

    fn lcp(n: usize, m_row_major: &[f64], q: &[f64]) -> Lcp {
        Lcp::new(
            DMatrix::from_row_slice(n, n, m_row_major),
            DVector::from_column_slice(q),
        )
        .unwrap()
    }

    #[test]
    fn nonnegative_q_is_trivial() {
        let p = lcp(2, &[0.0, -1.0, 1.0, 0.0], &[1.0, 0.0]);
        let s = auto(&p, &LcpOptions::default(), None);
        assert_eq!(s.status, LcpStatus::Solved);
        assert_eq!(s.solver, "auto(trivial)");
    }

    #[test]
    fn psd_ray_is_reported_infeasible() {
        // M = [[1, -1], [-1, 1]] (PSD), q = (-1, -1): w1 + w2 = -2 < 0.
        let p = lcp(2, &[1.0, -1.0, -1.0, 1.0], &[-1.0, -1.0]);
        assert!(symmetric_part_is_psd(&p));
        let s = auto(&p, &LcpOptions::default(), None);
        assert_eq!(s.status, LcpStatus::Infeasible, "{s:?}");
        assert_eq!(s.solver, "auto(lemke)");
    }

    #[test]
    fn indefinite_infeasible_problem_is_proved_by_enumeration() {
        let p = lcp(2, &[3.0, -2.0, 1.0, -3.0], &[-1.0, -3.0]);
        assert!(!symmetric_part_is_psd(&p));
        let s = auto(&p, &LcpOptions::default(), None);
        assert_eq!(s.status, LcpStatus::Infeasible, "{s:?}");
        assert_eq!(s.solver, "auto(enumerate)");
    }

    #[test]
    fn psd_test_rejects_an_indefinite_matrix() {
        let p = lcp(2, &[0.0, 1.0, 1.0, 0.0], &[-1.0, -1.0]);
        assert!(!symmetric_part_is_psd(&p));
        // Skew-symmetric: M + M^T = 0 is PSD.
        let p = lcp(2, &[0.0, 1.0, -1.0, 0.0], &[-1.0, -1.0]);
        assert!(symmetric_part_is_psd(&p));
    }
}
