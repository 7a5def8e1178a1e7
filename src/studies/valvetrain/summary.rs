//! Study-level results of a valvetrain study: per method, what held at
//! every speed below lift-off; figures against the cam angle (lift,
//! velocity, acceleration, forces), against the camshaft speed (dynamic
//! spring force, seat impact, bounce, smallest cam force), the Campbell
//! diagram of the spring-seat force, and the notes that compare the spring
//! models (the paper's claim that the valvetrain dynamics is widely
//! affected by the spring's vibration).

use crate::harness::figure::{Axis, Figure, Series, Style};
use crate::harness::study::{CaseOutput, Scalar, StudyScalar, StudySummary};
use crate::harness::sweep::label::short;
use crate::models::valvetrain::SpringModel;
use crate::studies::shared::figures::{CamCurves, against_cam_angle, case_text, count_word};
use crate::studies::valvetrain::spec::CaseConfig;

/// The value of method scalar `name` of `label` in case `o`.
fn scalar(o: &CaseOutput, label: &str, name: &str) -> Option<f64> {
    o.methods
        .iter()
        .find(|m| m.label() == label)?
        .output()?
        .scalars
        .iter()
        .find(|s| s.name == name)
        .map(|s| s.value)
}

fn case_scalar(o: &CaseOutput, name: &str) -> Option<f64> {
    o.scalars.iter().find(|s| s.name == name).map(|s| s.value)
}

pub(super) fn summarize(configs: &[CaseConfig], cases: &[CaseOutput]) -> StudySummary {
    let mut summary = StudySummary::default();
    let Some(first) = configs.first() else {
        return summary;
    };
    let labels: Vec<String> = first.methods.iter().map(|m| m.label.clone()).collect();
    let speeds: Vec<f64> = configs.iter().map(|c| c.cam.cam_speed).collect();
    let surges: Vec<f64> = configs
        .iter()
        .map(|c| c.spring.params.surge_frequency())
        .collect();
    let designs = surges.iter().any(|&f| f != surges[0]);
    let speed_sweep = speeds.iter().any(|&s| s != speeds[0]);
    if designs {
        let find = |single: bool| {
            first
                .methods
                .iter()
                .find(|m| matches!(m.model, SpringModel::SingleMass) == single)
                .map(|m| m.label.clone())
        };
        if let (Some(multi), Some(single)) = (find(false), find(true)) {
            super::designs::summarize(&mut summary, &multi, &single, cases);
        }
        below_jump(&mut summary, &labels, &speeds, cases);
        return summary;
    }
    if speed_sweep {
        below_jump(&mut summary, &labels, &speeds, cases);
        against_speed(&mut summary, &labels, &speeds, cases);
        against_angle_per_speed(&mut summary, &labels, cases);
        campbell(&mut summary, configs, &labels, cases);
    } else if let Some(o) = cases.last() {
        against_angle_per_method(&mut summary, o);
    }
    claim(&mut summary, configs, &speeds, cases);
    summary
}

