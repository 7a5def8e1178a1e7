//! Study-level results of a slider-crank study: the kinematics against
//! the crank angle (with the exact kinematics), the journal's orbit, the
//! contact force and the driving torque; a table of peaks per case; the
//! slope of the adaptive method's error against its tolerance; the rate at
//! which the clearance joint approaches the ideal one; the cost of the
//! two joint formulations at equal accuracy; a peer tool at equal accuracy.

use crate::harness::figure::{Axis, Figure, Series, Style};
use crate::harness::rows::{SpeedupRange, SpeedupRow};
use crate::harness::study::{CaseOutput, MethodOutput, Scalar, StudyScalar, StudySummary};
use crate::harness::sweep::{
    Converged, converged_range, converged_speedups, equal_accuracy_speedups, unresolved,
};
use crate::harness::timing::median;
use crate::models::slider_crank::Drive;
use crate::studies::shared::figures::method_labels;
use crate::studies::shared::slope::method_slope;
use crate::studies::slider_crank::spec::{CaseConfig, Integrator, Joint, Reference};

pub(super) fn summarize(
    configs: &[CaseConfig],
    sweep_keys: &[String],
    cases: &[CaseOutput],
) -> StudySummary {
    let mut summary = StudySummary::default();
    let all: Vec<(&CaseConfig, &CaseOutput)> = configs.iter().zip(cases).collect();
    let swept = |key: &str| sweep_keys.iter().any(|k| k == key);
    let cost_swept = swept("integrator.dt") || swept("integrator.tolerance");
    let unreferenced: Vec<&str> = all
        .iter()
        .filter(|(c, _)| {
            c.reference == Reference::Exact && !matches!(c.drive, Drive::ConstantSpeed { .. })
        })
        .map(|(_, o)| o.name.as_str())
        .collect();
    if cost_swept && !unreferenced.is_empty() {
        summary.notes.push(format!(
            "No work-precision analysis (work-precision.csv, speedup.csv, orders, tolerance slopes) for the free-crank case(s) {}: a free crank has no closed-form kinematics to measure errors against. Set [study.reference] method = \"fine\" to measure them against the same case at a fine tolerance.",
            unreferenced.join(", ")
        ));
    }
    tolerance_slopes(&mut summary, &all, sweep_keys);
    let clearances: std::collections::BTreeSet<u64> = cases
        .iter()
        .filter_map(|c| c.scalar("clearance"))
        .map(f64::to_bits)
        .collect();
    if swept("joint.clearance") && clearances.len() >= 3 {
        clearance_orders(&mut summary, &all, sweep_keys);
    }
    if swept("joint.model") {
        joint_models(&mut summary, &all);
    }
    peer(&mut summary, &all);
    let imperfect = all
        .iter()
        .any(|(c, _)| matches!(c.joint, Joint::Clearance(_)));
    if imperfect && (swept("joint.friction") || swept("drive.omega") || swept("joint.clearance")) {
        peaks(&mut summary, &all);
    }
    if imperfect && swept("joint.friction") {
        friction_effects(&mut summary, &all);
    }
    super::figures::curves(&mut summary, &all, sweep_keys);
    summary
}

/// The slider-velocity error of method `label` in a case, unless the run
/// is unresolved by the sweep analysis' rule (harness::sweep::unresolved:
/// no correct digit, or beyond the study's factor, 100 unless its spec
/// sets `unresolved_per_tolerance`, times its tolerance): such a run enters no
/// comparison at equal accuracy.
fn resolved_error(cfg: &CaseConfig, o: &CaseOutput, label: &str) -> Option<f64> {
    let m = o.method(label)?;
    let out = m.output()?;
    let e = out.scalar("max_error_v")?;
    let plan = cfg.methods.iter().find(|p| p.label == label)?;
    let tolerance = (plan.integrator == Integrator::Dopri5)
        .then_some((cfg.span.tolerance, cfg.unresolved_per_tolerance));
    unresolved(e, out.scalar("max_error_v_scale"), tolerance)
        .is_none()
        .then_some(e)
}

/// The nominal order of a method over its cost value (see
/// `Integrator::nominal_order`).
fn nominal_of(all: &[(&CaseConfig, &CaseOutput)], label: &str) -> Option<f64> {
    all.iter()
        .flat_map(|(c, _)| &c.methods)
        .find(|p| p.label == label)?
        .integrator
        .nominal_order()
}

