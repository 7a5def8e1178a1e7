//! The study's figure, `branch.csv` and study scalars: amplitude against
//! frequency, the continued branch stable solid and unstable dashed, the
//! folds marked, the sweeps' settled points on top with an arrow at each
//! jump.

use crate::harness::figure::{Axis, Figure, Series, Style};
use crate::harness::study::{CaseOutput, Cells, Scalar, StudySummary, StudyTable};
use crate::harness::table::Table;
use crate::integrators::event_driven::continuation::PointKind;

use super::branch::{ORBITS, kind_of, pieces};
use super::sweep::{SWEEP_DOWN, SWEEP_UP};

/// `branch.csv` from the `orbits` table: `frequency,amplitude,stable`
/// first (the fixed interface), then the multipliers and the rest.
pub fn branch_table(orbits: &Table, n: usize) -> StudyTable {
    let get = |c: &str| orbits.values(c).unwrap_or(&[]).to_vec();
    let mut columns = vec![
        ("frequency".to_string(), "forcing frequency omega [rad/s]".to_string(), Cells::Float(get("frequency"))),
        ("amplitude".to_string(), "the largest |x| of DOF 0 over the periodic orbit [m]".to_string(), Cells::Float(get("amplitude"))),
        (
            "stable".to_string(),
            "true when every Floquet multiplier is inside the unit circle (false on the unstable branch and at folds and other bifurcation points, where one is on it)".to_string(),
            Cells::Bool(get("stable").iter().map(|v| *v > 0.5).collect()),
        ),
    ];
    for i in 0..2 * n {
        let (re, im) = (
            get(&format!("multiplier{i}_re")),
            get(&format!("multiplier{i}_im")),
        );
        columns.push((
            format!("multiplier{i}_abs"),
            format!("modulus of Floquet multiplier {i} (eigenvalue of the monodromy matrix; largest modulus first) [-]"),
            Cells::Float(re.iter().zip(&im).map(|(r, i)| r.hypot(*i)).collect()),
        ));
        columns.push((
            format!("multiplier{i}_re"),
            "its real part [-]".to_string(),
            Cells::Float(re),
        ));
        columns.push((
            format!("multiplier{i}_im"),
            "its imaginary part [-]".to_string(),
            Cells::Float(im),
        ));
    }
    columns.push((
        "kind".to_string(),
        "`start` (omega_from), `regular`, `fold` (a multiplier through +1), `period-doubling` (a real multiplier through -1), `torus` (a complex pair through the unit circle), `end` (omega_to, or omega_from when the branch turns back)".to_string(),
        Cells::Text(get("kind").iter().map(|c| kind_of(*c).name().to_string()).collect()),
    ));
    columns.push((
        "arclength".to_string(),
        "pseudo-arclength parameter in scaled coordinates from the start [-]".to_string(),
        Cells::Float(get("arclength")),
    ));
    for i in 0..n {
        columns.push((
            format!("x{i}_max"),
            format!("largest x{i} over the orbit [m]"),
            Cells::Float(get(&format!("x{i}_max"))),
        ));
        columns.push((
            format!("x{i}_min"),
            format!("smallest x{i} over the orbit [m]"),
            Cells::Float(get(&format!("x{i}_min"))),
        ));
    }
    StudyTable {
        stem: "branch".into(),
        doc: "The branch of T-periodic orbits continued in the forcing frequency (pseudo-arclength continuation of shooting on the exact event-driven flow), one row per orbit in order of arclength; folds and other special points are rows of their own. Stability from the Floquet multipliers, the eigenvalues of the monodromy matrix (matrix exponentials between switches composed with the saltation matrices).".into(),
        columns,
    }
}

/// (x, y) runs of the branch: the pieces with `stable`, NaN between runs.
fn runs(orbits: &Table, stable: bool) -> (Vec<f64>, Vec<f64>) {
    let w = orbits.values("frequency").unwrap_or(&[]);
    let a = orbits.values("amplitude").unwrap_or(&[]);
    let (mut x, mut y) = (Vec::new(), Vec::new());
    let mut open = false;
    for (i, piece) in pieces(orbits).iter().enumerate() {
        if piece.stable == stable {
            if !open {
                if !x.is_empty() {
                    x.push(f64::NAN);
                    y.push(f64::NAN);
                }
                x.push(w[i]);
                y.push(a[i]);
                open = true;
            }
            x.push(w[i + 1]);
            y.push(a[i + 1]);
        } else {
            open = false;
        }
    }
    (x, y)
}

