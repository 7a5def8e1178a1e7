//! Pseudo-arclength continuation of T-periodic orbits in the forcing
//! frequency, on the exact event-driven flow (Keller, in *Applications of
//! Bifurcation Theory*, 1977; Seydel, *Practical Bifurcation and Stability
//! Analysis*, 3rd ed., 2010, Ch. 4 and 7; Doedel et al., AUTO's
//! documentation, for the test functions).
//!
//! Unknowns u = (z, omega), z = [x, v] at phase 0; residual
//! G(u) = P(z, omega) - z with the period map P of [`super::monodromy`]
//! (exact up to rounding and the event tolerance), Jacobian
//! [M - I, dP/domega]. The branch is parametrized in scaled coordinates
//! ũ = u / scale (displacements by the start orbit's amplitude, velocities
//! by that amplitude times omega_from, omega by omega_from). From a point
//! u_k with unit tangent t_k (null vector of the scaled Jacobian, oriented
//! so that t_k . t_(k-1) > 0) the predictor is u_k + σ t_k and Newton
//! corrects it on
//!
//!   G(u) = 0,   t_k . (ũ - ũ_pred) = 0.
//!
//! Step control: σ halves when Newton fails within
//! `max_corrector_iterations`, when consecutive tangents turn by more than
//! `max_turn`, or when the orbit at σ/2 lies farther than `chord_tol` from
//! the chord of the points at 0 and σ in (ln omega, ln A) (A = max |x_0|
//! over the orbit: the drawn curve is then within `chord_tol` of the exact
//! one); it grows by 1.5 after an easy step. Both the σ/2 and the σ orbits
//! become branch points.
//!
//! Test functions between consecutive points: the tangent's omega
//! component (a fold, limit point in omega: a Floquet multiplier through
//! +1), det(M + I) (period doubling: a real multiplier through -1) and
//! max |λ| - 1 (any loss or gain of stability; without either of the
//! others a complex pair crossed the unit circle: a torus bifurcation).
//! Each sign change is located by the Illinois method on σ, the fold to
//! |t_omega| < 1e-10 (omega at the fold is then exact to about
//! 1e-20 / curvature), and inserted into the branch.

use nalgebra::{Complex, DMatrix, DVector};

use crate::error::SolverError;
use crate::problem::GapSystem;

use super::monodromy::{FlowJacobian, at_omega, flow_jacobian};
use super::{EventDrivenOptions, METHOD, steady_state};

/// Settings of the continuation.
#[derive(Debug, Clone, PartialEq)]
pub struct ContinuationOptions {
    /// Low end of the frequency range [rad/s]: the branch starts here, from
    /// the orbit reached from rest.
    pub omega_from: f64,
    /// High end [rad/s]: the branch ends where it reaches it.
    pub omega_to: f64,
    /// First step in scaled arclength. Default 0.01.
    pub ds: f64,
    /// Smallest step; below it the continuation fails. Default 1e-7.
    pub ds_min: f64,
    /// Largest step. Default 0.05.
    pub ds_max: f64,
    /// Largest deviation of a mid-step orbit from the chord of its
    /// neighbours in (ln omega, ln A). Default 2e-5.
    pub chord_tol: f64,
    /// Largest angle between consecutive unit tangents [rad]. Default 0.2.
    pub max_turn: f64,
    /// Newton iterations per corrector before the step is halved. Default 8.
    pub max_corrector_iterations: usize,
    /// Most branch points before the continuation gives up. Default 4000.
    pub max_points: usize,
    /// Forcing periods integrated from rest at omega_from before the first
    /// shooting. Default 100.
    pub start_settle_periods: usize,
}

impl Default for ContinuationOptions {
    fn default() -> Self {
        ContinuationOptions {
            omega_from: 0.5,
            omega_to: 2.0,
            ds: 0.01,
            ds_min: 1e-7,
            ds_max: 0.05,
            chord_tol: 2e-5,
            max_turn: 0.2,
            max_corrector_iterations: 8,
            max_points: 4000,
            start_settle_periods: 100,
        }
    }
}

