//! Study-level results of a stick-slip study: the response of every law
//! against the exact Coulomb motion and the reference curves its checks
//! name (drawn dashed), friction against slip, the cost of the
//! regularised laws against their sharpness (the stiffness they cause),
//! and a sentence per method on its cycle against the exact one.

use crate::harness::figure::{Axis, Figure, Series, Style};
use crate::harness::kind::CheckReference;
use crate::harness::study::{CaseOutput, StudySummary};
use crate::harness::sweep::label::{coords_text, short};
use crate::studies::shared::figures::{count_word, stiffness, succeeded};
use crate::studies::stick_slip::spec::CaseConfig;

/// The suffix of the exact cycle's quantities measured with the case's
/// stick threshold (`exact_stick_duration_at_threshold`, ...).
pub const AT_THRESHOLD: &str = "_at_threshold";

pub(super) fn summarize(
    configs: &[CaseConfig],
    sweep_keys: &[String],
    references: &[CheckReference],
    cases: &[CaseOutput],
) -> StudySummary {
    let mut summary = StudySummary::default();
    let Some((cfg, shown)) = finest(configs, cases) else {
        return summary;
    };
    responses(&mut summary, shown, references);
    stiffness(&mut summary, sweep_keys, cases);
    notes(&mut summary, shown, cfg.stick_threshold);
    summary
}

/// The case with the smallest dt and tolerance (the most accurate run of
/// each method).
fn finest<'a>(
    configs: &'a [CaseConfig],
    cases: &'a [CaseOutput],
) -> Option<(&'a CaseConfig, &'a CaseOutput)> {
    configs.iter().zip(cases).min_by(|a, b| {
        (a.0.span.dt, a.0.span.tolerance)
            .partial_cmp(&(b.0.span.dt, b.0.span.tolerance))
            .unwrap_or(std::cmp::Ordering::Equal)
    })
}

/// The reference curves the checks name that have `column` (each file
/// once): (legend, what the caption says, t, y), over t <= `end`.
fn check_curves(
    references: &[CheckReference],
    column: &str,
    end: f64,
    notes: &mut Vec<String>,
) -> Vec<(String, String, Vec<f64>, Vec<f64>)> {
    let mut files: Vec<&std::path::Path> = Vec::new();
    let mut out = Vec::new();
    for r in references {
        if files.contains(&r.file.as_path()) {
            continue;
        }
        files.push(&r.file);
        let table = match crate::harness::reference::read_csv(&r.file) {
            Ok(t) => t,
            Err(e) => {
                notes.push(format!(
                    "The reference of check {} is not drawn: {e}.",
                    r.check
                ));
                continue;
            }
        };
        let (Some(t), Some(y)) = (table.values("t"), table.values(column)) else {
            continue;
        };
        let keep = t.iter().take_while(|&&s| s <= end * (1.0 + 1e-12)).count();
        let name = r
            .file
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        let checks: Vec<&str> = references
            .iter()
            .filter(|o| o.file == r.file)
            .map(|o| o.check.as_str())
            .collect();
        out.push((
            format!("reference {name}"),
            format!(
                "the reference curve {name} that checks {} compare with",
                checks.join(", ")
            ),
            t[..keep].to_vec(),
            y[..keep].to_vec(),
        ));
    }
    out
}