/// Per method, over the cases without lift-off: the largest follower
/// tracking error, the smallest cam force, how many did not close.
fn below_jump(summary: &mut StudySummary, labels: &[String], speeds: &[f64], cases: &[CaseOutput]) {
    for label in labels {
        let mut count = 0.0;
        let mut tracking = 0.0f64;
        let mut min_force = f64::INFINITY;
        let mut open = 0.0;
        let mut first_liftoff = f64::NAN;
        let mut above = 0.0;
        let mut top = f64::NAN;
        for (o, &speed) in cases.iter().zip(speeds) {
            let Some(liftoff) = scalar(o, label, "liftoff") else {
                continue;
            };
            if top.is_nan() || speed > top {
                top = speed;
            }
            if liftoff > 0.5 {
                above += 1.0;
                if first_liftoff.is_nan() || speed < first_liftoff {
                    first_liftoff = speed;
                }
                continue;
            }
            count += 1.0;
            tracking = tracking.max(scalar(o, label, "tracking_error").unwrap_or(f64::NAN));
            min_force = min_force.min(scalar(o, label, "min_cam_force").unwrap_or(f64::NAN));
            if scalar(o, label, "closes") != Some(1.0) {
                open += 1.0;
            }
        }
        let add = |name: &str, value: f64, doc: &str| StudyScalar {
            scalar: Scalar::new(name, value, doc),
            method: Some(label.clone()),
            group: String::new(),
        };
        summary.scalars.push(add(
            "speeds_below_jump",
            count,
            "cases whose follower stayed on the cam [-]",
        ));
        summary.scalars.push(add(
            "liftoff_speed_min",
            first_liftoff,
            "lowest case speed with lift-off (NaN: none) [rev/s]",
        ));
        summary.scalars.push(add(
            "speeds_above_jump",
            above,
            "cases whose follower left the cam [-]",
        ));
        summary.scalars.push(add(
            "top_speed_over_liftoff",
            top / first_liftoff,
            "highest case speed the method ran at, over liftoff_speed_min (at least its top speed over its jump speed, which lies at or below liftoff_speed_min; NaN: no lift-off) [-]",
        ));
        if count > 0.0 {
            summary.scalars.push(add("max_tracking_error_below_jump", tracking, "largest |x_f - (h - lash)| while the cam pushes, over the cases without lift-off [m]"));
            summary.scalars.push(add("min_cam_force_below_jump", min_force, "smallest cam-follower force while the cam lifts, over the cases without lift-off [N]"));
            summary.scalars.push(add("open_at_end_below_jump", open, "cases without lift-off whose valve is not on its seat at the end of the revolution [-]"));
        }
    }
}

fn against_speed(
    summary: &mut StudySummary,
    labels: &[String],
    speeds: &[f64],
    cases: &[CaseOutput],
) {
    for (name, title, unit, caption) in [
        (
            "seat_force_deviation",
            "Dynamic spring force against camshaft speed",
            "max |F_seat - F_static(x_v)| [N]",
            "The spring's dynamic force on its seat: the part beyond its quasi-static force at the same valve lift (F0 + k x_v; with coil contact the static curve, whose closing coils stiffen the spring), largest mean over 0.2 ms windows of the last revolution, per spring model.",
        ),
        (
            "impact_velocity",
            "Valve seating velocity against camshaft speed",
            "closing speed at landing [m/s]",
            "The valve's largest closing speed when it lands on its seat (last revolution). With zero lash the cam sets the valve down gently until the follower leaves the cam.",
        ),
        (
            "bounce_height",
            "Valve bounce against camshaft speed",
            "largest lift after first landing [m]",
            "How far the valve lifts off its seat again after it first landed (last revolution); 0 when it stays closed.",
        ),
        (
            "min_cam_force",
            "Smallest cam-follower force against camshaft speed",
            "min cam force while lifting [N]",
            "The smallest contact force between cam and follower while the cam lifts; where it reaches 0 the follower lifts off (valve jump).",
        ),
    ] {
        let mut series = Vec::new();
        let mut drawn: Vec<&str> = Vec::new();
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for label in labels {
            let (x, y): (Vec<f64>, Vec<f64>) = cases
                .iter()
                .zip(speeds)
                .filter_map(|(o, &s)| Some((s, scalar(o, label, name)?)))
                .unzip();
            if x.len() >= 2 {
                lo = x.iter().copied().fold(lo, f64::min);
                hi = x.iter().copied().fold(hi, f64::max);
                series.push(Series::new(label.clone(), &x, &y, Style::LineMarkers));
                drawn.push(label);
            }
        }
        if series.is_empty() {
            continue;
        }
        summary.figures.push(Figure {
            name: name.replace('_', "-"),
            title: title.into(),
            x: Axis::linear("camshaft speed [rev/s]"),
            y: Axis::linear(unit),
            series,
            caption: format!(
                "{caption} Lines: {} methods ({}) at camshaft speeds from {} to {} rev/s.",
                count_word(drawn.len()),
                drawn.join(", "),
                short(lo),
                short(hi)
            ),
        });
    }
}