/// What a branch point is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointKind {
    /// The first point, at omega_from.
    Start,
    /// A point of the branch.
    Regular,
    /// A fold (limit point in omega): a multiplier through +1.
    Fold,
    /// Period doubling: a real multiplier through -1.
    PeriodDoubling,
    /// A complex pair of multipliers through the unit circle.
    Torus,
    /// The last point, at omega_to (or at omega_from when the branch turns
    /// back out of the range).
    End,
}

impl PointKind {
    /// The name written to branch tables.
    pub fn name(self) -> &'static str {
        match self {
            PointKind::Start => "start",
            PointKind::Regular => "regular",
            PointKind::Fold => "fold",
            PointKind::PeriodDoubling => "period-doubling",
            PointKind::Torus => "torus",
            PointKind::End => "end",
        }
    }
}

/// One periodic orbit of the branch.
#[derive(Debug, Clone, PartialEq)]
pub struct BranchPoint {
    /// Forcing frequency [rad/s].
    pub omega: f64,
    /// [x, v] at phase 0.
    pub z: Vec<f64>,
    /// Largest x_i over the orbit, per DOF.
    pub x_max: Vec<f64>,
    /// Smallest x_i over the orbit, per DOF.
    pub x_min: Vec<f64>,
    /// max |x_0| over the orbit [m].
    pub amplitude: f64,
    /// Floquet multipliers, largest modulus first.
    pub multipliers: Vec<Complex<f64>>,
    /// Every multiplier inside the unit circle (false at folds and other
    /// bifurcation points, where one is on it).
    pub stable: bool,
    /// Pseudo-arclength parameter (scaled) from the start.
    pub arclength: f64,
    /// The omega component of the scaled unit tangent.
    pub tangent_omega: f64,
    /// What the point is.
    pub kind: PointKind,
    /// Newton iterations of its corrector.
    pub corrector_iterations: usize,
}

impl BranchPoint {
    /// Largest multiplier modulus.
    pub fn max_modulus(&self) -> f64 {
        self.multipliers
            .iter()
            .map(|c| c.norm())
            .fold(0.0, f64::max)
    }
}

/// The continued branch and the work it took.
#[derive(Debug, Clone, PartialEq)]
pub struct Branch {
    /// The points in order of arclength, special points included.
    pub points: Vec<BranchPoint>,
    /// Period-map evaluations with derivatives (Newton iterations and
    /// extremes passes).
    pub flows: usize,
    /// Steps rejected by the step control.
    pub rejected_steps: usize,
    /// Whether the branch left the range through omega_from (turned back)
    /// instead of reaching omega_to.
    pub turned_back: bool,
}

impl Branch {
    /// The special points of kind `kind`, in order.
    pub fn special(&self, kind: PointKind) -> impl Iterator<Item = &BranchPoint> {
        self.points.iter().filter(move |p| p.kind == kind)
    }
}

fn other(message: String) -> SolverError {
    SolverError::other(format!("{METHOD} continuation"), message)
}

/// A corrected orbit with everything the step control and the tests need.
#[derive(Debug, Clone)]
struct Eval {
    u: DVector<f64>,
    jac: FlowJacobian,
    /// Scaled unit tangent, oriented along the reference it was computed with.
    tangent: DVector<f64>,
    iterations: usize,
    /// Largest and smallest x_i over the orbit.
    x_max: Vec<f64>,
    x_min: Vec<f64>,
}

impl Eval {
    fn omega(&self) -> f64 {
        self.u[self.u.len() - 1]
    }

    fn amplitude(&self) -> f64 {
        self.x_max[0].abs().max(self.x_min[0].abs())
    }
}

/// Test functions at an evaluated orbit.
fn fold_test(e: &Eval) -> f64 {
    e.tangent[e.tangent.len() - 1]
}

fn period_doubling_test(e: &Eval) -> f64 {
    let k = e.jac.monodromy.nrows();
    (&e.jac.monodromy + DMatrix::identity(k, k)).determinant()
}

