//! The continuation as the case's reference job: the branch of T-periodic
//! orbits from omega_from to omega_to by pseudo-arclength continuation on
//! the exact event-driven flow, its folds and other special points, and
//! the check of its monodromy matrices against central differences of the
//! flow map at a few orbits.
//!
//! The branch travels to the reference-job's consumers (the comparison
//! with the sweeps, the figure, `branch.csv`) as the case table `orbits`.

use crate::error::SolverError;
use crate::harness::clock::Stopwatch;
use crate::harness::study::{CaseTable, ReferenceOutput, Scalar, Timing};
use crate::harness::table::Table;
use crate::integrators::event_driven::EventDrivenOptions;
use crate::integrators::event_driven::continuation::{
    Branch, BranchPoint, PointKind, continue_orbits, multipliers,
};
use crate::integrators::event_driven::monodromy::{
    at_omega, finite_difference_jacobian, flow_jacobian,
};
use nalgebra::{Complex, DVector};

use super::spec::ContinuationConfig;

/// The timings tables' name of the continuation's run (the reference).
pub const TIMED: &str = "continuation";

/// Case table of the branch.
pub const ORBITS: &str = "orbits";

/// Kinds as numbers in the `orbits` table (`kind` column).
pub const KINDS: [PointKind; 6] = [
    PointKind::Start,
    PointKind::Regular,
    PointKind::Fold,
    PointKind::PeriodDoubling,
    PointKind::Torus,
    PointKind::End,
];

/// The code of `kind` in the `orbits` table.
pub fn kind_code(kind: PointKind) -> f64 {
    KINDS.iter().position(|k| *k == kind).unwrap_or(0) as f64
}

/// The kind of code `c`.
pub fn kind_of(c: f64) -> PointKind {
    KINDS
        .get(c.max(0.0) as usize)
        .copied()
        .unwrap_or(PointKind::Regular)
}

/// Pushes to `t` the columns `x<i>_max` and `x<i>_min` of the `n` DOFs:
/// each row's largest and smallest x_i `over` (the orbit, the measured
/// periods), as `extremes` gives them.
pub fn push_extremes<R>(
    t: &mut Table,
    rows: &[R],
    n: usize,
    over: &str,
    extremes: impl Fn(&R) -> (&Vec<f64>, &Vec<f64>),
) {
    for i in 0..n {
        t.push(
            format!("x{i}_max"),
            format!("largest x{i} over {over} [m]"),
            rows.iter().map(|r| extremes(r).0[i]).collect(),
        );
        t.push(
            format!("x{i}_min"),
            format!("smallest x{i} over {over} [m]"),
            rows.iter().map(|r| extremes(r).1[i]).collect(),
        );
    }
}

/// The branch as the `orbits` table.
pub fn orbits_table(branch: &Branch, n: usize) -> Table {
    let p = &branch.points;
    let col = |f: &dyn Fn(&BranchPoint) -> f64| p.iter().map(f).collect::<Vec<f64>>();
    let mut t = Table::new()
        .with("frequency", "forcing frequency omega [rad/s]", col(&|b| b.omega))
        .with("amplitude", "max |x0| over the periodic orbit [m]", col(&|b| b.amplitude))
        .with("stable", "1 when every Floquet multiplier is inside the unit circle (0 at folds and other bifurcation points) [-]", col(&|b| f64::from(u8::from(b.stable))))
        .with(
            "kind",
            "0 start, 1 regular, 2 fold, 3 period doubling, 4 torus, 5 end [-]",
            col(&|b| kind_code(b.kind)),
        )
        .with("arclength", "pseudo-arclength parameter in scaled coordinates from the start [-]", col(&|b| b.arclength))
        .with("tangent_omega", "omega component of the scaled unit tangent (0 at a fold) [-]", col(&|b| b.tangent_omega))
        .with("corrector_iterations", "Newton iterations of the point's corrector [-]", col(&|b| b.corrector_iterations as f64));
    for i in 0..2 * n {
        t.push(
            format!("multiplier{i}_re"),
            format!("real part of Floquet multiplier {i} (largest modulus first) [-]"),
            col(&|b| b.multipliers[i].re),
        );
        t.push(
            format!("multiplier{i}_im"),
            format!("imaginary part of Floquet multiplier {i} [-]"),
            col(&|b| b.multipliers[i].im),
        );
    }
    push_extremes(&mut t, p, n, "the orbit", |b| (&b.x_max, &b.x_min));
    for i in 0..n {
        t.push(
            format!("x{i}_0"),
            format!("x{i} at phase 0 (the orbit's initial state) [m]"),
            col(&|b| b.z[i]),
        );
    }
    for i in 0..n {
        t.push(
            format!("v{i}_0"),
            format!("v{i} at phase 0 [m/s]"),
            col(&|b| b.z[n + i]),
        );
    }
    t
}