/// Up to six speeds, evenly picked.
fn picked(n: usize) -> Vec<usize> {
    if n <= 6 {
        return (0..n).collect();
    }
    let mut v: Vec<usize> = (0..6).map(|k| k * (n - 1) / 5).collect();
    v.dedup();
    v
}

fn against_angle_per_speed(summary: &mut StudySummary, labels: &[String], cases: &[CaseOutput]) {
    let Some(label) = labels.first() else { return };
    // The speeds whose follower stays on the cam: above the jump the
    // impacts (tens of kN) would flatten every other curve; those speeds
    // are in the figures against the speed.
    let below: Vec<&CaseOutput> = cases
        .iter()
        .filter(|o| scalar(o, label, "liftoff") == Some(0.0))
        .collect();
    for (column, name, title, unit) in [
        (
            "valve_lift",
            "lift",
            "Valve lift against cam angle",
            "valve lift [m]",
        ),
        (
            "valve_velocity",
            "velocity",
            "Valve velocity against cam angle",
            "valve velocity [m/s]",
        ),
        (
            "valve_acceleration",
            "acceleration",
            "Valve acceleration against cam angle",
            "valve acceleration [m/s^2]",
        ),
        (
            "cam_force",
            "cam-force",
            "Cam-follower force against cam angle",
            "cam-follower force [N]",
        ),
        (
            "spring_seat_force",
            "spring-seat-force",
            "Spring-seat force against cam angle",
            "spring-seat force [N]",
        ),
    ] {
        let mut series = Vec::new();
        let mut at: Vec<String> = Vec::new();
        for k in picked(below.len()) {
            let o = below[k];
            let Some(out) = o
                .methods
                .iter()
                .find(|m| m.label() == label)
                .and_then(|m| m.output())
            else {
                continue;
            };
            if let (Some(a), Some(y)) = (out.series.values("cam_angle"), out.series.values(column))
            {
                let speed = case_scalar(o, "cam_speed").unwrap_or(f64::NAN);
                series.push(Series::new(format!("{speed} rev/s"), a, y, Style::Line));
                at.push(short(speed));
            }
        }
        if series.is_empty() {
            continue;
        }
        summary.figures.push(Figure {
            name: name.into(),
            title: format!("{title}, {label}"),
            x: Axis::linear("cam angle within the last revolution [deg]"),
            y: Axis::linear(unit),
            series,
            caption: format!("{title} over the last simulated revolution by {label} at {} camshaft speeds below the jump ({} rev/s; up to six of the {} without lift-off). The cam lifts over the first part of the revolution, then the follower rides the base circle. Speeds with lift-off are in the figures against the camshaft speed.", count_word(at.len()), at.join(", "), below.len()),
        });
    }
}

fn against_angle_per_method(summary: &mut StudySummary, o: &CaseOutput) {
    for (column, name, title, unit) in [
        (
            "valve_lift",
            "lift",
            "Valve lift against cam angle",
            "valve lift [m]",
        ),
        (
            "cam_force",
            "cam-force",
            "Cam-follower force against cam angle",
            "cam-follower force [N]",
        ),
        (
            "spring_seat_force",
            "spring-seat-force",
            "Spring-seat force against cam angle",
            "spring-seat force [N]",
        ),
    ] {
        let CamCurves {
            series,
            methods,
            reference,
        } = against_cam_angle(o, column, true);
        if series.is_empty() {
            continue;
        }
        let case = case_text(o);
        summary.figures.push(Figure {
            name: name.into(),
            title: format!("{title} ({case})"),
            x: Axis::linear("cam angle within the last revolution [deg]"),
            y: Axis::linear(unit),
            series,
            caption: format!(
                "{title} of {} methods ({}) in case {case}{reference}, last simulated revolution.",
                count_word(methods.len()),
                methods.join(", ")
            ),
        });
    }
}