/// The special points of `kind`.
fn special(orbits: &Table, kind: PointKind) -> (Vec<f64>, Vec<f64>) {
    let w = orbits.values("frequency").unwrap_or(&[]);
    let a = orbits.values("amplitude").unwrap_or(&[]);
    let k = orbits.values("kind").unwrap_or(&[]);
    (0..k.len())
        .filter(|&i| kind_of(k[i]) == kind)
        .map(|i| (w[i], a[i]))
        .unzip()
}

/// Figure, branch.csv, study scalars and notes of the study.
pub fn summarize(case: &CaseOutput, n: usize) -> StudySummary {
    let mut summary = StudySummary::default();
    let mut series = Vec::new();
    if let Some(orbits) = case.table(ORBITS).map(|t| &t.table) {
        summary.tables.push(branch_table(orbits, n));
        let (x, y) = runs(orbits, true);
        series.push(Series::new("continuation: stable", &x, &y, Style::Line).grouped(0));
        let (x, y) = runs(orbits, false);
        if !x.is_empty() {
            series.push(Series::new("continuation: unstable", &x, &y, Style::Dashed).grouped(0));
        }
    }
    let mut jumps = Vec::new();
    for (label, group) in [(SWEEP_UP, 2), (SWEEP_DOWN, 3)] {
        let Some(out) = case.method(label).and_then(|m| m.output()) else {
            continue;
        };
        let w = out.series.values("frequency").unwrap_or(&[]);
        let a = out.series.values("amplitude").unwrap_or(&[]);
        series.push(
            Series::new(format!("{label} (Newmark, settled)"), w, a, Style::Markers).grouped(group),
        );
        if let (Some(j), Some(b), Some(f)) = (
            out.scalar("jump_omega"),
            out.scalar("jump_amplitude_before"),
            out.scalar("jump_amplitude_after"),
        ) {
            series.push(
                Series::new(
                    format!("{label}: jump at {j:.4} rad/s"),
                    &[j, j],
                    &[b, f],
                    Style::Arrow,
                )
                .grouped(group),
            );
            jumps.push(j);
        }
    }
    // the folds last, on top of the sweeps' markers
    if let Some(orbits) = case.table(ORBITS).map(|t| &t.table) {
        for (kind, label, group) in [
            (PointKind::Fold, "folds", 1),
            (PointKind::PeriodDoubling, "period doublings", 4),
            (PointKind::Torus, "torus bifurcations", 5),
        ] {
            let (x, y) = special(orbits, kind);
            if !x.is_empty() {
                series.push(Series::new(label, &x, &y, Style::Markers).grouped(group));
            }
        }
    }
    if let [up, down] = jumps[..] {
        summary.push(Scalar::new("sweep_hysteresis_width", up - down, "jump_omega of sweep-up minus that of sweep-down: the hysteresis band measured by the sweeps [rad/s]"));
    }
    for name in ["hysteresis_width", "fold_up_omega", "fold_down_omega"] {
        if let Some(v) = case.scalar(name) {
            summary.push(Scalar::new(
                name,
                v,
                "the continuation's (see summary.csv) [rad/s]",
            ));
        }
    }
    summary.figures.push(Figure {
        name: "frequency-response".into(),
        title: "Frequency response: continued branch and Newmark sweeps".into(),
        x: Axis::linear("forcing frequency omega [rad/s]"),
        y: Axis::linear("amplitude max |x0| [m]"),
        series,
        caption: "The T-periodic orbits continued in omega by pseudo-arclength on the exact event-driven flow, stable solid and unstable dashed, folds marked; on top the settled points of the Newmark sweeps up and down (each frequency started from the previous one's final state, the step halved near a jump), an arrow at each jump.".into(),
    });
    summary
}