/// Eigenvalues of `m` (Floquet multipliers of a monodromy matrix), largest modulus first.
pub fn multipliers(m: &DMatrix<f64>) -> Result<Vec<Complex<f64>>, SolverError> {
    let schur = nalgebra::Schur::try_new(m.clone(), f64::EPSILON, 100_000)
        .ok_or_else(|| other("eigenvalues of the monodromy matrix did not converge".into()))?;
    let mut l: Vec<Complex<f64>> = schur.complex_eigenvalues().iter().copied().collect();
    l.sort_by(|a, b| b.norm().total_cmp(&a.norm()));
    Ok(l)
}

fn stability_test(e: &Eval) -> Result<f64, SolverError> {
    Ok(multipliers(&e.jac.monodromy)?
        .iter()
        .map(|c| c.norm())
        .fold(0.0, f64::max)
        - 1.0)
}

/// The continuation's working state.
struct Tracer<'a> {
    system: &'a GapSystem,
    ed: &'a EventDrivenOptions,
    options: &'a ContinuationOptions,
    scale: DVector<f64>,
    flows: usize,
}

impl Tracer<'_> {
    fn n2(&self) -> usize {
        self.scale.len() - 1
    }

    /// G(u) and the scaled Jacobian [M - I, dP/domega] diag(scale).
    fn evaluate(
        &mut self,
        u: &DVector<f64>,
    ) -> Result<(DVector<f64>, DMatrix<f64>, FlowJacobian), SolverError> {
        let k = self.n2();
        let omega = u[k];
        if !(omega.is_finite() && omega > 0.0) {
            return Err(other(format!("the branch reached omega = {omega}")));
        }
        let system = at_omega(self.system, omega);
        let z = u.rows(0, k).into_owned();
        let (jac, _) = flow_jacobian(&system, &z, self.ed, false)?;
        self.flows += 1;
        let residual = &jac.end - &z;
        let mut j = DMatrix::zeros(k, k + 1);
        j.view_mut((0, 0), (k, k))
            .copy_from(&(&jac.monodromy - DMatrix::identity(k, k)));
        j.set_column(k, &jac.d_omega);
        for c in 0..=k {
            let s = self.scale[c];
            j.column_mut(c).scale_mut(s);
        }
        Ok((residual, j, jac))
    }

    /// Scaled unit tangent: [J; t_refᵀ] y = e_last, normalized.
    fn tangent(j: &DMatrix<f64>, reference: &DVector<f64>) -> Result<DVector<f64>, SolverError> {
        let k = j.nrows();
        let mut a = DMatrix::zeros(k + 1, k + 1);
        a.view_mut((0, 0), (k, k + 1)).copy_from(j);
        a.row_mut(k).copy_from(&reference.transpose());
        let mut e = DVector::zeros(k + 1);
        e[k] = 1.0;
        let y = a
            .lu()
            .solve(&e)
            .ok_or_else(|| other("the tangent system is singular (a branch point?)".into()))?;
        let norm = y.norm();
        if !(norm.is_finite() && norm > 0.0) {
            return Err(other("the tangent is not finite".into()));
        }
        Ok(y / norm)
    }

    /// Newton on G(u) = 0, t . (ũ - ũ_pred) = 0 from `predictor`.
    fn correct(&mut self, predictor: &DVector<f64>, t: &DVector<f64>) -> Result<Eval, SolverError> {
        let k = self.n2();
        let mut u = predictor.clone();
        for iteration in 0..=self.options.max_corrector_iterations {
            crate::deadline::check();
            let (g, j, jac) = self.evaluate(&u)?;
            let shift = (&u - predictor).component_div(&self.scale);
            let constraint = t.dot(&shift);
            let z_size = u.rows(0, k).amax();
            if g.amax() <= self.ed.newton_tol * (1.0 + z_size) && constraint.abs() <= 1e-9 {
                let tangent = Self::tangent(&j, t)?;
                let (x_max, x_min) = self.extremes(&u)?;
                return Ok(Eval {
                    u,
                    jac,
                    tangent,
                    iterations: iteration,
                    x_max,
                    x_min,
                });
            }
            if iteration == self.options.max_corrector_iterations {
                break;
            }
            let mut a = DMatrix::zeros(k + 1, k + 1);
            a.view_mut((0, 0), (k, k + 1)).copy_from(&j);
            a.row_mut(k).copy_from(&t.transpose());
            let mut rhs = DVector::zeros(k + 1);
            rhs.rows_mut(0, k).copy_from(&(-g));
            rhs[k] = -constraint;
            let delta = a
                .lu()
                .solve(&rhs)
                .ok_or_else(|| other("singular corrector matrix".into()))?;
            u += delta.component_mul(&self.scale);
        }
        Err(SolverError::NoConvergence {
            method: format!("{METHOD} continuation corrector"),
            step: 0,
            t: u[k],
            iterations: self.options.max_corrector_iterations,
            residual: f64::NAN,
        })
    }

    /// The corrected orbit at step σ from `base` along its tangent.
    fn at(&mut self, base: &Eval, sigma: f64) -> Result<Eval, SolverError> {
        let predictor = &base.u + (&base.tangent * sigma).component_mul(&self.scale);
        self.correct(&predictor, &base.tangent)
    }

    /// The extremes of every x_i over the orbit through u (one more pass).
    fn extremes(&mut self, u: &DVector<f64>) -> Result<(Vec<f64>, Vec<f64>), SolverError> {
        let k = self.n2();
        let system = at_omega(self.system, u[k]);
        let z = u.rows(0, k).into_owned();
        let (_, extremes) = flow_jacobian(&system, &z, self.ed, true)?;
        self.flows += 1;
        extremes.ok_or_else(|| other("the extremes pass returned none".into()))
    }

    /// The branch point of an evaluated orbit.
    fn point(e: &Eval, arclength: f64, kind: PointKind) -> Result<BranchPoint, SolverError> {
        let k = e.u.len() - 1;
        let multipliers = multipliers(&e.jac.monodromy)?;
        let modulus = multipliers.iter().map(|c| c.norm()).fold(0.0, f64::max);
        let special = !matches!(kind, PointKind::Regular | PointKind::Start | PointKind::End);
        Ok(BranchPoint {
            omega: e.omega(),
            z: e.u.rows(0, k).iter().copied().collect(),
            x_max: e.x_max.clone(),
            x_min: e.x_min.clone(),
            amplitude: e.amplitude(),
            multipliers,
            stable: modulus < 1.0 && !special,
            arclength,
            tangent_omega: fold_test(e),
            kind,
            corrector_iterations: e.iterations,
        })
    }

    /// Illinois on σ in the bracket (a, fa), (b, fb) of opposite signs for
    /// the test `f`, until |f| <= `ftol` or the bracket is below 1e-13 of `scale_sigma`.
    #[allow(clippy::too_many_arguments)]
    fn locate(
        &mut self,
        base: &Eval,
        (mut a, mut fa): (f64, f64),
        (mut b, mut fb): (f64, f64),
        mut found: Eval,
        f: &dyn Fn(&Eval) -> Result<f64, SolverError>,
        ftol: f64,
        scale_sigma: f64,
    ) -> Result<(f64, Eval), SolverError> {
        for _ in 0..80 {
            if fb.abs() <= ftol || (b - a).abs() <= 1e-13 * scale_sigma {
                return Ok((b, found));
            }
            let mut c = b - fb * (b - a) / (fb - fa);
            let (lo, hi) = (a.min(b), a.max(b));
            if !(c > lo && c < hi) {
                c = 0.5 * (a + b);
            }
            let e = self.at(base, c)?;
            let fc = f(&e)?;
            if fc * fb < 0.0 {
                a = b;
                fa = fb;
            } else {
                fa *= 0.5;
            }
            b = c;
            fb = fc;
            found = e;
        }
        Err(other(
            "a special point could not be located in 80 Illinois steps".into(),
        ))
    }
}