fn responses(summary: &mut StudySummary, o: &CaseOutput, references: &[CheckReference]) {
    let at = if o.coords.is_empty() {
        String::new()
    } else {
        format!(" ({})", coords_text(&o.coords))
    };
    let laws = succeeded(o);
    let end = o
        .methods
        .iter()
        .filter_map(|m| m.output()?.series.values("t")?.last().copied())
        .fold(0.0f64, f64::max);
    let drawn = format!(
        "{} {} ({}) over t = 0 to {} s",
        count_word(laws.len()),
        if laws.len() == 1 { "law" } else { "laws" },
        laws.join(", "),
        short(end)
    );
    for (column, title, unit) in [
        ("x", "Position of the mass", "x [m]"),
        ("slip", "Slip velocity", "slip u = v - v_b [m/s]"),
        ("friction", "Friction force on the mass", "friction T [N]"),
    ] {
        let mut series = Vec::new();
        let mut dashed: Vec<String> = Vec::new();
        if let Some(ex) = o.table("exact")
            && let (Some(t), Some(y)) = (ex.table.values("t"), ex.table.values(column))
        {
            series.push(Series::new("exact (Coulomb)", t, y, Style::Dashed));
            dashed.push("the exact piecewise-analytic motion with Coulomb friction".into());
        }
        for (label, said, t, y) in check_curves(references, column, end, &mut summary.notes) {
            series.push(Series::new(label, &t, &y, Style::Dashed));
            dashed.push(said);
        }
        for (k, m) in o.methods.iter().enumerate() {
            let Some(out) = m.output() else { continue };
            if let (Some(t), Some(y)) = (out.series.values("t"), out.series.values(column)) {
                series.push(Series::new(m.label(), t, y, Style::Line).grouped(k + 1));
            }
        }
        if series.is_empty() {
            continue;
        }
        let references = if dashed.is_empty() {
            "no reference: the case has no exact Coulomb motion and its checks name no curve of this quantity".to_string()
        } else {
            format!("dashed: {}", dashed.join("; "))
        };
        summary.figures.push(Figure {
            name: format!("response-{column}"),
            title: format!("{title}{at}"),
            x: Axis::linear("time t [s]"),
            y: Axis::linear(unit),
            series,
            caption: format!("{title} against time, {drawn}; {references}."),
        });
    }
    let mut series = Vec::new();
    for (k, m) in o.methods.iter().enumerate() {
        let Some(out) = m.output() else { continue };
        if let (Some(u), Some(f)) = (out.series.values("slip"), out.series.values("friction")) {
            series.push(Series::new(m.label(), u, f, Style::Markers).grouped(k + 1));
        }
    }
    if !series.is_empty() {
        summary.figures.push(Figure {
            name: "friction-vs-slip".into(),
            title: format!("Friction force against slip{at}"),
            x: Axis::linear("slip u = v - v_b [m/s]"),
            y: Axis::linear("friction T [N]"),
            series,
            caption: format!("The friction force each law produced against the slip at the output times, {drawn}: a set-valued law sticks on the vertical segment at u = 0; a regularised law passes through the origin with a finite slope (its stiffness)."),
        });
    }
}

fn notes(summary: &mut StudySummary, o: &CaseOutput, stick_threshold: f64) {
    let (Some(stick), Some(slip)) = (
        o.scalar("exact_stick_duration"),
        o.scalar("exact_slip_duration"),
    ) else {
        return;
    };
    let thresholded = match (
        o.scalar(&format!("exact_stick_duration{AT_THRESHOLD}")),
        o.scalar(&format!("exact_slip_duration{AT_THRESHOLD}")),
    ) {
        (Some(a), Some(b)) => format!(
            "; measured with the stick threshold {stick_threshold:e} m/s, as the methods that do not stick exactly are: stick {a:.6} s, slip {b:.6} s"
        ),
        _ => String::new(),
    };
    summary.notes.push(format!(
        "Exact Coulomb cycle of case {} (stuck while the slip is zero): stick {stick:.6} s, slip {slip:.6} s{thresholded}.",
        o.name
    ));
    for m in &o.methods {
        let Some(out) = m.output() else { continue };
        let threshold = out.scalar("stick_threshold").unwrap_or(stick_threshold);
        if let (Some(s), Some(p), Some(e)) = (
            out.scalar("stick_duration"),
            out.scalar("slip_duration"),
            out.scalar("cycle_error"),
        ) {
            summary.notes.push(format!(
                "{}: stick {s:.6} s, slip {p:.6} s (stick threshold {threshold:.1e} m/s); cycle error {e:.2e} s ({:.3} % of the period).",
                m.label(),
                100.0 * e / (stick + slip)
            ));
        } else {
            summary.notes.push(format!(
                "{}: no full stick-slip cycle found (stick threshold {threshold:e} m/s).",
                m.label(),
            ));
        }
    }
}
