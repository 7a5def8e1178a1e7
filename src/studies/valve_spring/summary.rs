//! Study-level results of a valve-spring study: the seat force against the
//! cam angle for every method with the fine reference, the number of
//! closed coil pairs, the quasi-static force-deflection curve.

use crate::harness::figure::{Axis, Figure, Series, Style};
use crate::harness::rows::SpeedupRow;
use crate::harness::study::{CaseOutput, StudySummary};
use crate::harness::sweep::equal_accuracy_speedups;
use crate::integrators::bdf_contact::ContactModel;
use crate::studies::shared::figures::{
    CamCurves, against_cam_angle, case_text, count_word, method_labels,
};
use crate::studies::shared::seat_force;
use crate::studies::shared::slope::method_slope;
use crate::studies::valve_spring::spec::CaseConfig;

pub(super) fn summarize(configs: &[CaseConfig], cases: &[CaseOutput]) -> StudySummary {
    let mut summary = StudySummary::default();
    penalty_slopes(&mut summary, configs, cases);
    peers(&mut summary, configs, cases);
    let Some(o) = cases.last() else {
        return summary;
    };
    for (column, name, title, unit) in [
        (
            "seat_force",
            "seat-force",
            "Seat force against cam angle",
            "seat force [N]",
        ),
        (
            "closed_pairs",
            "closed-pairs",
            "Closed coil pairs against cam angle",
            "closed contact pairs [-]",
        ),
    ] {
        let CamCurves {
            series,
            methods,
            reference,
        } = against_cam_angle(o, column, column == "seat_force");
        if series.is_empty() {
            continue;
        }
        summary.figures.push(Figure {
            name: name.into(),
            title: format!("{title} ({})", case_text(o)),
            x: Axis::linear("cam angle [deg]"),
            y: Axis::linear(unit),
            series,
            caption: format!(
                "{title} of {} methods ({}) in case {}{reference}; the cam lifts the valve over 0-120 deg (cycloidal rise and return), then dwells.",
                count_word(methods.len()),
                methods.join(", "),
                case_text(o)
            ),
        });
    }
    if let Some((label, clash)) = o.methods.iter().find_map(|m| {
        let out = m.output()?;
        let t = out.tables.iter().find(|t| t.what == "clash")?;
        m.label()
            .starts_with("ncp")
            .then_some((m.label().to_string(), t))
    }) && let (Some(a), Some(p)) = (clash.table.values("cam_angle"), clash.table.values("pair"))
        && !a.is_empty()
    {
        summary.figures.push(Figure {
            name: "coil-clash".into(),
            title: format!("Coil-clash map, {label} ({})", case_text(o)),
            x: Axis::linear("cam angle [deg]"),
            y: Axis::linear("contact pair (0 = lowest along the wire) [-]"),
            series: vec![Series::new("pair closed", a, p, Style::Markers)],
            caption: "Which coil pairs touch when: a marker per closed pair at each output time. The progressive pitch closes the lowest coils first.".into(),
        });
    }
    calibration(&mut summary, configs, cases);
    if let Some(s) = o.table("static")
        && let (Some(d), Some(f)) = (s.table.values("delta"), s.table.values("seat_force"))
    {
        let mm: Vec<f64> = d.iter().map(|x| x * 1e3).collect();
        summary.figures.push(Figure {
            name: "static-curve".into(),
            title: "Quasi-static force-deflection curve".into(),
            x: Axis::linear("deflection from the free length [mm]"),
            y: Axis::linear("seat force [N]"),
            series: vec![Series::new("Lemke (contact LCP)", &mm, f, Style::Line)],
            caption: "The progressive spring's static curve: the rate rises as the coils close one after another (smallest gap first).".into(),
        });
    }
    summary
}

/// Per penalty method whose stiffness varies over the cases: the
/// least-squares slope of log(model_gap_seat_force) against log(k_p): the
/// converged penalty answer's distance from the converged NCP one
/// (negative: the penalty model approaches the NCP model as k_p grows).
fn penalty_slopes(summary: &mut StudySummary, configs: &[CaseConfig], cases: &[CaseOutput]) {
    let mut lines: Vec<(String, Vec<f64>, Vec<f64>)> = Vec::new();
    for (cfg, o) in configs.iter().zip(cases) {
        for (m, run) in cfg.methods.iter().zip(&o.methods) {
            let ContactModel::Penalty { stiffness, .. } = m.contact else {
                continue;
            };
            let Some(e) = run
                .output()
                .and_then(|out| out.scalar("model_gap_seat_force"))
            else {
                continue;
            };
            match lines.iter_mut().find(|l| l.0 == m.label) {
                Some(l) => {
                    l.1.push(stiffness);
                    l.2.push(e);
                }
                None => lines.push((m.label.clone(), vec![stiffness], vec![e])),
            }
        }
    }
    for (label, k, e) in lines {
        let distinct = k.iter().any(|x| (x - k[0]).abs() > 1e-12 * k[0]);
        if k.len() < 3 || !distinct {
            continue;
        }
        let doc = format!(
            "least-squares slope of log(model_gap_seat_force) against log(penalty stiffness), {label}: negative when the converged penalty answer approaches the converged NCP one"
        );
        let slope = method_slope("penalty_slope", (&k, &e), doc, (&label, String::new()));
        summary.scalars.extend(slope);
    }
}

/// The peer tools' runs of the penalty model: each run's seat-force error
/// (window means against the case's fine reference) and CPU time, and each
/// method's speed-up over it at that error (interpolated along the
/// method's own error-CPU front).
fn peers(summary: &mut StudySummary, configs: &[CaseConfig], cases: &[CaseOutput]) {
    let Some(cfg) = configs.first() else {
        return;
    };
    for p in &cfg.peers {
        peer(summary, p, configs, cases);
    }
}