/// The Campbell diagram of the first method: markers at (speed, n x speed)
/// for the spring-seat force's harmonics, in three amplitude classes; the
/// surge frequency and a few cam orders drawn as lines.
fn campbell(
    summary: &mut StudySummary,
    configs: &[CaseConfig],
    labels: &[String],
    cases: &[CaseOutput],
) {
    let Some(label) = labels.first() else { return };
    let mut points: Vec<(f64, f64, f64)> = Vec::new();
    for (o, cfg) in cases.iter().zip(configs) {
        let Some(out) = o
            .methods
            .iter()
            .find(|m| m.label() == label)
            .and_then(|m| m.output())
        else {
            continue;
        };
        let Some(t) = out.tables.iter().find(|t| t.what == "spectrum") else {
            continue;
        };
        if let (Some(f), Some(a)) = (t.table.values("frequency"), t.table.values("amplitude")) {
            for (f, a) in f.iter().zip(a) {
                points.push((cfg.cam.cam_speed, *f, *a));
            }
        }
    }
    let peak = points.iter().fold(0.0f64, |m, p| m.max(p.2));
    if points.is_empty() || peak <= 0.0 {
        return;
    }
    let surge = configs[0].spring.params.surge_frequency();
    let (s0, s1) = configs.iter().fold((f64::INFINITY, 0.0f64), |(a, b), c| {
        (a.min(c.cam.cam_speed), b.max(c.cam.cam_speed))
    });
    let mut series = vec![
        Series::new(
            format!("surge frequency f1 = {surge:.0} Hz"),
            &[s0, s1],
            &[surge, surge],
            Style::Dashed,
        ),
        Series::new(
            format!("second mode 2 f1 = {:.0} Hz", 2.0 * surge),
            &[s0, s1],
            &[2.0 * surge, 2.0 * surge],
            Style::Dashed,
        ),
    ];
    for n in [8usize, 12, 16, 20] {
        series.push(Series::new(
            format!("cam order {n}"),
            &[s0, s1],
            &[n as f64 * s0, n as f64 * s1],
            Style::Line,
        ));
    }
    for (lo, hi, what) in [
        (0.3, 1.01, "above 30 %"),
        (0.1, 0.3, "10-30 %"),
        (0.03, 0.1, "3-10 %"),
    ] {
        let (x, y): (Vec<f64>, Vec<f64>) = points
            .iter()
            .filter(|p| p.2 >= lo * peak && p.2 < hi * peak && p.1 <= 2.5 * surge)
            .map(|p| (p.0, p.1))
            .unzip();
        if !x.is_empty() {
            series.push(Series::new(
                format!("harmonic amplitude {what} of {peak:.0} N"),
                &x,
                &y,
                Style::Markers,
            ));
        }
    }
    summary.figures.push(Figure {
        name: "campbell".into(),
        title: format!("Campbell diagram of the spring-seat force, {label}"),
        x: Axis::linear("camshaft speed [rev/s]"),
        y: Axis::linear("frequency [Hz]"),
        series,
        caption: format!("Harmonics n x n_cam of the spring's dynamic seat force (seat force minus its quasi-static value at the same lift) over the last revolution at each camshaft speed ({label}), marked by amplitude class relative to the largest ({peak:.0} N). The spring vibrates at its surge frequency ({surge:.0} Hz, dashed) where the cam harmonics meet it; the cam-order rays show where each harmonic crosses it."),
    });
}