/// The folds at which the upward and the downward sweeps should jump: the
/// first fold along the branch (omega is a local maximum there: the
/// branch the upward sweep follows from omega_from ends) and the last one
/// (a local minimum: the end of the branch the downward sweep follows from
/// omega_to). Both assume one orbit at omega_from and at omega_to.
pub fn sweep_folds(branch: &Branch) -> (Option<&BranchPoint>, Option<&BranchPoint>) {
    let folds: Vec<&BranchPoint> = branch.special(PointKind::Fold).collect();
    let up = folds.first().copied();
    let down = if folds.len() >= 2 && folds.len().is_multiple_of(2) {
        folds.last().copied()
    } else {
        None
    };
    (up, down)
}

/// Indices of the orbits where the monodromy is checked against central
/// differences: inside the hysteresis band (at the mean of the two sweep
/// folds) the regular point nearest that frequency on each piece of the
/// branch that crosses it (lower stable, unstable, upper stable); without
/// two folds, the first, middle and last regular points.
pub fn fd_points(branch: &Branch) -> Vec<usize> {
    let p = &branch.points;
    let regular = |i: usize| p[i].kind == PointKind::Regular;
    if let (Some(up), Some(down)) = sweep_folds(branch) {
        let target = 0.5 * (up.omega + down.omega);
        let mut out = Vec::new();
        for i in 1..p.len() {
            let (a, b) = (p[i - 1].omega - target, p[i].omega - target);
            if a * b <= 0.0 {
                let pick = if a.abs() <= b.abs() { i - 1 } else { i };
                let pick = if regular(pick) {
                    pick
                } else if pick == i {
                    i - 1
                } else {
                    i
                };
                if !out.contains(&pick) {
                    out.push(pick);
                }
            }
        }
        return out;
    }
    let reg: Vec<usize> = (0..p.len()).filter(|&i| regular(i)).collect();
    let mut out: Vec<usize> = [0, reg.len() / 2, reg.len().saturating_sub(1)]
        .iter()
        .filter_map(|&k| reg.get(k).copied())
        .collect();
    out.dedup();
    out
}

/// Largest distance from each multiplier of `a` to the nearest of `b`.
fn multiplier_distance(a: &[Complex<f64>], b: &[Complex<f64>]) -> f64 {
    a.iter()
        .map(|x| {
            b.iter()
                .map(|y| (x - y).norm())
                .fold(f64::INFINITY, f64::min)
        })
        .fold(0.0, f64::max)
}

/// The finite-difference check at the orbits `at`: largest relative
/// monodromy error, dP/domega error, multiplier distance, saltation
/// deviation.
fn fd_check(
    cfg: &ContinuationConfig,
    branch: &Branch,
    at: &[usize],
    ed: &EventDrivenOptions,
) -> Result<[f64; 4], SolverError> {
    let mut worst = [0.0f64; 4];
    for &i in at {
        let p = &branch.points[i];
        let system = at_omega(&cfg.case.system, p.omega);
        let z = DVector::from_column_slice(&p.z);
        let (exact, _) = flow_jacobian(&system, &z, ed, false)?;
        let (fd, fd_omega) = finite_difference_jacobian(&system, &z, ed, cfg.fd_step)?;
        let m = (&exact.monodromy - &fd).amax() / exact.monodromy.amax().max(1.0);
        let w = (&exact.d_omega - &fd_omega).amax() / exact.d_omega.amax().max(1.0);
        let fd_multipliers = multipliers(&fd)?;
        let d = multiplier_distance(&p.multipliers, &fd_multipliers)
            .max(multiplier_distance(&fd_multipliers, &p.multipliers));
        for (k, v) in [m, w, d, exact.saltation_deviation].into_iter().enumerate() {
            worst[k] = worst[k].max(v);
        }
    }
    Ok(worst)
}