/// Sign changes of a test between consecutive samples (σ, value, eval).
fn brackets(samples: &[(f64, f64, &Eval)]) -> Vec<usize> {
    (1..samples.len())
        .filter(|&i| samples[i - 1].1 * samples[i].1 < 0.0)
        .collect()
}

/// Continues the T-periodic orbits of `system` (its own omega is ignored)
/// from `options.omega_from` to `options.omega_to`.
pub fn continue_orbits(
    system: &GapSystem,
    options: &ContinuationOptions,
    ed: &EventDrivenOptions,
) -> Result<Branch, SolverError> {
    let (from, to) = (options.omega_from, options.omega_to);
    if !(from.is_finite() && to.is_finite() && from > 0.0 && to > from) {
        return Err(other(format!(
            "need 0 < omega_from < omega_to, got {from} and {to}"
        )));
    }
    let start_system = at_omega(system, from);
    let n = system.dofs();
    let rest = vec![0.0; n];
    let orbit = steady_state(
        &start_system,
        &rest,
        &rest,
        options.start_settle_periods,
        ed,
    )?;
    let x_scale = orbit
        .x_max
        .iter()
        .chain(&orbit.x_min)
        .fold(0.0f64, |m, v| m.max(v.abs()));
    if !(x_scale > 0.0 && x_scale.is_finite()) {
        return Err(other(
            "the orbit at omega_from is at rest: nothing to continue (no forcing?)".into(),
        ));
    }
    let mut scale = DVector::from_element(2 * n + 1, x_scale);
    for i in n..2 * n {
        scale[i] = x_scale * from;
    }
    scale[2 * n] = from;
    let mut tracer = Tracer {
        system,
        ed,
        options,
        scale,
        flows: 0,
    };
    let mut e_omega = DVector::zeros(2 * n + 1);
    e_omega[2 * n] = 1.0;
    let u0 = DVector::from_iterator(
        2 * n + 1,
        orbit.x0.iter().chain(&orbit.v0).copied().chain([from]),
    );
    let first = tracer.correct(&u0, &e_omega)?;
    let mut points = vec![Tracer::point(&first, 0.0, PointKind::Start)?];
    let mut last = first;
    let mut ds = options.ds.min(options.ds_max);
    let mut rejected = 0;
    let mut turned_back = false;
    loop {
        if points.len() > options.max_points {
            return Err(other(format!(
                "more than max_points = {} branch points before omega_to (at omega = {})",
                options.max_points,
                last.omega()
            )));
        }
        let step = step(&mut tracer, &last, ds);
        let (mid, trial) = match step {
            Ok(pair) => pair,
            Err(e) => {
                rejected += 1;
                ds *= 0.5;
                if ds < options.ds_min {
                    return Err(other(format!(
                        "the step fell below ds_min = {} at omega = {}: {e}",
                        options.ds_min,
                        last.omega()
                    )));
                }
                continue;
            }
        };
        let base_arc = points.last().map_or(0.0, |p| p.arclength);
        let iterations = mid.iterations.max(trial.iterations);
        let new = accept(&mut tracer, &last, &mid, &trial, ds, base_arc)?;
        let ended = new.iter().any(|p| p.kind == PointKind::End);
        if ended {
            turned_back = new.last().is_some_and(|p| p.omega < 0.5 * (from + to));
        }
        points.extend(new);
        if ended {
            break;
        }
        last = trial;
        ds = if iterations <= 2 {
            (ds * 1.5).min(options.ds_max)
        } else if iterations >= 5 {
            ds * 0.7
        } else {
            ds
        };
    }
    Ok(Branch {
        points,
        flows: tracer.flows,
        rejected_steps: rejected,
        turned_back,
    })
}