/// One peer's runs (see [`peers`]).
fn peer(
    summary: &mut StudySummary,
    p: &crate::studies::valve_spring::spec::Peer,
    configs: &[CaseConfig],
    cases: &[CaseOutput],
) {
    let (name, curves, cost) = (&p.label, &p.curves, &p.cost);
    let Some((cfg, o)) = configs.iter().zip(cases).next() else {
        return;
    };
    let Some(r) = o.table("reference") else {
        return;
    };
    let Some(rt) = r.table.values("t") else {
        return;
    };
    let Some(pt) = curves.values("t") else {
        return;
    };
    let w = (cfg.error_window / cfg.output_interval).round() as usize;
    let labels = method_labels(cases);
    for (method, kp, rtol, cpu, steps) in cost.iter() {
        // The tightest of several runs of one method and k_p is the
        // `_tight` column.
        let tighter = cost
            .iter()
            .any(|o| &o.0 == method && o.1 == *kp && o.2 > *rtol);
        let column = format!(
            "seat_force_{}_{}{}",
            method.to_lowercase(),
            format_kp(*kp),
            if tighter { "_tight" } else { "" }
        );
        let Some(y) = curves.values(&column) else {
            continue;
        };
        // The peer's error against the converged reference of its own
        // model (a penalty method of the case with the same k_p), like the
        // methods' own discretisation errors; without one, no like-for-like
        // comparison.
        let own = cfg.methods.iter().find(|m| {
            matches!(m.contact, ContactModel::Penalty { stiffness, .. } if (stiffness - kp).abs() <= 1e-9 * kp)
        });
        let Some(own_ref) = own
            .and_then(|m| o.table(&seat_force::penalty_reference_name(&m.label)))
            .and_then(|t| t.table.values("seat_force"))
        else {
            summary.notes.push(format!(
                "{name} {method} k_p = {kp:e}: no penalty method of this k_p in the case, so no converged reference of the peer's model to measure it against; left out."
            ));
            continue;
        };
        // The peer's samples at the reference's times.
        let at = seat_force::resample(pt, y, rt);
        let error = seat_force::window_error(&at, own_ref, w);
        let peer_label = format!("{name} {method} k_p = {kp:e} rtol = {rtol:e}");
        summary.notes.push(format!(
            "{peer_label}: seat-force discretisation error {error:.3} N (window means, against our converged run of the same penalty model) in {cpu:.3} s CPU, {steps} steps (its run on this machine, reference-data/valve-spring/SOURCE.md)."
        ));
        for label in &labels {
            let pts: Vec<(f64, f64)> = cases
                .iter()
                .filter_map(|c| {
                    let m = c.method(label)?;
                    Some((
                        m.output()?.scalar("max_error_seat_force")?,
                        m.timing()?.cpu_s,
                    ))
                })
                .collect();
            let at = equal_accuracy_speedups(&[(error, *cpu)], &pts);
            for (e, s) in at {
                summary.speedups.push(SpeedupRow {
                    method: label.clone(),
                    baseline: peer_label.clone(),
                    error: e,
                    speedup: s,
                    group: String::new(),
                });
                if label.starts_with("ncp") {
                    summary.notes.push(format!(
                        "{label} is {s:.0}x faster than {peer_label} at its seat-force error {e:.3} N."
                    ));
                }
            }
        }
    }
}

/// k_p as the peer's column names write it (1e7).
fn format_kp(kp: f64) -> String {
    let e = kp.log10().round() as i32;
    format!("1e{e}")
}

/// The paper's second claim: the NCP needs no calibration. Two NCP runs of
/// a case that differ only in the complementarity constant c give the same
/// answer (c scales the Newton system, not the solution); the penalty
/// answer and cost depend on k_p (its slope and penetration are in the
/// other scalars).
fn calibration(summary: &mut StudySummary, configs: &[CaseConfig], cases: &[CaseOutput]) {
    let mut found: Option<(String, String, f64, f64)> = None;
    for (cfg, o) in configs.iter().zip(cases) {
        let ncp: Vec<(f64, &str, &[f64])> = cfg
            .methods
            .iter()
            .zip(&o.methods)
            .filter_map(|(m, r)| match (m.contact, m.stepping) {
                (
                    ContactModel::Ncp { .. },
                    crate::integrators::bdf_contact::Stepping::Fixed { dt, order: 2 },
                ) => {
                    let out = r.output()?;
                    Some((dt, r.label(), out.series.values("seat_force")?))
                }
                _ => None,
            })
            .collect();
        // The first two NCP-BDF2 runs of the case at the same step.
        let pair = ncp
            .iter()
            .enumerate()
            .find_map(|(i, a)| ncp[i + 1..].iter().find(|b| b.0 == a.0).map(|b| (a, b)));
        let Some((a, b)) = pair else { continue };
        let diff =
            a.2.iter()
                .zip(b.2)
                .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()));
        let peak = a.2.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        found = Some(match found.take() {
            None => (a.1.to_string(), b.1.to_string(), diff, peak),
            Some(f) => (f.0, f.1, f.2.max(diff), f.3.max(peak)),
        });
    }
    if let Some((a, b, diff, peak)) = found {
        summary.notes.push(format!(
            "No calibration (the paper's second claim): {a} and {b} differ only in the NCP constant c; over every case their seat forces differ by at most {diff:.2e} N ({:.1e} of the peak {peak:.0} N): the NCP answer does not depend on its one constant, while the penalty answer moves with k_p (penalty_slope; penetration and steps per k_p in summary.csv and timings.csv).",
            diff / peak.max(1e-300)
        ));
    }
}