/// Runs the continuation and its checks.
pub fn run(cfg: &ContinuationConfig) -> Result<ReferenceOutput, SolverError> {
    let ed = EventDrivenOptions::default();
    let watch = Stopwatch::start();
    let branch = continue_orbits(&cfg.case.system, &cfg.continuation, &ed)?;
    let (wall_s, cpu_s) = watch.elapsed();
    let at = fd_points(&branch);
    let [fd_m, fd_w, fd_l, salt] = fd_check(cfg, &branch, &at, &ed)?;
    let n = cfg.case.system.dofs();
    let count = |k: PointKind| branch.special(k).count() as f64;
    let mut scalars = vec![
        Scalar::new(
            "branch_points",
            branch.points.len() as f64,
            "orbits on the continued branch, special points included [-]",
        ),
        Scalar::new(
            "fold_count",
            count(PointKind::Fold),
            "folds (a Floquet multiplier through +1) between omega_from and omega_to [-]",
        ),
        Scalar::new(
            "period_doubling_count",
            count(PointKind::PeriodDoubling),
            "period doublings (a multiplier through -1) on the branch [-]",
        ),
        Scalar::new(
            "torus_count",
            count(PointKind::Torus),
            "torus bifurcations (a complex pair through the unit circle) on the branch [-]",
        ),
        Scalar::new(
            "turned_back",
            f64::from(u8::from(branch.turned_back)),
            "1 when the branch left the range through omega_from instead of reaching omega_to [-]",
        ),
        Scalar::new(
            "fold_multiplier_error",
            branch
                .special(PointKind::Fold)
                .map(|p| {
                    p.multipliers
                        .iter()
                        .map(|l| (l - 1.0).norm())
                        .fold(f64::INFINITY, f64::min)
                })
                .fold(0.0, f64::max),
            "largest over the folds (located where the tangent's omega component vanishes) of the distance of the nearest Floquet multiplier from +1 [-]",
        ),
        Scalar::new(
            "fd_points",
            at.len() as f64,
            "orbits where the monodromy was checked against central differences of the flow map [-]",
        ),
        Scalar::new(
            "fd_monodromy_error",
            fd_m,
            "largest |M - M_fd| entry / max(1, max |M|) over those orbits (M: exponentials and saltation matrices; M_fd: central differences of the period map) [-]",
        ),
        Scalar::new(
            "fd_d_omega_error",
            fd_w,
            "the same for dP/domega (block exponential against central differences in omega) [-]",
        ),
        Scalar::new(
            "fd_multiplier_error",
            fd_l,
            "largest distance of a Floquet multiplier from the nearest eigenvalue of M_fd (both ways) over those orbits [-]",
        ),
        Scalar::new(
            "saltation_deviation",
            salt,
            "largest |S - I| entry of the saltation matrices at the switches of those orbits (I for a continuous gap force) [-]",
        ),
    ];
    scalars.extend(fold_scalars(&branch));
    Ok(ReferenceOutput {
        tables: vec![CaseTable {
            what: ORBITS.into(),
            doc: "the continued branch of T-periodic orbits (pseudo-arclength continuation of event-driven shooting), one row per orbit, special points included".into(),
            table: orbits_table(&branch, n),
        }],
        scalars,
        timings: vec![Timing {
            method: TIMED.into(),
            wall_s,
            cpu_s,
            cpu_s_spread: 0.0,
            runs: 1,
            counters: vec![
                ("flows".into(), branch.flows as f64),
                ("branch_points".into(), branch.points.len() as f64),
                ("rejected_steps".into(), branch.rejected_steps as f64),
            ],
            stats: vec![],
        }],
    })
}

/// The folds where a frequency sweep should jump (the first and last along
/// the branch: frequency and amplitude) and the hysteresis band between.
fn fold_scalars(branch: &Branch) -> Vec<Scalar> {
    let mut scalars = Vec::new();
    let (up, down) = sweep_folds(branch);
    for (name, fold, what) in [
        (
            "fold_up",
            up,
            "first fold along the branch (where the upward sweep should jump)",
        ),
        (
            "fold_down",
            down,
            "last fold along the branch (where the downward sweep should jump)",
        ),
    ] {
        scalars.push(Scalar::new(
            format!("{name}_omega"),
            fold.map_or(f64::NAN, |p| p.omega),
            format!("frequency of the {what} [rad/s]"),
        ));
        scalars.push(Scalar::new(
            format!("{name}_amplitude"),
            fold.map_or(f64::NAN, |p| p.amplitude),
            format!("amplitude max |x0| at the {what} [m]"),
        ));
    }
    scalars.push(Scalar::new(
        "hysteresis_width",
        match (up, down) {
            (Some(u), Some(d)) => u.omega - d.omega,
            _ => f64::NAN,
        },
        "fold_up_omega - fold_down_omega: the band where two stable orbits coexist [rad/s]",
    ));
    scalars
}

/// One piece of the branch read back from the `orbits` table: (ln omega,
/// ln A) at both ends and whether it is stable.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Piece {
    /// Start (ln omega, ln A).
    pub a: (f64, f64),
    /// End.
    pub b: (f64, f64),
    /// A stable piece: both ends stable, or one stable and the other a
    /// bifurcation point where the stable branch ends.
    pub stable: bool,
    /// The first piece (at omega_from) or the last (at omega_to): the
    /// branch goes on beyond the range, so the piece extends as a ray past
    /// its outer end.
    pub open_start: bool,
    /// See `open_start`.
    pub open_end: bool,
}

/// The branch's pieces from its `orbits` table.
pub fn pieces(orbits: &Table) -> Vec<Piece> {
    let get = |c: &str| orbits.values(c).unwrap_or(&[]);
    let (w, a, s, k) = (
        get("frequency"),
        get("amplitude"),
        get("stable"),
        get("kind"),
    );
    let special = |i: usize| {
        matches!(
            kind_of(k[i]),
            PointKind::Fold | PointKind::PeriodDoubling | PointKind::Torus
        )
    };
    let len = w.len().min(a.len()).min(s.len()).min(k.len());
    (1..len)
        .map(|i| {
            let (si, sj) = (s[i - 1] > 0.5, s[i] > 0.5);
            Piece {
                a: (w[i - 1].ln(), a[i - 1].max(f64::MIN_POSITIVE).ln()),
                b: (w[i].ln(), a[i].max(f64::MIN_POSITIVE).ln()),
                stable: (si || special(i - 1)) && (sj || special(i)) && (si || sj),
                open_start: i == 1,
                open_end: i == len - 1,
            }
        })
        .collect()
}