/// (cost value, resolved error, CPU time) of a method's run: the cost value
/// is dt, or the tolerance of `dopri5`.
fn method_point(cfg: &CaseConfig, o: &CaseOutput, label: &str) -> Option<(f64, f64, f64)> {
    let m = o.method(label)?;
    let plan = cfg.methods.iter().find(|p| p.label == label)?;
    let value = if plan.integrator == Integrator::Dopri5 {
        cfg.span.tolerance
    } else {
        cfg.span.dt
    };
    Some((value, resolved_error(cfg, o, label)?, m.timing()?.cpu_s))
}

/// The first successful method output of a case.
fn first(o: &CaseOutput) -> Option<(&str, &MethodOutput)> {
    o.methods
        .iter()
        .find_map(|m| Some((m.label(), m.output()?)))
}

/// The group of a case: its coordinates but those in `except`.
fn group(o: &CaseOutput, except: &[&str]) -> String {
    o.coords
        .iter()
        .filter(|c| !except.contains(&c.key.as_str()))
        .map(|c| format!("{}={}", c.label, c.value_text()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Per adaptive method and group: the least-squares slope of log(velocity
/// error) against log(tolerance).
fn tolerance_slopes(
    summary: &mut StudySummary,
    all: &[(&CaseConfig, &CaseOutput)],
    keys: &[String],
) {
    if !keys.iter().any(|k| k == "integrator.tolerance") {
        return;
    }
    let mut lines: Vec<(String, String, Vec<f64>, Vec<f64>)> = Vec::new();
    for (cfg, o) in all {
        let g = group(o, &["integrator.tolerance", "integrator.dt"]);
        for (m, plan) in o.methods.iter().zip(&cfg.methods) {
            if plan.integrator != Integrator::Dopri5 {
                continue;
            }
            let Some(e) = resolved_error(cfg, o, m.label()) else {
                continue;
            };
            match lines.iter_mut().find(|l| l.0 == m.label() && l.1 == g) {
                Some(l) => {
                    l.2.push(cfg.span.tolerance);
                    l.3.push(e);
                }
                None => lines.push((
                    m.label().to_string(),
                    g.clone(),
                    vec![cfg.span.tolerance],
                    vec![e],
                )),
            }
        }
    }
    for (label, g, tol, err) in lines {
        let doc = format!(
            "least-squares slope of log(max_error_v) against log(tolerance), {label}: 1 when the error tracks the tolerance"
        );
        let slope = method_slope("tolerance_slope", (&tol, &err), doc, (&label, g));
        summary.scalars.extend(slope);
    }
}

/// Per method and group: the slope of log(velocity error against the exact
/// kinematics) against log(clearance).
fn clearance_orders(
    summary: &mut StudySummary,
    all: &[(&CaseConfig, &CaseOutput)],
    keys: &[String],
) {
    let mut lines: Vec<(String, String, Vec<f64>, Vec<f64>)> = Vec::new();
    let paired: Vec<&str> = keys
        .iter()
        .filter(|k| k.starts_with("joint."))
        .map(String::as_str)
        .collect();
    for (_, o) in all {
        let Some(c) = o.scalar("clearance") else {
            continue;
        };
        let g = group(o, &paired);
        for m in &o.methods {
            let Some(e) = m.output().and_then(|out| out.scalar("max_error_v")) else {
                continue;
            };
            match lines.iter_mut().find(|l| l.0 == m.label() && l.1 == g) {
                Some(l) => {
                    l.2.push(c);
                    l.3.push(e);
                }
                None => lines.push((m.label().to_string(), g.clone(), vec![c], vec![e])),
            }
        }
    }
    let mut series = Vec::new();
    for (label, g, c, e) in lines {
        let doc = format!(
            "least-squares slope of log(max_error_v) against log(clearance), {label}: the rate at which the contact joint approaches the ideal one"
        );
        if let Some(s) = method_slope("clearance_order", (&c, &e), doc, (&label, g)) {
            let order = s.scalar.value;
            summary.scalars.push(s);
            let mut pts: Vec<(f64, f64)> = c.into_iter().zip(e).collect();
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            let (c, e): (Vec<f64>, Vec<f64>) = pts.into_iter().unzip();
            series.push(Series::new(
                format!("{label} (slope {order:.2})"),
                &c,
                &e,
                Style::LineMarkers,
            ));
        }
    }
    summary.figures.push(Figure {
        name: "clearance-convergence".into(),
        title: "The clearance joint approaches the ideal joint".into(),
        x: Axis::log("radial clearance c = R - r [m]"),
        y: Axis::log("max |slider velocity - exact ideal kinematics| [m/s]"),
        series,
        caption: "Slider-velocity error of the clearance-joint model against the exact kinematics of the ideal mechanism, as the clearance shrinks (with the point law the contact stiffness grows, Hertz K ~ (R r / (R - r))^1/2; the line-contact law's depends on the clearance only through a logarithm); the least-squares slope is in the legend.".into(),
    });
}

/// The measured study value of [`joint_models`]: the contact joint's CPU
/// time over the kinematic joint's at equal accuracy (median).
pub(super) const JOINT_COST_RATIO: &str = "joint_cost_ratio";

/// The kinematic and the contact joint at equal accuracy, per method: the
/// CPU time of the contact model over the kinematic one.
fn joint_models(summary: &mut StudySummary, all: &[(&CaseConfig, &CaseOutput)]) {
    for label in method_labels(all.iter().map(|a| a.1)) {
        // (cost value, error, cpu) of the resolved runs of one joint model.
        let points = |ideal: bool| -> Vec<(f64, f64, f64)> {
            all.iter()
                .filter(|(c, _)| matches!(c.joint, Joint::Ideal) == ideal)
                .filter_map(|(c, o)| method_point(c, o, &label))
                .collect()
        };
        let curve =
            |ideal: bool| -> Vec<(f64, f64)> { points(ideal).iter().map(|p| (p.1, p.2)).collect() };
        let range = |ideal: bool| {
            let p: Vec<(f64, f64)> = points(ideal).iter().map(|p| (p.0, p.1)).collect();
            converged_range(&p, Some(true), nominal_of(all, &label))
        };
        let shares = |ideal: bool| -> Vec<f64> {
            all.iter()
                .filter(|(c, _)| matches!(c.joint, Joint::Ideal) == ideal)
                .filter_map(|(_, o)| o.method(&label)?.timing()?.stat("constraint_share"))
                .collect()
        };
        let (si, sc) = (median(&shares(true)), median(&shares(false)));
        // Only over the error levels where both are converged
        // (harness::sweep::converged_range).
        let (contact_range, ideal_range) = (range(false), range(true));
        let describe = |r: &Result<Converged, String>| match r {
            Ok(c) => format!("converged over max_error_v {}", c.describe()),
            Err(why) => format!("no converged range: {why}"),
        };
        let detail = format!(
            "kinematic joint: {}; contact joint: {}",
            describe(&ideal_range),
            describe(&contact_range)
        );
        let compared = match (&contact_range, &ideal_range) {
            (Ok(c), Ok(i)) => converged_speedups(&curve(false), c, &curve(true), i),
            _ => Err("no common converged range".to_string()),
        };
        let ((lo, hi), ratio) = match compared {
            Ok(x) => x,
            Err(why) => {
                summary.notes.push(format!(
                    "{label}: no cost ratio of the kinematic and the contact joint at equal velocity error: {why} ({detail}); C_q and Q_d take {:.0} % (kinematic) and {:.0} % (contact) of the equations' time.",
                    100.0 * si,
                    100.0 * sc
                ));
                continue;
            }
        };
        let r: Vec<f64> = ratio.iter().map(|p| p.1).collect();
        summary.measured.push(StudyScalar {
            scalar: Scalar::new(
                JOINT_COST_RATIO,
                median(&r),
                "CPU time of the contact joint over the kinematic joint at equal slider-velocity error (median over the common converged range; measured)",
            ),
            method: Some(label.clone()),
            group: String::new(),
        });
        summary.notes.push(format!(
            "{label}: at equal slider-velocity error ({} error levels from {:.3e} to {:.3e} m/s, within the common converged range {lo:.3e} to {hi:.3e} m/s: {detail}) the contact joint costs {:.3}x the CPU time of the kinematic joint (median; range {:.3}x to {:.3}x); C_q and Q_d take {:.0} % (kinematic) and {:.0} % (contact) of the equations' time (median over the cases).",
            r.len(),
            ratio[0].0,
            ratio[ratio.len() - 1].0,
            median(&r),
            r.iter().copied().fold(f64::INFINITY, f64::min),
            r.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            100.0 * si,
            100.0 * sc
        ));
    }
}

/// Each method against a peer tool's work-precision curve (cases with the
/// ideal joint and a peer file): CPU time of the peer over the method's at
/// equal slider-velocity error, and the curves in one figure.
fn peer(summary: &mut StudySummary, all: &[(&CaseConfig, &CaseOutput)]) {
    let Some((name, table)) = all.iter().find_map(|(c, _)| c.peer.clone()) else {
        return;
    };
    let (Some(cpu), Some(err)) = (table.values("cpu_s"), table.values("max_error_v")) else {
        return;
    };
    let peer_curve: Vec<(f64, f64)> = err.iter().copied().zip(cpu.iter().copied()).collect();
    // The peer's converged range over its step `h` (when the file has it),
    // with its order measured over its finest levels.
    let peer_range: Result<Converged, String> = match table.values("h") {
        Some(h) => {
            let pts: Vec<(f64, f64)> = h.iter().copied().zip(err.iter().copied()).collect();
            converged_range(&pts, Some(true), None)
        }
        None => Err("the peer's file has no step column `h`".into()),
    };
    let describe = |r: &Result<Converged, String>| match r {
        Ok(c) => format!("converged over max_error_v {}", c.describe()),
        Err(why) => format!("no converged range: {why}"),
    };
    let mut series = vec![Series::new(
        format!("{name} (peer, same machine)"),
        cpu,
        err,
        Style::LineMarkers,
    )];
    for label in method_labels(all.iter().map(|a| a.1)) {
        // (cost value, error, cpu): dt, or the tolerance of dopri5.
        let mut pts: Vec<(f64, f64, f64)> = all
            .iter()
            .filter(|(c, _)| matches!(c.joint, Joint::Ideal))
            .filter_map(|(c, o)| method_point(c, o, &label))
            .collect();
        if pts.is_empty() {
            continue;
        }
        pts.sort_by(|a, b| b.2.total_cmp(&a.2));
        let e: Vec<f64> = pts.iter().map(|p| p.1).collect();
        let c: Vec<f64> = pts.iter().map(|p| p.2).collect();
        series.push(Series::new(label.clone(), &c, &e, Style::LineMarkers));
        let method_range = converged_range(
            &pts.iter().map(|p| (p.0, p.1)).collect::<Vec<_>>(),
            Some(true),
            nominal_of(all, &label),
        );
        let detail = format!(
            "{label}: {}; {name} over h: {}",
            describe(&method_range),
            describe(&peer_range)
        );
        let mut range = SpeedupRange {
            method: label.clone(),
            baseline: name.clone(),
            group: String::new(),
            method_range: method_range.as_ref().ok().map(|r| (r.lo, r.hi)),
            baseline_range: peer_range.as_ref().ok().map(|r| (r.lo, r.hi)),
            common: None,
            detail: detail.clone(),
        };
        let method_curve: Vec<(f64, f64)> = pts.iter().map(|p| (p.1, p.2)).collect();
        let compared = match (&method_range, &peer_range) {
            (Ok(m), Ok(p)) => converged_speedups(&peer_curve, p, &method_curve, m),
            _ => Err("no common converged range".to_string()),
        };
        let ((lo, hi), at) = match compared {
            Ok(x) => x,
            Err(why) => {
                let none = if equal_accuracy_speedups(&peer_curve, &method_curve).is_empty() {
                    " (they reach no common slider-velocity error at all)"
                } else {
                    ""
                };
                summary.notes.push(format!(
                    "{label} against {name}: no speed-up at equal slider-velocity error: {why}. {detail}{none}."
                ));
                range.detail = format!("{why}: {detail}");
                summary.speedup_ranges.push(range);
                continue;
            }
        };
        range.common = Some((lo, hi));
        summary.speedup_ranges.push(range);
        let r: Vec<f64> = at.iter().map(|p| p.1).collect();
        summary
            .speedups
            .extend(at.iter().map(|&(error, speedup)| SpeedupRow {
                method: label.clone(),
                baseline: name.clone(),
                error,
                speedup,
                group: String::new(),
            }));
        summary.notes.push(format!(
            "{label} is {:.3}x faster than {name} at equal slider-velocity error (median over {} levels from {:.3e} to {:.3e} m/s; range {:.3}x to {:.3}x; {name}'s times from its SOURCE.md run on this machine), within the common converged range {lo:.3e} to {hi:.3e} m/s: {detail}.",
            median(&r),
            r.len(),
            at[0].0,
            at[at.len() - 1].0,
            r.iter().copied().fold(f64::INFINITY, f64::min),
            r.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        ));
    }
    summary.figures.push(Figure {
        name: "peer-work-precision".into(),
        title: format!("Slider-velocity error against CPU time, with {name}"),
        x: Axis::log("CPU time of the run [s]"),
        y: Axis::log("max |slider velocity - exact| [m/s]"),
        series,
        caption: format!("The ideal slider-crank driven at constant speed: this harness's methods (every step or tolerance of the sweep) and the peer {name} at fixed steps (its own script and SOURCE.md, same machine)."),
    });
}

/// Peak slider acceleration, contact force and torque of every case (the
/// first method), as study scalars grouped by case: the table of peaks.
fn peaks(summary: &mut StudySummary, all: &[(&CaseConfig, &CaseOutput)]) {
    for (_, o) in all {
        let Some((label, out)) = first(o) else {
            continue;
        };
        for (name, doc) in [
            ("peak_slider_a", "max |slider acceleration| [m/s^2]"),
            (
                "peak_contact_force",
                "max normal contact force in the clearance joint [N]",
            ),
            ("peak_torque", "max |driving torque| [N m]"),
            (
                "last_revolution_peak_slider_a",
                "max |slider acceleration| over every step of the last revolution (the figures' window) [m/s^2]",
            ),
            (
                "last_revolution_peak_contact_force",
                "max normal contact force over every step of the last revolution (the figures' window) [N]",
            ),
            (
                "last_revolution_peak_torque",
                "max |driving torque| over every step of the last revolution (the figures' window) [N m]",
            ),
        ] {
            if let Some(v) = out.scalar(name) {
                summary.scalars.push(StudyScalar {
                    scalar: Scalar::new(name, v, doc),
                    method: Some(label.to_string()),
                    group: o.name.clone(),
                });
            }
        }
    }
}

/// The study scalars `friction_effect_<peak>` of each method: the smallest,
/// over the pairs of cases with the same crank speed and clearance, of the
/// relative change |p(mu) - p(0)| / |p(0)| of the peak slider acceleration
/// and the peak contact force that friction mu > 0 makes against the
/// frictionless case (how much friction changes them at the least affected
/// speed and clearance).
pub(super) fn friction_effects(summary: &mut StudySummary, all: &[(&CaseConfig, &CaseOutput)]) {
    let same = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() <= 1e-12 * a.abs().max(b.abs()),
        _ => false,
    };
    for label in method_labels(all.iter().map(|a| a.1)) {
        for (peak, name, doc) in [
            (
                "peak_slider_a",
                "friction_effect_slider_a",
                "smallest relative change of the peak slider acceleration by friction, over the (speed, clearance) pairs [-]",
            ),
            (
                "peak_contact_force",
                "friction_effect_contact_force",
                "smallest relative change of the peak contact force by friction, over the (speed, clearance) pairs [-]",
            ),
        ] {
            let mut changes = Vec::new();
            for (_, o) in all
                .iter()
                .filter(|(_, o)| o.scalar("friction").is_some_and(|f| f > 0.0))
            {
                let twin = all.iter().find(|(_, z)| {
                    z.scalar("friction") == Some(0.0)
                        && same(z.scalar("omega"), o.scalar("omega"))
                        && same(z.scalar("clearance"), o.scalar("clearance"))
                });
                let value = |c: &CaseOutput| c.method(&label)?.output()?.scalar(peak);
                if let Some((_, z)) = twin
                    && let (Some(p), Some(p0)) = (value(o), value(z))
                    && p0 != 0.0
                {
                    changes.push((p - p0).abs() / p0.abs());
                }
            }
            if !changes.is_empty() {
                summary.scalars.push(StudyScalar {
                    scalar: Scalar::new(
                        name,
                        changes.iter().copied().fold(f64::INFINITY, f64::min),
                        doc,
                    ),
                    method: Some(label.clone()),
                    group: String::new(),
                });
            }
        }
    }
}