/// The orbits at σ/2 and σ from `last`, or an error when the step control
/// rejects them (Newton failed, the tangent turned too far, the chord test).
fn step(tracer: &mut Tracer<'_>, last: &Eval, ds: f64) -> Result<(Eval, Eval), SolverError> {
    let trial = tracer.at(last, ds)?;
    let turn = trial.tangent.dot(&last.tangent).clamp(-1.0, 1.0).acos();
    if turn > tracer.options.max_turn && ds > tracer.options.ds_min {
        return Err(other(format!("the tangent turned by {turn} rad")));
    }
    let mid = tracer.at(last, 0.5 * ds)?;
    let deviation = chord_deviation(last, &mid, &trial);
    if deviation > tracer.options.chord_tol && ds > 2.0 * tracer.options.ds_min {
        return Err(other(format!("chord deviation {deviation:e}")));
    }
    Ok((mid, trial))
}

/// Distance in (ln omega, ln A) of the mid orbit from the chord of the ends.
fn chord_deviation(a: &Eval, mid: &Eval, b: &Eval) -> f64 {
    let point = |e: &Eval| (e.omega().ln(), e.amplitude().max(f64::MIN_POSITIVE).ln());
    distance_to_segment(point(mid), point(a), point(b))
}

/// Euclidean distance of p from the segment a-b.
pub fn distance_to_segment(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    ((p.0 - a.0 - t * dx).powi(2) + (p.1 - a.1 - t * dy).powi(2)).sqrt()
}