/// The paper's claim in numbers: the multi-mass spring (the first method
/// with it) against the single-mass one, from the methods' scalars.
fn claim(summary: &mut StudySummary, configs: &[CaseConfig], speeds: &[f64], cases: &[CaseOutput]) {
    let Some(cfg) = configs.first() else { return };
    let find = |single: bool| {
        cfg.methods
            .iter()
            .find(|m| matches!(m.model, SpringModel::SingleMass) == single)
            .map(|m| m.label.clone())
    };
    let (Some(multi), Some(single)) = (find(false), find(true)) else {
        return;
    };
    let speed_sweep = speeds.iter().any(|&s| s != speeds[0]);
    if let Some(o) = cases.first()
        && let (Some(jm), Some(js)) = (
            scalar(o, &multi, "jump_speed"),
            scalar(o, &single, "jump_speed"),
        )
    {
        let analytic = case_scalar(o, "analytic_jump_speed").unwrap_or(f64::NAN);
        summary.notes.push(format!(
            "The paper's claim (the valvetrain dynamics is widely affected by the vibration of the valve spring), the jump speed: {multi} {jm:.2} rev/s against {single} {js:.2} rev/s, a difference of {:+.1} %; the rigid single-mass valvetrain's analytic value is {analytic:.2} rev/s. On the jump speed the spring's vibration acts weakly for this spring (surge frequency {:.0} Hz, {:.1} x the cam frequency at the jump).",
            100.0 * (jm - js) / js,
            cfg.spring.params.surge_frequency(),
            cfg.spring.params.surge_frequency() / jm,
        ));
    }
    if !speed_sweep {
        return;
    }
    let per_speed = |label: &str, name: &str| -> Vec<(f64, f64)> {
        cases
            .iter()
            .zip(speeds)
            .filter_map(|(o, &s)| Some((s, scalar(o, label, name)?)))
            .collect()
    };
    let dm = per_speed(&multi, "seat_force_deviation");
    let ds = per_speed(&single, "seat_force_deviation");
    let ratios: Vec<(f64, f64)> = dm
        .iter()
        .zip(&ds)
        .filter(|(a, b)| a.0 == b.0 && b.1 > 0.0)
        .map(|(a, b)| (a.0, a.1 / b.1))
        .collect();
    let peak = |v: &[(f64, f64)]| {
        v.iter().copied().fold(
            (f64::NAN, f64::NEG_INFINITY),
            |a, b| if b.1 > a.1 { b } else { a },
        )
    };
    if let (Some(lo), Some(_)) = (ratios.iter().map(|r| r.1).reduce(f64::min), ratios.first()) {
        let (pm_s, pm) = peak(&dm);
        let (ps_s, ps) = peak(&ds);
        let hi = ratios.iter().map(|r| r.1).fold(f64::NEG_INFINITY, f64::max);
        summary.notes.push(format!(
            "The paper's claim, the spring force: reproduced. The multi-mass spring's dynamic seat force (beyond its quasi-static force at the same lift) is {lo:.0} to {hi:.0} times the single-mass model's at every speed: largest {pm:.0} N ({multi}, at {pm_s} rev/s) against {ps:.1} N ({single}, at {ps_s} rev/s). A single mass with m_active / 3 cannot carry the spring's surge vibration."
        ));
    }
    let first_liftoff = |label: &str| {
        per_speed(label, "liftoff")
            .into_iter()
            .find(|p| p.1 > 0.5)
            .map(|p| format!("{} rev/s", p.0))
            .unwrap_or_else(|| "none in the sweep".into())
    };
    let (bm_s, bm) = peak(&per_speed(&multi, "bounce_height"));
    let (bs_s, bs) = peak(&per_speed(&single, "bounce_height"));
    summary.notes.push(format!(
        "Lowest swept speed with lift-off: {multi} {}, {single} {}. Largest valve bounce after landing: {multi} {:.2} µm (at {bm_s} rev/s), {single} {:.2} µm (at {bs_s} rev/s).",
        first_liftoff(&multi),
        first_liftoff(&single),
        bm * 1e6,
        bs * 1e6,
    ));
}