/// A test function of a branch point: zero where the point's kind occurs.
type TestFunction = dyn Fn(&Eval) -> Result<f64, SolverError>;

/// The accepted step's branch points: the orbits at σ/2 and σ and every
/// special point in between, in order; an end point (and nothing after
/// it) when the step leaves the range.
fn accept(
    tracer: &mut Tracer<'_>,
    last: &Eval,
    mid: &Eval,
    trial: &Eval,
    ds: f64,
    base_arc: f64,
) -> Result<Vec<BranchPoint>, SolverError> {
    let samples = [(0.0, last), (0.5 * ds, mid), (ds, trial)];
    let mut found: Vec<(f64, Eval, PointKind)> = vec![
        (0.5 * ds, mid.clone(), PointKind::Regular),
        (ds, trial.clone(), PointKind::Regular),
    ];
    let tests: [(PointKind, &TestFunction, f64); 3] = [
        (PointKind::Fold, &|e: &Eval| Ok(fold_test(e)), 1e-10),
        (
            PointKind::PeriodDoubling,
            &|e: &Eval| Ok(period_doubling_test(e)),
            1e-12,
        ),
        (PointKind::Torus, &stability_test, 1e-12),
    ];
    let mut changed: Vec<(PointKind, Vec<usize>)> = Vec::new();
    for (kind, f, _) in &tests {
        let values: Vec<(f64, f64, &Eval)> = samples
            .iter()
            .map(|(s, e)| Ok((*s, f(e)?, *e)))
            .collect::<Result<_, SolverError>>()?;
        changed.push((*kind, brackets(&values)));
    }
    for (index, (kind, f, ftol)) in tests.iter().enumerate() {
        let mut at = changed[index].1.clone();
        if *kind == PointKind::Torus && (!changed[0].1.is_empty() || !changed[1].1.is_empty()) {
            // a stability change explained by a fold or a period doubling of the step
            at.clear();
        }
        for i in at {
            let (sa, ea) = samples[i - 1];
            let (sb, eb) = samples[i];
            let (sigma, e) =
                tracer.locate(last, (sa, f(ea)?), (sb, f(eb)?), eb.clone(), *f, *ftol, ds)?;
            found.push((sigma, e, *kind));
        }
    }
    // leaving the range: the end point at omega_to (or back at omega_from)
    let (from, to) = (tracer.options.omega_from, tracer.options.omega_to);
    for target in [to, from] {
        let f = move |e: &Eval| Ok(e.omega() - target);
        let values: Vec<(f64, f64, &Eval)> = samples
            .iter()
            .map(|(s, e)| (*s, e.omega() - target, *e))
            .collect();
        if let Some(&i) = brackets(&values).first() {
            let (sa, ea) = samples[i - 1];
            let (sb, eb) = samples[i];
            let (sigma, e) = tracer.locate(
                last,
                (sa, ea.omega() - target),
                (sb, eb.omega() - target),
                eb.clone(),
                &f,
                1e-13 * target,
                ds,
            )?;
            found.retain(|(s, _, _)| *s < sigma);
            found.push((sigma, e, PointKind::End));
            break;
        }
    }
    found.sort_by(|a, b| a.0.total_cmp(&b.0));
    found
        .iter()
        .map(|(s, e, kind)| Tracer::point(e, base_arc + s, *kind))
        .collect()
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod explore;
